/**
 * The hottest reads without Knex's per-query cost (docs/architecture.md, Data). Knex still
 * builds each query; on a SQLite file the compiled statement then runs synchronously on a
 * read-only connection of its own instead of through Knex's pool and runner, which cost more than
 * the query itself. In WAL mode that connection reads the last committed state, never another
 * request's open transaction, so a write committed before the read is always seen. When no
 * transaction is open on Knex's own (only) connection, the read runs there instead: it has seen
 * every write, so its page cache is warm, while a second connection must read again every page
 * after each commit (a code exchange writes between its reads: about a fifth of its time went to
 * that, docs/performance.md). Elsewhere (PostgreSQL, an in-memory database, a transaction) the
 * query runs through Knex as usual.
 *
 * A read may also ask to be remembered: its rows are then kept until the database changes.
 * SQLite's `data_version` tells the reading connection when any other connection, in this
 * process or another, has committed a change to the file, so a remembered answer is never
 * older than the last commit: a revoked session still ends at once.
 */
import Database from 'better-sqlite3';
import type { Knex } from 'knex';
import { cacheStatements } from './statement-cache.js';

type Connection = Database.Database;

interface Reader {
  file: string;
  connection?: Connection;
  /** Knex's connection to the same file, when it is open. */
  writer: () => Connection | undefined;
  /** `data_version` when `remembered` was last emptied. */
  version?: unknown;
  /** Remembered rows (by SQL and values) and values made of rows (by their maker's key). */
  remembered: Map<string, Remembered>;
  /** Rows in `remembered`, all answers together. */
  rememberedRows: number;
}

interface Remembered {
  value: unknown;
  rows: number;
}

/**
 * At most this many remembered answers, and this many rows in all (an admin's list of 1,000 apps is
 * 1,000 rows, about 1 MB with the list and encoded answers made of them): the oldest go first. A
 * single answer of more rows is not remembered.
 */
const REMEMBERED_READS = 500;
export const REMEMBERED_ROWS = 50_000;

const readers = new WeakMap<Knex, Reader>();

/**
 * Lets `db` (a root Knex on a SQLite file, not a transaction) read through its own connection, or
 * through `writer` (Knex's connection) while no transaction is open on it.
 */
export function readThroughOwnConnection(db: Knex, file: string, writer: () => Connection | undefined = () => undefined): void {
  if (file === ':memory:' || file === '') return;
  readers.set(db, { file, writer, remembered: new Map(), rememberedRows: 0 });
  // Closed with the database (Knex's destroy() ends in its client's, and has no hook of its own);
  // reads after that go to Knex, which refuses them as before.
  const client = db.client as { destroy(callback?: unknown): Promise<void> };
  const destroy = client.destroy.bind(client);
  client.destroy = (callback?: unknown) => {
    readers.get(db)?.connection?.close();
    readers.delete(db);
    return destroy(callback);
  };
}

/** Opened at the first read, once migrations have created the file. */
function connectionOf(reader: Reader): Connection {
  if (!reader.connection) {
    const connection = cacheStatements(new Database(reader.file, { fileMustExist: true }));
    connection.pragma('busy_timeout = 5000');
    connection.pragma('query_only = ON');
    // The whole file mapped (up to SQLite's 2 GiB bound) and a small page cache: pages read for an
    // export of the whole log are the system's file cache, not this process's own memory.
    connection.pragma('mmap_size = 2147418112');
    connection.pragma('cache_size = -8192');
    reader.connection = connection;
  }
  return reader.connection;
}

/** Knex's connection while it holds no open transaction (it sees only commits then), else the reader's own. */
function readingConnection(reader: Reader): Connection {
  const writer = reader.writer();
  return writer?.open && !writer.inTransaction ? writer : connectionOf(reader);
}

// The statements of these reads are their own (rows come as arrays), never those Knex runs on the
// same connection: compiled once per connection and SQL, the most recent kept.
const ownStatements = new WeakMap<Connection, Preparer>();
type Preparer = { prepare(sql: string): Database.Statement };

