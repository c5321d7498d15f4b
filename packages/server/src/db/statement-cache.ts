/**
 * better-sqlite3 compiles every statement Knex sends anew; the same few queries make up nearly
 * all traffic, so a connection keeps its most recent compiled statements for reuse. A statement
 * is run to completion before the next one starts (better-sqlite3 is synchronous), so sharing
 * one between queries is safe. (Knex's `.options({ safeIntegers })` would stick to a cached
 * statement; the server does not use it.)
 */
interface Preparer {
  prepare(sql: string): unknown;
}

const STATEMENT_CACHE_SIZE = 200;

export function cacheStatements<C extends Preparer>(connection: C, size = STATEMENT_CACHE_SIZE): C {
  const prepare = connection.prepare.bind(connection);
  const statements = new Map<string, unknown>();
  connection.prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (statements.size >= size) statements.delete(statements.keys().next().value as string);
    } else {
      statements.delete(sql);
    }
    statements.set(sql, statement);
    return statement;
  };
  return connection;
}
