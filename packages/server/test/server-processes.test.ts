/**
 * Two real server processes (`node packages/server/dist/main.js`, as `npm start` runs it) on one
 * empty PostgreSQL database: they start together, and one's state holds on the other. The same
 * behaviours run in-process on both databases in instances.test.ts; this proves them with
 * nothing shared but the database.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PortalClient } from '@tools-portal/core';
import { openDatabase } from '@tools-portal/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, onTestPostgres, testDialect } from './support/database.js';
import { spawnServer, type ServerProcess } from './support/processes.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, becomesTrue, CACHE_BOUND_MS, failure, refuses, unique } from './support/support.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BACKUP = fileURLToPath(new URL('../dist/backup-main.js', import.meta.url));
// Two processes migrating one empty database at once take longer than one.
const START_TIMEOUT_MS = 30_000;

describe.skipIf(testDialect() !== 'postgres')('two server processes on one PostgreSQL database', () => {
  let database: { url: string; drop(): Promise<void> };
  let a: ServerProcess;
  let b: ServerProcess;
  const on = (server: ServerProcess, token?: string) => new PortalClient({ baseUrl: server.url, token });

  beforeAll(async () => {
    // The compiled server is what `npm start` runs; tsc -b is incremental, a no-op when built.
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
    database = await createPostgresDatabase();
    const env = { DATABASE_URL: database.url, ADMIN_EMAIL, ADMIN_PASSWORD, WEB_ROOT: '' };
    const started = await Promise.allSettled([spawnServer(env, START_TIMEOUT_MS), spawnServer(env, START_TIMEOUT_MS)]);
    [a, b] = started.map((result) => (result.status === 'fulfilled' ? result.value : (undefined as unknown as ServerProcess)));
    for (const result of started) if (result.status === 'rejected') throw result.reason;
  }, 120_000);
  afterAll(async () => {
    for (const server of [a, b]) {
      if (server && server.child.exitCode === null) await server.kill();
    }
    await database?.drop();
  });

  it('start together on the empty database: migrated once, one first admin', async () => {
    expect((await on(a).health()).status).toBe('ok');
    expect((await on(b).health()).status).toBe('ok');
    const created = [a, b].filter((server) => server.output().includes(`first start: created admin ${ADMIN_EMAIL}`));
    expect(created).toHaveLength(1);
    await onTestPostgres(database.url, async (client) => {
      const migrations = await client.query('SELECT name FROM knex_migrations');
      expect(new Set(migrations.rows.map((row) => row.name)).size).toBe(migrations.rowCount);
      expect((await client.query('SELECT is_locked FROM knex_migrations_lock')).rows).toEqual([{ is_locked: 0 }]);
      expect((await client.query("SELECT count(*)::int AS count FROM clients WHERE name = 'Admin'")).rows).toEqual([{ count: 1 }]);
    });
  });

  it('log in on A, use on B; log out on B, A refuses', async () => {
    const login = await on(a).auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD });
    expect((await on(b, login.accesstoken).users.me()).email).toBe(ADMIN_EMAIL);
    await on(b, login.accesstoken).auth.logout();
    expect(await becomesTrue(() => refuses(on(a, login.accesstoken).users.me()), CACHE_BOUND_MS)).toBe(true);
  });

  it('an invite made on A registers on B; a ban earned on A holds on B', async () => {
    const admin = on(a, (await on(a).auth.login({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD })).accesstoken);
    const owner = await admin.clients.create(unique('client'));
    const email = `${unique('invited')}@example.com`;
    const invite = await admin.invites.create({ email, clientid: owner.id, apps: [] });
    const registered = await on(b).auth.register({ Token: invite.token, Password: 'a-fine-password' });
    expect((await on(a, registered.accesstoken).users.me()).email).toBe(email);

    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await failure(on(a).auth.login({ Email: email, Password: 'wrong-password' }))).toMatchObject({ code: 'unauthenticated' });
    }
    expect(await failure(on(b).auth.login({ Email: email, Password: 'a-fine-password' }))).toMatchObject({ code: 'too_many_requests' });
  });

  it('a process whose database is unreachable at start says so and exits 1', async () => {
    const closed = new URL(database.url);
    closed.port = '1';
    closed.password = 'secret-password';
    const failed = await spawnServer({ DATABASE_URL: closed.toString(), ADMIN_EMAIL, ADMIN_PASSWORD, WEB_ROOT: '' }, START_TIMEOUT_MS).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failed).toMatch(
      /exited with 1:\nTools-Portal failed to start: the database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/\S+ is unreachable \(connect ECONNREFUSED/,
    );
    expect(failed).not.toContain('secret-password');
  });

  it('npm run backup (compiled) prints the pg_dump command for PostgreSQL', () => {
    const run = spawnSync(process.execPath, [BACKUP], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url }, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/pg_dump --format=custom --no-owner --file=portal-\S+\.dump 'postgres(ql)?:\/\/[^']*\/portal_test_[^']*'/);
    expect(run.stdout).toContain('pg_restore --clean --if-exists');
  });

  it('npm run backup (compiled) copies a SQLite database into a file that opens', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-backup-cli-'));
    try {
      const source = openDatabase({ url: `sqlite:${path.join(dir, 'portal.db')}` });
      await source.schema.createTable('probe', (table) => table.string('value'));
      await source('probe').insert({ value: 'kept' });
      await source.destroy();
      const target = path.join(dir, 'copy.db');
      const run = spawnSync(process.execPath, [BACKUP, target], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${path.join(dir, 'portal.db')}` },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(`${target}\n`);
      const copy = openDatabase({ url: `sqlite:${target}` });
      try {
        expect(await copy('probe').select('value')).toEqual([{ value: 'kept' }]);
      } finally {
        await copy.destroy();
      }
      const again = spawnSync(process.execPath, [BACKUP, target], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${path.join(dir, 'portal.db')}` },
        encoding: 'utf8',
      });
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/already exists/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stop cleanly on SIGTERM', async () => {
    expect(await Promise.all([a.stop(), b.stop()])).toEqual([0, 0]);
  });
});
