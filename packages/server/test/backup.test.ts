/**
 * `npm run backup`: on SQLite a consistent copy made while the server runs, that opens and holds
 * the data; on PostgreSQL the pg_dump command, which (where pg_dump is installed) really dumps.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backupDatabase, openDatabase } from '@tools-portal/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from './support/database.js';
import { ADMIN_EMAIL, createApp, useTestPortal } from './support/support.js';

const portal = useTestPortal();
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-backup-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(testDialect() !== 'sqlite')('backup on SQLite', () => {
  it('copies the running database into a file that opens and holds the data', async () => {
    const app = await createApp(portal.admin);
    const target = path.join(dir, 'copy.db');
    const result = await backupDatabase(portal.deps.config.databaseUrl, { target });
    expect(result).toEqual({ dialect: 'sqlite', file: target });

    const copy = openDatabase({ url: `sqlite:${target}` });
    try {
      expect(await copy.raw('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(await copy('apps').where({ id: app.id }).first()).toMatchObject({ name: app.name, url: app.url });
      expect(await copy('users').where({ email: ADMIN_EMAIL }).first()).toBeTruthy();
    } finally {
      await copy.destroy();
    }
    // The server goes on serving and writing after the copy.
    await createApp(portal.admin);
  });

  it('names the copy by its time, beside the database, and never overwrites one', async () => {
    const now = new Date('2026-11-22T01:02:03.456Z');
    const result = await backupDatabase(portal.deps.config.databaseUrl, { now });
    const source = portal.deps.config.databaseUrl.replace(/^sqlite:/, '');
    expect(result).toEqual({ dialect: 'sqlite', file: path.join(path.dirname(source), 'backups', 'portal-2026-11-22T01-02-03Z.db') });
    expect(fs.statSync((result as { file: string }).file).size).toBeGreaterThan(0);
    await expect(backupDatabase(portal.deps.config.databaseUrl, { now })).rejects.toThrow(/already exists/);
  });

  it('refuses a database file that does not exist, creating nothing', async () => {
    const missing = path.join(dir, 'missing.db');
    await expect(backupDatabase(`sqlite:${missing}`)).rejects.toThrow(/no SQLite database/);
    expect(fs.existsSync(missing)).toBe(false);
  });
});

describe.skipIf(testDialect() !== 'postgres')('backup on PostgreSQL', () => {
  it('prints the pg_dump and pg_restore commands without the password', async () => {
    const result = await backupDatabase('postgres://portal:s3cret@db.example.com:5432/portal', { now: new Date('2026-11-22T01:02:03Z') });
    expect(result).toEqual({
      dialect: 'postgres',
      command: "PGPASSWORD=… pg_dump --format=custom --no-owner --file=portal-2026-11-22T01-02-03Z.dump 'postgres://portal@db.example.com:5432/portal'",
      restore:
        "PGPASSWORD=… pg_restore --clean --if-exists --no-owner --dbname='postgres://portal@db.example.com:5432/portal' portal-2026-11-22T01-02-03Z.dump",
    });
  });

  const hasPgDump = spawnSync('pg_dump', ['--version']).status === 0;
  it.skipIf(!hasPgDump)('the printed command dumps the running database', async () => {
    const app = await createApp(portal.admin);
    const result = await backupDatabase(portal.deps.config.databaseUrl);
    if (result.dialect !== 'postgres') throw new Error('expected the PostgreSQL answer');
    const [, file, url] = /--file=(\S+) '(.+)'$/.exec(result.command) ?? [];
    const dump = path.join(dir, file);
    // A test portal's tables are in a database of its own (a copy of the run's template), in its
    // default schema as in production; portals given an empty test database use a schema of their own.
    const schema = (portal.deps.db.client.config.searchPath?.[0] as string | undefined) ?? 'public';
    const made = spawnSync('pg_dump', ['--format=custom', '--no-owner', `--file=${dump}`, `--schema=${schema}`, url], { encoding: 'utf8' });
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    const listed = spawnSync('pg_restore', ['--list', dump], { encoding: 'utf8' });
    expect(listed.stdout).toMatch(new RegExp(`TABLE DATA ${schema} apps `));
    const plain = spawnSync('pg_restore', ['--data-only', `--table=apps`, '--file=-', dump], { encoding: 'utf8' });
    expect(plain.stdout).toContain(app.name);
  });
});
