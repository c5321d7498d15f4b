/**
 * Services take one context (services/support/context.ts): `withDb` runs several of them in one
 * transaction, so they commit together or not at all; the context's clock dates what they write.
 */
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, prepareDatabase } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createLogger } from '../src/logger.js';
import { createClient, renameClient } from '../src/services/users/clients.js';
import { withDb, type ServiceContext } from '../src/services/support/context.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

let database: TestDatabase;
let db: Knex;
let ctx: ServiceContext;
beforeAll(async () => {
  database = createTestDatabase();
  db = openDatabase({ url: database.url, schema: database.schema, logger: createLogger('silent') });
  await prepareDatabase(db, database.schema);
  await migrateToLatest(db);
  ctx = { db, policy: {}, now: () => NOW, actor: null, ip: '127.0.0.1', userAgent: 'service-context test' };
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

describe('ServiceContext', () => {
  it('runs several services in one transaction with withDb: a failure undoes them all', async () => {
    const failure = new Error('the third step fails');
    await expect(
      db.transaction(async (trx) => {
        const client = await createClient(withDb(ctx, trx), 'Rolled back');
        await renameClient(withDb(ctx, trx), { id: client.id, name: 'Rolled back too' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await db('clients').whereIn('name', ['Rolled back', 'Rolled back too']).select('id')).toEqual([]);
    expect(await db('auth_log').where('type', 'like', 'client.%').select('id')).toEqual([]);
  });

  it('commits them together, dated by the context clock, with the origin in the event log', async () => {
    await db.transaction(async (trx) => {
      const client = await createClient(withDb(ctx, trx), 'Committed');
      await renameClient(withDb(ctx, trx), { id: client.id, name: 'Committed twice' });
    });
    const client = await db('clients').where({ name: 'Committed twice' }).first();
    expect(Number(client.created_at)).toBe(NOW);
    const events = await db('auth_log').where('type', 'like', 'client.%').orderBy('id').select('type', 'ip', 'user_agent');
    expect(events).toEqual([
      { type: 'client.create', ip: '127.0.0.1', user_agent: 'service-context test' },
      { type: 'client.update', ip: '127.0.0.1', user_agent: 'service-context test' },
    ]);
  });
});
