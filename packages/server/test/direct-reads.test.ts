import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, prepareDatabase } from '../src/db/connection.js';
import { LITERAL, preparedSelect, readAll, readPrepared, readRemembered, REMEMBERED_ROWS } from '../src/db/direct-reads.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createTestDatabase, testDialect } from './support/database.js';

const clientQuery = (db: Knex, name: string) => db('clients').where('name', name).select('id', 'name');
const clientNamed = preparedSelect(clientQuery);
const clientNamedRemembered = preparedSelect(clientQuery, { remember: true });
const numbersUpTo = preparedSelect(
  (db, count: number) =>
    db
      .withRecursive('n', ['x'], db.raw('select 1 union all select x + 1 from n where x < ?', [count]))
      .from('n')
      .select('x'),
  { remember: true },
);
const addClient = (db: Knex, name: string) => db('clients').insert({ name, created_at: Date.now() });

describe.skipIf(testDialect() !== 'sqlite')('direct reads on a SQLite file', () => {
  let dir: string;
  let file: string;
  let db: Knex;
  let other: Knex;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'direct-reads-'));
    file = path.join(dir, 'portal.db');
    db = openDatabase({ url: `sqlite:${file}` });
    await migrateToLatest(db);
    // Another instance on the same file: a connection of its own, as another process has.
    other = openDatabase({ url: `sqlite:${file}` });
  });

  afterAll(async () => {
    await other.destroy();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("never see another request's open transaction, and see its commit at once", async () => {
    const trx = await db.transaction();
    try {
      await addClient(trx, 'Uncommitted');
      // Through Knex this read would wait for the pool's only connection, held by trx.
      expect(await readPrepared(db, clientNamed, ['Uncommitted'])).toEqual([]);
      expect(await readPrepared(trx, clientNamed, ['Uncommitted'])).toHaveLength(1);
      await trx.commit();
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
    expect(await readPrepared(db, clientNamed, ['Uncommitted'])).toMatchObject([{ name: 'Uncommitted' }]);
  });

  it('forget remembered rows when any connection commits a change', async () => {
    expect(await readPrepared(db, clientNamedRemembered, ['Globex'])).toEqual([]);
    await addClient(other, 'Globex');
    expect(await readPrepared(db, clientNamedRemembered, ['Globex'])).toMatchObject([{ name: 'Globex' }]);
    await other('clients').where('name', 'Globex').delete();
    expect(await readPrepared(db, clientNamedRemembered, ['Globex'])).toEqual([]);
    // A change made through this instance's own Knex connection counts as well.
    await addClient(db, 'Globex');
    expect(await readPrepared(db, clientNamedRemembered, ['Globex'])).toHaveLength(1);
  });

  it('remember each set of parameters apart', async () => {
    await addClient(db, 'Initech');
    await addClient(db, 'Hooli');
    const [initech] = await readPrepared<{ name: string }, [string]>(db, clientNamedRemembered, ['Initech']);
    const [hooli] = await readPrepared<{ name: string }, [string]>(db, clientNamedRemembered, ['Hooli']);
    expect([initech.name, hooli.name]).toEqual(['Initech', 'Hooli']);
  });

  it('remember at most REMEMBERED_ROWS rows in all: the oldest answers go first, a larger answer is never kept', async () => {
    // A remembered answer is the same array on the next read; one read anew is another.
    const read = (count: number) => readPrepared<{ x: number }, [number]>(db, numbersUpTo, [count]);
    const tooLarge = await read(REMEMBERED_ROWS + 1);
    expect(tooLarge).toHaveLength(REMEMBERED_ROWS + 1);
    expect(await read(REMEMBERED_ROWS + 1)).not.toBe(tooLarge);
    const half = await read(REMEMBERED_ROWS / 2);
    expect(await read(REMEMBERED_ROWS / 2)).toBe(half);
    const almostHalf = await read(REMEMBERED_ROWS / 2 - 10);
    expect(await read(REMEMBERED_ROWS / 2)).toBe(half);
    // 20 more rows do not fit beside both: the older answer goes, the newer stays.
    const small = await read(20);
    expect(await read(20)).toBe(small);
    expect(await read(REMEMBERED_ROWS / 2 - 10)).toBe(almostHalf);
    expect(await read(REMEMBERED_ROWS / 2)).not.toBe(half);
  });

  it('remember a value made of reads until any connection commits a change', async () => {
    let made = 0;
    const make = async () => ({ made: ++made, clients: await readAll<{ name: string }>(db, db('clients').select('name')) });
    const first = await readRemembered(db, 'clients', { make, rowsIn: (value) => value.clients.length });
    expect(await readRemembered(db, 'clients', { make, rowsIn: (value) => value.clients.length })).toBe(first);
    await addClient(other, 'Vandelay');
    const second = await readRemembered(db, 'clients', { make, rowsIn: (value) => value.clients.length });
    expect(second.made).toBe(2);
    expect(second.clients.map((client) => client.name)).toContain('Vandelay');
  });

  it('never remember a value read before a commit that another request has seen meanwhile', async () => {
    const key = 'raced';
    let release: () => void = () => {};
    const slowRead = async () => {
      const clients = await readAll<{ name: string }>(db, db('clients').select('name'));
      await new Promise<void>((resolve) => (release = resolve));
      return clients;
    };
    const slow = readRemembered(db, key, { make: slowRead, rowsIn: (value) => value.length });
    // While the first read waits: a commit, then another request that reads after it.
    await addClient(other, 'Kramerica');
    const fresh = await readRemembered(db, key, { make: () => readAll<{ name: string }>(db, db('clients').select('name')), rowsIn: (value) => value.length });
    expect(fresh.map((client) => client.name)).toContain('Kramerica');
    release();
    expect((await slow).map((client) => client.name)).not.toContain('Kramerica');
    // The slow, older value did not replace the newer one.
    expect(await readRemembered(db, key, { make: async () => [], rowsIn: () => 0 })).toBe(fresh);
  });

  it('read queries of any shape; refuse a prepared one whose parameter does not reach the bindings, or whose LIMIT is bound', async () => {
    expect(await readAll(db, db('clients').where('name', 'like', 'Ini%').select('name'))).toEqual([{ name: 'Initech' }]);
    const limited = preparedSelect((db, count: number) => db('clients').select('id').limit(count));
    await expect(readPrepared(db, limited, [1])).rejects.toThrow(/does not reach the bindings/);
    const boundLimit = preparedSelect((db, name: string) => db('clients').where('name', name).select('id').limit(1));
    await expect(readPrepared(db, boundLimit, ['Initech'])).rejects.toThrow(/make it LITERAL/);
    const literalLimit = preparedSelect((db, name: string) => db('clients').where('name', name).select('name').limit(1, LITERAL));
    expect(await readPrepared(db, literalLimit, ['Initech'])).toEqual([{ name: 'Initech' }]);
  });

  it("share no statement with Knex: the same SQL through Knex still answers objects, and a read inside Knex's transaction sees it", async () => {
    const query = () => db('clients').where('name', 'Initech').select('name');
    expect(await readAll(db, query())).toEqual([{ name: 'Initech' }]);
    expect(await query()).toEqual([{ name: 'Initech' }]);
    await db.transaction(async (trx) => {
      await addClient(trx, 'Pendant');
      // While the transaction is open on Knex's connection, reads outside it do not run there.
      expect(await readPrepared(db, clientNamed, ['Pendant'])).toEqual([]);
      expect(await readPrepared(trx, clientNamed, ['Pendant'])).toHaveLength(1);
    });
    expect(await readPrepared(db, clientNamed, ['Pendant'])).toHaveLength(1);
  });

  it('close with the database: a read afterwards is refused, not answered', async () => {
    const closing = openDatabase({ url: `sqlite:${file}` });
    expect(await readPrepared(closing, clientNamed, ['Initech'])).toHaveLength(1);
    await closing.destroy();
    await expect(readPrepared(closing, clientNamed, ['Initech'])).rejects.toThrow();
  });
});

describe('direct reads elsewhere', () => {
  it.skipIf(testDialect() !== 'postgres')('go through Knex on PostgreSQL', async () => {
    const database = createTestDatabase('postgres');
    const db = openDatabase({ url: database.url, schema: database.schema });
    try {
      await prepareDatabase(db, database.schema);
      await migrateToLatest(db);
      await addClient(db, 'Postgres');
      expect(await readPrepared(db, clientNamedRemembered, ['Postgres'])).toMatchObject([{ name: 'Postgres' }]);
      await db('clients').where('name', 'Postgres').delete();
      expect(await readPrepared(db, clientNamedRemembered, ['Postgres'])).toEqual([]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });

  it.skipIf(testDialect() !== 'sqlite')('go through Knex on an in-memory database', async () => {
    const db = openDatabase({ url: 'sqlite::memory:' });
    try {
      await migrateToLatest(db);
      await addClient(db, 'Memory');
      expect(await readPrepared(db, clientNamedRemembered, ['Memory'])).toMatchObject([{ name: 'Memory' }]);
    } finally {
      await db.destroy();
    }
  });
});