function statementOf(connection: Connection, sql: string): Database.Statement {
  let preparer = ownStatements.get(connection);
  if (!preparer) {
    preparer = cacheStatements({ prepare: (text: string) => Database.prototype.prepare.call(connection, text) as Database.Statement });
    ownStatements.set(connection, preparer);
  }
  return preparer.prepare(sql);
}

// As Knex's better-sqlite3 dialect passes them.
const bindingOf = (value: unknown) => (value instanceof Date ? value.valueOf() : typeof value === 'boolean' ? Number(value) : value);

export interface ReadOptions {
  /**
   * Keep the rows until the database changes. For small answers read over and over (the
   * caller's session, an app list); the rows are shared, so callers must not change them, and
   * the query must not depend on the time (compare times with the rows instead).
   */
  remember?: boolean;
}

/**
 * For `.limit(n, LITERAL)` and `.offset(n, LITERAL)`: the number written into the SQL instead of
 * bound. SQLite plans a LIMIT by its value, so a statement whose LIMIT is a bound parameter is
 * compiled again every time it is bound (measured: a one-row read by key took 10.4 µs instead of
 * 4.5). Knex has parsed the number (an integer) before it is written.
 */
export const LITERAL = { skipBinding: true } as const;

/** Every row of a SELECT built on `db`. */
export async function readAll<Row>(db: Knex, query: Knex.QueryBuilder, options: ReadOptions = {}): Promise<Row[]> {
  const reader = readers.get(db);
  if (!reader) return (await query) as Row[];
  const { sql, bindings } = query.toSQL();
  return run(db, reader, { sql, values: bindings.map(bindingOf), remember: options.remember }) as Row[];
}

/** The first row of a SELECT built on `db`, or undefined. */
export async function readFirst<Row>(db: Knex, query: Knex.QueryBuilder, options: ReadOptions = {}): Promise<Row | undefined> {
  const rows = await readAll<Row>(db, query.limit(1, LITERAL), options);
  return rows[0];
}

/**
 * A SELECT of a fixed shape that Knex compiles once per database instead of on every call:
 * `build` receives placeholders for its parameters, and their places in the compiled bindings
 * are noted. Parameters must reach the bindings as they are (not through `limit`, which parses),
 * and LIMIT and OFFSET must be LITERAL.
 */
export interface PreparedSelect<Params extends unknown[]> {
  build(db: Knex, ...params: Params): Knex.QueryBuilder;
  compiled: WeakMap<Knex, { sql: string; slots: ({ param: number } | { value: unknown })[] }>;
  /** Its answers are remembered (ReadOptions). */
  remember: boolean;
}

export function preparedSelect<Params extends unknown[]>(
  build: (db: Knex, ...params: Params) => Knex.QueryBuilder,
  options: ReadOptions = {},
): PreparedSelect<Params> {
  return { build, compiled: new WeakMap(), remember: options.remember === true };
}

function compile<Params extends unknown[]>(db: Knex, select: PreparedSelect<Params>, count: number) {
  const placeholders = Array.from({ length: count }, (_, i) => `\u0000parameter ${i}\u0000`);
  const { sql, bindings } = select.build(db, ...(placeholders as Params)).toSQL();
  const slots = bindings.map((binding) => {
    const param = typeof binding === 'string' ? placeholders.indexOf(binding) : -1;
    return param >= 0 ? { param } : { value: bindingOf(binding) };
  });
  const missing = placeholders.findIndex((_, i) => !slots.some((slot) => 'param' in slot && slot.param === i));
  if (missing >= 0 || placeholders.some((placeholder) => sql.includes(placeholder))) {
    throw new Error(`prepared query: parameter ${missing} does not reach the bindings as it is`);
  }
  if (/\b(limit|offset) \?/i.test(sql)) throw new Error('prepared query: a bound LIMIT or OFFSET is compiled again on every read: make it LITERAL');
  const compiled = { sql, slots };
  select.compiled.set(db, compiled);
  return compiled;
}

