/**
 * The migrated database that test portals copy (./database-template.ts): made by global setup for
 * the dialect under test, every copy as a fresh migration leaves it, and copies independent of
 * each other, so that a test file sees nothing of another; their signing keys sealed with the
 * tests' SECRET_KEY.
 */
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, migrateToLatest, openDatabase } from '@tools-portal/server';
import { prepareDatabase } from '../src/db/connection.js';
import { loadKeySet } from '../src/oidc/signing-keys.js';
import { SecretBox } from '../src/services/support/secret-box.js';
import { createTestDatabase, TEST_SECRET_KEY, testDialect, type TestDatabase } from './support/database.js';
import { createPortalDatabase } from './support/support.js';

const opened: { database: TestDatabase; db: Knex }[] = [];

async function open(database: TestDatabase): Promise<Knex> {
  const db = openDatabase({ url: database.url, schema: database.schema, logger: createLogger('silent') });
  opened.push({ database, db });
  await prepareDatabase(db, database.schema);
  return db;
}

afterAll(async () => {
  for (const { database, db } of opened) {
    await db.destroy();
    await database.drop();
  }
});

describe('a test portal database', () => {
  let first: Knex;
  let second: Knex;
  beforeAll(async () => {
    first = await open(await createPortalDatabase());
    second = await open(await createPortalDatabase());
  });

  it('is a copy of the template global setup migrated for this dialect, not an empty database', async () => {
    const copied: { name: string }[] = await first('knex_migrations').orderBy('name').select('name');
    const fresh = await open(createTestDatabase());
    await migrateToLatest(fresh);
    const migrated: { name: string }[] = await fresh('knex_migrations').orderBy('name').select('name');
    expect(migrated.length).toBeGreaterThan(0);
    expect(copied).toEqual(migrated);
    expect(await first('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
    expect(first.client.config.client).toBe(testDialect() === 'postgres' ? 'pg' : 'better-sqlite3');
  });

  it('holds no data but the signing keys that a first start makes, sealed with TEST_SECRET_KEY', async () => {
    const keys = await loadKeySet(first, new SecretBox(Buffer.from(TEST_SECRET_KEY, 'base64')));
    expect(keys.signing).toHaveLength(2);
    expect(keys.keys.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(await first('oidc_signing_keys').pluck('kid')).toHaveLength(2);
  });

  it('a copy for another SECRET_KEY (or none) holds no signing keys, so that its portal makes its own', async () => {
    const other = await open(await createPortalDatabase({ secretKey: '' }));
    expect(await other('oidc_signing_keys').select('id')).toEqual([]);
  });

  it('holds no clients or users, and what one copy stores the other does not see', async () => {
    expect(await first('clients').select('id')).toEqual([]);
    expect(await first('users').select('id')).toEqual([]);
    await first('clients').insert({ name: 'only-in-the-first', created_at: Date.now() });
    expect(await first('clients').pluck('name')).toEqual(['only-in-the-first']);
    expect(await second('clients').select('id')).toEqual([]);
  });
});
