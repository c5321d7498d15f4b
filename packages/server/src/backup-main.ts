#!/usr/bin/env node
/**
 * `npm run backup [-- FILE]`: a consistent copy of the DATABASE_URL database (SQLite), or the
 * pg_dump command that makes one (PostgreSQL). docs/deployment.md describes both.
 */
import { ConfigError, loadConfig } from './config.js';
import { backupDatabase } from './db/backup.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const result = await backupDatabase(config.databaseUrl, { target: process.argv[2] });
  if (result.dialect === 'sqlite') {
    process.stdout.write(`${result.file}\n`);
    process.stderr.write('backup written; restore by stopping the server and copying it over the database file\n');
    return;
  }
  process.stdout.write(
    [
      'PostgreSQL is backed up with its own tools. Make a consistent dump (safe while the portal runs):',
      '',
      `  ${result.command}`,
      '',
      'and restore it, with the portal stopped, into the database DATABASE_URL names:',
      '',
      `  ${result.restore}`,
      '',
    ].join('\n'),
  );
}

main().catch((error) => {
  process.stderr.write(`backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