/** Every row of a prepared SELECT with these parameters. */
export async function readPrepared<Row, Params extends unknown[]>(db: Knex, select: PreparedSelect<Params>, params: Params): Promise<Row[]> {
  const reader = readers.get(db);
  if (!reader) return (await select.build(db, ...params)) as Row[];
  const { sql, slots } = select.compiled.get(db) ?? compile(db, select, params.length);
  const values = slots.map((slot) => ('param' in slot ? bindingOf(params[slot.param]) : slot.value));
  return run(db, reader, { sql, values, remember: select.remember }) as Row[];
}

// better-sqlite3 makes each row object through V8's API, which costs more than reading the row:
// rows come as arrays and become objects here (a 20-entry log page: about 40 % less).
const columnNames = new WeakMap<Database.Statement, string[]>();

/** A SELECT to run: its SQL, the values of its parameters, and whether its rows are remembered. */
interface Read {
  sql: string;
  values: unknown[];
  remember?: boolean;
}

function rowsOf(db: Knex, connection: Connection, { sql, values }: Read): Record<string, unknown>[] {
  // Announced as Knex announces its own queries, so that whoever watches them (tests counting
  // queries, debugging) sees these too.
  if (db.listenerCount('query') > 0) db.emit('query', { sql, bindings: values, method: 'select', direct: true });
  const statement = statementOf(connection, sql);
  let names = columnNames.get(statement);
  if (!names) {
    names = statement.columns().map((column) => column.name);
    statement.raw(true);
    columnNames.set(statement, names);
  }
  const rows = statement.all(...values) as unknown[][];
  const objects: Record<string, unknown>[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const object: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) object[names[c]] = row[c];
    objects[r] = object;
  }
  return objects;
}

function run(db: Knex, reader: Reader, read: Read): unknown[] {
  const connection = readingConnection(reader);
  if (!read.remember) return rowsOf(db, connection, read);
  checkVersion(reader, connectionOf(reader));
  const key = `${read.sql}\u0000${JSON.stringify(read.values)}`;
  const known = reader.remembered.get(key);
  if (known !== undefined) return known.value as unknown[];
  const rows = rowsOf(db, connection, read);
  remember(reader, key, { value: rows, rows: rows.length });
  return rows;
}

/** Empties the remembered reads when any connection has committed since they were made; answers the version. */
function checkVersion(reader: Reader, connection: Connection): unknown {
  const version = connection.prepare('PRAGMA data_version').pluck().get();
  if (version !== reader.version) {
    reader.remembered.clear();
    reader.rememberedRows = 0;
    reader.version = version;
  }
  return version;
}

function remember(reader: Reader, key: string, { value, rows }: Remembered): void {
  if (rows > REMEMBERED_ROWS) return;
  const { remembered } = reader;
  while (remembered.size > 0 && (remembered.size >= REMEMBERED_READS || reader.rememberedRows + rows > REMEMBERED_ROWS)) {
    const [oldest, { rows: oldestRows }] = remembered.entries().next().value as [string, Remembered];
    remembered.delete(oldest);
    reader.rememberedRows -= oldestRows;
  }
  remembered.set(key, { value, rows });
  reader.rememberedRows += rows;
}

/**
 * A value made of direct reads (a page of the event log), remembered as rows are: until any
 * connection commits a change, within the same bounds (`rows` of it count toward
 * REMEMBERED_ROWS). The value is shared: callers must not change it. `make` runs when the value
 * is not remembered, and on every call elsewhere (PostgreSQL, an in-memory database).
 */
export async function readRemembered<T>(db: Knex, key: string, { make, rowsIn }: { make: () => Promise<T>; rowsIn: (value: T) => number }): Promise<T> {
  const reader = readers.get(db);
  if (!reader) return make();
  const version = checkVersion(reader, connectionOf(reader));
  const rememberedKey = `made\u0000${key}`;
  const known = reader.remembered.get(rememberedKey);
  if (known !== undefined) return known.value as T;
  const value = await make();
  // While `make` awaited, another request may have seen a later commit and emptied the memory:
  // a value read before that commit must not be remembered after it.
  if (reader.version === version) remember(reader, rememberedKey, { value, rows: rowsIn(value) });
  return value;
}
