/**
 * The database layer on the dialect under test: settings checked at start, driver errors
 * translated into our codes, and a first start that bootstraps once however many race for it.
 */
import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, migrateToLatest, openDatabase, sqliteSettings } from '@tools-portal/server';
import { prepareDatabase } from '../src/db/connection.js';
import { translateDatabaseError } from '../src/db/errors.js';
import { bootstrap } from '../src/services/users/bootstrap.js';
import { PasswordHasher } from '../src/services/sign-in/passwords.js';
import { createTestDatabase, databaseContents, testDialect, testPostgresUrl, type TestDatabase } from './support/database.js';

/** A freshly migrated database of the dialect under test, with its Knex handle. */
async function migratedDatabase(): Promise<{ database: TestDatabase; db: Knex }> {
  const database = createTestDatabase();
  const db = openDatabase({ url: database.url, schema: database.schema, logger: createLogger('silent') });
  await prepareDatabase(db, database.schema);
  await migrateToLatest(db);
  return { database, db };
}

let database: TestDatabase;
let db: Knex;
beforeAll(async () => {
  ({ database, db } = await migratedDatabase());
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

const caught = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

describe.skipIf(testDialect() !== 'sqlite')('SQLite settings', () => {
  it('are WAL, busy_timeout, synchronous=NORMAL and foreign keys, read back from the connection', async () => {
    expect(await sqliteSettings(db)).toEqual({ journal_mode: 'wal', busy_timeout: 5000, synchronous: 1, foreign_keys: 1 });
  });

  it('are checked at start: a connection without them is refused with what is wrong', async () => {
    const plain = knex({
      client: 'better-sqlite3',
      connection: { filename: database.url.replace(/^sqlite:/, '') },
      useNullAsDefault: true,
      pool: {
        afterCreate(connection: { pragma(sql: string): unknown }, done: (error: Error | null, connection: unknown) => void) {
          for (const pragma of ['busy_timeout = 0', 'synchronous = FULL', 'foreign_keys = OFF']) connection.pragma(pragma);
          done(null, connection);
        },
      },
    });
    try {
      await expect(prepareDatabase(plain)).rejects.toThrow(/busy_timeout=0 \(expected 5000\).*synchronous=2 \(expected 1\).*foreign_keys=0 \(expected 1\)/);
    } finally {
      await plain.destroy();
    }
  });
});

describe('driver errors', () => {
  it('a duplicate is a conflict and a missing reference not_found', async () => {
    await db('clients').insert({ name: 'duplicate', created_at: Date.now() });
    const duplicate = await caught(db('clients').insert({ name: 'duplicate', created_at: Date.now() }));
    expect(translateDatabaseError(duplicate)).toMatchObject({
      code: 'conflict',
      message: 'a client with this name already exists',
      details: { field: 'name' },
    });
    const orphan = await caught(db('users').insert({ email: 'orphan@example.com', client_id: 999999, created_at: Date.now() }));
    expect(translateDatabaseError(orphan)).toMatchObject({ code: 'not_found' });
  });

  it.skipIf(testDialect() !== 'postgres')('a value PostgreSQL cannot hold (past 32 bits, U+0000) is invalid input, not a bug', async () => {
    expect(
      translateDatabaseError(
        await caught(
          db('clients')
            .where({ id: 2 ** 40 })
            .first(),
        ),
      ),
    ).toMatchObject({ code: 'invalid_input' });
    expect(translateDatabaseError(await caught(db('apps').where({ name: 'a\u0000b' }).first()))).toMatchObject({ code: 'invalid_input' });
  });

  it('a bug (a missing table) stays untranslated, for the 500 path', async () => {
    expect(translateDatabaseError(await caught(db('no_such_table').select('*')))).toBeUndefined();
  });

  it.skipIf(testDialect() !== 'postgres')('a refused connection and a pool timeout are unavailable', async () => {
    const closed = new URL(testPostgresUrl());
    closed.port = '1';
    const unreachable = openDatabase({ url: closed.toString(), logger: createLogger('silent') });
    try {
      const refused = await caught(unreachable.raw('select 1'));
      expect(translateDatabaseError(refused)).toMatchObject({ code: 'unavailable' });
    } finally {
      await unreachable.destroy();
    }
    const tiny = knex({ client: 'pg', connection: testPostgresUrl(), pool: { min: 0, max: 1 }, acquireConnectionTimeout: 200, log: { warn() {} } });
    try {
      await tiny.transaction(async () => {
        // The one connection is held by this transaction: a second query must time out.
        const timedOut = await caught(tiny.raw('select 1'));
        expect((timedOut as Error).name).toBe('KnexTimeoutError');
        expect(translateDatabaseError(timedOut)).toMatchObject({ code: 'unavailable' });
      });
    } finally {
      await tiny.destroy();
    }
  });
});

describe('migrations', () => {
  it('recover from the doubled lock row two instances can leave, which would lock everyone out', async () => {
    await db('knex_migrations_lock').insert({ is_locked: 0 });
    expect(await db('knex_migrations_lock').count({ count: '*' })).toEqual([{ count: 2 }]);
    await migrateToLatest(db, { attempts: 3, delayMs: 10 });
    expect(await db('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
  });

  it('give up on a lock that is never released, with the lock error', async () => {
    await db('knex_migrations_lock').update({ is_locked: 1 });
    try {
      await expect(migrateToLatest(db, { attempts: 3, delayMs: 10 })).rejects.toThrow(/already locked/);
    } finally {
      await db('knex_migrations_lock').update({ is_locked: 0 });
    }
  });
});

describe('first start racing on an empty database', () => {
  const hasher = new PasswordHasher(10);
  const options = { adminEmail: 'first@example.com', publicUrl: 'http://127.0.0.1:1', inviteTtlDays: 7, portalName: 'Tools-Server' };

  for (const adminPassword of ['a quiet orchard in may', undefined]) {
    it(`bootstraps once among five at once (${adminPassword ? 'with a password' : 'with an invite'})`, async () => {
      const fresh = await migratedDatabase();
      try {
        const results = await Promise.all(Array.from({ length: 5 }, () => bootstrap(fresh.db, hasher, { ...options, adminPassword })));
        expect(results.filter((result) => result.created)).toHaveLength(1);
        expect(await fresh.db('clients').where({ name: 'Admin' }).count({ count: '*' })).toEqual([{ count: 1 }]);
        const table = adminPassword ? 'users' : 'invites';
        expect(await fresh.db(table).where({ email: options.adminEmail }).count({ count: '*' })).toEqual([{ count: 1 }]);
        expect(await bootstrap(fresh.db, hasher, { ...options, adminPassword })).toEqual({ created: false });
      } finally {
        await fresh.db.destroy();
        await fresh.database.drop();
      }
    });
  }
});

describe('databaseContents (test support)', () => {
  it('holds every table with its rows', async () => {
    await db('apps').insert({ name: 'contents-probe', url: 'https://probe.example.com/', created_at: Date.now() });
    const text = await databaseContents(db);
    for (const table of ['apps', 'users', 'sessions', 'api_keys', 'auth_log', 'knex_migrations']) expect(text).toContain(`${table}\n`);
    expect(text).toContain('https://probe.example.com/');
  });
});
