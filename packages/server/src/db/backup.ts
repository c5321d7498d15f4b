/**
 * A consistent copy of the database while the server runs. SQLite: `VACUUM INTO` a timestamped
 * file (one read transaction, so the copy is one moment of the database, compacted). PostgreSQL:
 * the pg_dump command to run, since the dump belongs to the database's own tools.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sqliteFile } from '../config.js';
import { openDatabase } from './connection.js';

export type BackupResult = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; command: string; restore: string };

/** `2026-11-22T00-36-12Z`: sortable, and valid in a file name everywhere. */
function backupStamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
}

export async function backupDatabase(databaseUrl: string, options: { target?: string; now?: Date } = {}): Promise<BackupResult> {
  const stamp = backupStamp(options.now ?? new Date());
  if (!databaseUrl.startsWith('sqlite:')) return postgresBackup(databaseUrl, stamp);
  const source = sqliteFile(databaseUrl);
  if (source === ':memory:' || !fs.existsSync(source)) throw new Error(`no SQLite database at ${source} to back up`);
  const target = path.resolve(options.target ?? path.join(path.dirname(source), 'backups', `${path.basename(source, '.db')}-${stamp}.db`));
  if (fs.existsSync(target)) throw new Error(`${target} already exists; not overwriting it`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const db = openDatabase({ url: databaseUrl });
  try {
    await db.raw('VACUUM INTO ?', [target]);
  } finally {
    await db.destroy();
  }
  return { dialect: 'sqlite', file: target };
}

function postgresBackup(databaseUrl: string, stamp: string): BackupResult {
  const url = new URL(databaseUrl);
  const hasPassword = url.password !== '';
  url.password = '';
  const quoted = `'${url.toString().replace(/'/g, `'\\''`)}'`;
  const password = hasPassword ? 'PGPASSWORD=… ' : '';
  return {
    dialect: 'postgres',
    command: `${password}pg_dump --format=custom --no-owner --file=portal-${stamp}.dump ${quoted}`,
    restore: `${password}pg_restore --clean --if-exists --no-owner --dbname=${quoted} portal-${stamp}.dump`,
  };
}
