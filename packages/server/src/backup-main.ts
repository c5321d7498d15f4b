#!/usr/bin/env node
/**
 * `npm run backup [-- FILE]`: a consistent copy of the DATABASE_URL database (SQLite), or the
 * pg_dump command that makes one (PostgreSQL). docs/deployment.md describes both.
 */
import { loadConfigOrExit } from './config.js';
import { backupDatabase } from './db/backup.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
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
