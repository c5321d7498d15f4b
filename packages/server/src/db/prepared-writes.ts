/**
 * Writes of a fixed shape run often (the OpenID provider's state: every authorization request and
 * code exchange stores and consumes rows), compiled by Knex once per database instead of on every
 * call, and run on a connection of Knex's pool without its query runner: on SQLite a statement
 * compiled once per connection (db/statement-cache.ts), on PostgreSQL a named prepared statement
 * (parsed and planned once per connection). The connection comes from the pool as Knex's own
 * queries take theirs, so a write waits for an open transaction as they do. Inside a transaction,
 * or on any other database, the write goes through Knex as usual. As db/direct-reads.ts does for
 * reads, each write is announced as a Knex `query` event with `direct: true`.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

export interface PreparedWrite<Params extends unknown[]> {
  build(db: Knex, ...params: Params): Knex.QueryBuilder;
  compiled: WeakMap<Knex, Compiled>;
}

interface Compiled {
  sql: string;
  slots: ({ param: number } | { value: unknown })[];
  /** The statement's name on PostgreSQL: the same SQL, the same name, on every connection. */
  name: string;
  method: string;
}

/**
 * An INSERT, UPDATE or DELETE that `build` makes from placeholders for its parameters; each
 * parameter must reach the bindings as it is (a value, not an expression Knex parses).
 */
export function preparedWrite<Params extends unknown[]>(build: (db: Knex, ...params: Params) => Knex.QueryBuilder): PreparedWrite<Params> {
  return { build, compiled: new WeakMap() };
}

const driverOf = (db: Knex) => (db.client as { driverName?: string }).driverName;

function compile<Params extends unknown[]>(db: Knex, write: PreparedWrite<Params>, count: number): Compiled {
  const placeholders = Array.from({ length: count }, (_, i) => `\u0000parameter ${i}\u0000`);
  const query = write.build(db, ...(placeholders as Params)).toSQL();
  const { sql, bindings } = query.toNative();
  const slots = bindings.map((binding) => {
    const param = typeof binding === 'string' ? placeholders.indexOf(binding) : -1;
    return param >= 0 ? { param } : { value: binding };
  });
  const missing = placeholders.findIndex((_, i) => !slots.some((slot) => 'param' in slot && slot.param === i));
  if (missing >= 0 || placeholders.some((placeholder) => sql.includes(placeholder))) {
    throw new Error(`prepared write: parameter ${missing} does not reach the bindings as it is`);
  }
  const compiled = { sql, slots, name: `tp_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`, method: query.method };
  write.compiled.set(db, compiled);
  return compiled;
}

// As Knex's better-sqlite3 dialect passes them.
const sqliteBinding = (value: unknown) => (value instanceof Date ? value.valueOf() : typeof value === 'boolean' ? Number(value) : value);

interface SqliteConnection {
  prepare(sql: string): { run(...values: unknown[]): { changes: number } };
}
interface PostgresConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rowCount: number | null }>;
}

/** Runs a prepared write with these parameters; answers the number of rows it changed. */
export async function runPrepared<Params extends unknown[]>(db: Knex, write: PreparedWrite<Params>, params: Params): Promise<number> {
  const driver = driverOf(db);
  const direct = !db.isTransaction && (driver === 'better-sqlite3' || driver === 'pg');
  if (!direct) {
    const result = (await write.build(db, ...params)) as unknown;
    return typeof result === 'number' ? result : Array.isArray(result) ? result.length : 0;
  }
  const { sql, slots, name, method } = write.compiled.get(db) ?? compile(db, write, params.length);
  const values = slots.map((slot) => ('param' in slot ? params[slot.param] : slot.value));
  if (db.listenerCount('query') > 0) db.emit('query', { sql, bindings: values, method, direct: true });
  const client = db.client as { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<unknown> };
  const connection = await client.acquireConnection();
  try {
    if (driver === 'better-sqlite3') return (connection as SqliteConnection).prepare(sql).run(...values.map(sqliteBinding)).changes;
    return (await (connection as PostgresConnection).query({ name, text: sql, values })).rowCount ?? 0;
  } finally {
    await client.releaseConnection(connection);
  }
}
