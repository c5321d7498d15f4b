/**
 * One regulator and one counter table (docs/architecture.md, Data; services/sign-in/regulator.ts): only
 * the regulator reads or writes the counters and bans, and the migration moves the live counts of
 * the password-reset limits and the anonymous rate limits into `login_attempts` and back, on the
 * dialect under test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, migrateToLatest, openDatabase } from '@tools-portal/server';
import { prepareDatabase } from '../src/db/connection.js';
import { down, up } from '../src/db/migrations/20261125-600-one-counter-table.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

let database: TestDatabase;
let db: Knex;
beforeAll(async () => {
  database = createTestDatabase();
  db = openDatabase({ url: database.url, schema: database.schema, logger: createLogger('silent') });
  await prepareDatabase(db, database.schema);
  await migrateToLatest(db);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const counters = async (kinds: string[]) =>
  (await db('login_attempts').whereIn('kind', kinds).orderBy(['kind', 'subject']).select('kind', 'subject', 'window_start', 'attempts')).map((row) => ({
    ...row,
    window_start: Number(row.window_start),
    attempts: Number(row.attempts),
  }));

describe('the one counter table', () => {
  it('keeps live counts of request and rate limits across the migration, up and down', async () => {
    const now = Date.now();
    await db('login_attempts').insert({ kind: 'email', subject: 'ann@example.com', window_start: now, attempts: 2 });
    await down(db);
    const longEmail = `${'a'.repeat(290)}@example.com`;
    await db('request_limits').insert([
      { subject: 'reset-address:203.0.113.9', window_start: now, count: 7 },
      { subject: `reset-email:${longEmail}#2`, window_start: now - 1000, count: 1 },
    ]);
    await db('rate_limits').insert([
      { kind: 'google-start', subject: '203.0.113.9', window_start: now, hits: 3 },
      { kind: 'passkey-challenge', subject: '203.0.113.9', window_start: now, hits: 4 },
    ]);
    await up(db);
    expect(await db.schema.hasTable('request_limits')).toBe(false);
    expect(await db.schema.hasTable('rate_limits')).toBe(false);
    expect(await counters(['email', 'google-start', 'passkey-challenge', 'reset-address', 'reset-email'])).toEqual([
      { kind: 'email', subject: 'ann@example.com', window_start: now, attempts: 2 },
      { kind: 'google-start', subject: '203.0.113.9', window_start: now, attempts: 3 },
      { kind: 'passkey-challenge', subject: '203.0.113.9', window_start: now, attempts: 4 },
      { kind: 'reset-address', subject: '203.0.113.9', window_start: now, attempts: 7 },
      { kind: 'reset-email', subject: `${longEmail}#2`, window_start: now - 1000, attempts: 1 },
    ]);
    await down(db);
    expect(await counters(['google-start', 'passkey-challenge', 'reset-address', 'reset-email'])).toEqual([]);
    expect(await db('request_limits').orderBy('subject').select('subject', 'count')).toEqual([
      { subject: 'reset-address:203.0.113.9', count: 7 },
      { subject: `reset-email:${longEmail}#2`, count: 1 },
    ]);
    expect((await db('rate_limits').orderBy('kind').select('kind', 'hits')).map((row) => [row.kind, Number(row.hits)])).toEqual([
      ['google-start', 3],
      ['passkey-challenge', 4],
    ]);
    await up(db);
    expect(await counters(['email'])).toEqual([{ kind: 'email', subject: 'ann@example.com', window_start: now, attempts: 2 }]);
  });
});

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the regulator', () => {
  it('is the only module that reads or writes counters and bans', () => {
    const offenders: string[] = [];
    for (const file of sources()) {
      const relative = path.relative(SRC, file);
      if (relative === path.join('services', 'sign-in', 'regulator.ts') || relative.startsWith(`db${path.sep}migrations${path.sep}`)) continue;
      const text = fs.readFileSync(file, 'utf8');
      for (const table of ['login_attempts', 'login_bans', 'request_limits', 'rate_limits'])
        if (text.includes(`'${table}'`)) offenders.push(`${relative}: ${table}`);
    }
    expect(offenders).toEqual([]);
  });
});
