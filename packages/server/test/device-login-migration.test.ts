/**
 * The migration of the device grant (20261126-200-device-login): access and refresh tokens the
 * provider stored before it are kept, rehashed (the row's id the SHA-256 of the token, the payload
 * without it), and still found by the token, on the dialect under test; down and up again.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, migrateToLatest, openDatabase } from '@tools-portal/server';
import { prepareDatabase } from '../src/db/connection.js';
import { down, up } from '../src/db/migrations/20261126-200-device-login.js';
import { knexAdapter } from '../src/oidc/adapter.js';
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

describe('the device grant migration', () => {
  it('rehashes the stored access and refresh tokens, which are still found by the token', async () => {
    await down(db);
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const token = 'existing-access-token-0123456789abcdefghijk';
    const refresh = 'existing-refresh-token-0123456789abcdefghij';
    await db('oidc_payloads').insert([
      { model: 'AccessToken', id: token, payload: JSON.stringify({ jti: token, kind: 'AccessToken', exp, clientId: 'wiki' }), expires_at: exp * 1000 },
      { model: 'RefreshToken', id: refresh, payload: JSON.stringify({ jti: refresh, kind: 'RefreshToken', exp, clientId: 'wiki' }), expires_at: exp * 1000 },
      { model: 'Grant', id: 'grant-1', payload: JSON.stringify({ jti: 'grant-1', kind: 'Grant', exp }), expires_at: exp * 1000 },
    ]);
    await up(db);
    const rows: { model: string; id: string; payload: string }[] = await db('oidc_payloads').orderBy('model').select('model', 'id', 'payload');
    const text = rows.map((row) => `${row.id} ${row.payload}`).join('\n');
    expect(text).not.toContain(token);
    expect(text).not.toContain(refresh);
    expect(rows.find((row) => row.model === 'Grant')?.id).toBe('grant-1');
    expect(rows.find((row) => row.model === 'AccessToken')?.id).toBe(createHash('sha256').update(token).digest('hex'));
    const Adapter = knexAdapter({ db });
    expect(await new Adapter('AccessToken').find(token)).toMatchObject({ jti: token, clientId: 'wiki' });
    expect(await new Adapter('RefreshToken').find(refresh)).toMatchObject({ jti: refresh });
    await db('oidc_payloads').delete();
  });
});
