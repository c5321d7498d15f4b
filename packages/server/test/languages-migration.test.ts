/**
 * The languages migration (db/migrations/20261126-600-languages.ts) goes down and up again on the
 * dialect under test without touching the rows around it: users keep their sessions, apps their grants.
 */
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, migrateToLatest, openDatabase } from '@tools-portal/server';
import { prepareDatabase } from '../src/db/connection.js';
import { down, up } from '../src/db/migrations/20261126-600-languages.js';
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

describe('the languages migration', () => {
  it('goes down and up again, keeping users, sessions, apps and grants', async () => {
    const now = Date.now();
    const [client] = await db('clients').insert({ name: 'Acme', created_at: now }).returning('id');
    const [user] = await db('users').insert({ email: 'ann@example.com', client_id: client.id, created_at: now, language: 'de' }).returning('id');
    const [app] = await db('apps').insert({ name: 'wiki', url: 'https://wiki.example.com/', created_at: now, description_de: 'Das Wiki' }).returning('id');
    await db('user_apps').insert({ user_id: user.id, app_id: app.id });
    await db('sessions').insert({ token_hash: 'h'.repeat(64), user_id: user.id, created_at: now, expires_at: now + 1000, last_seen_at: now });

    await down(db);
    expect(Number((await db('sessions').where({ user_id: user.id }).count({ n: '*' }))[0]!.n)).toBe(1);
    expect(Number((await db('user_apps').where({ app_id: app.id }).count({ n: '*' }))[0]!.n)).toBe(1);
    await up(db);

    expect(await db('users').where({ id: user.id }).first('language')).toEqual({ language: null });
    expect(await db('apps').where({ id: app.id }).first('description_de')).toEqual({ description_de: '' });
    expect(Number((await db('sessions').where({ user_id: user.id }).count({ n: '*' }))[0]!.n)).toBe(1);
  });
});
