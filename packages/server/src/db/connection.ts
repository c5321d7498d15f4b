/**
 * Opens the database named by DATABASE_URL: SQLite through better-sqlite3 by default, PostgreSQL
 * through pg. Dialect differences in connecting live here and in ./errors.ts, nowhere else.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { sqliteFile } from '../config.js';
import type { Logger } from '../logger.js';
import { isAlreadyExists, isUniqueViolation } from './errors.js';
import { readThroughOwnConnection } from './direct-reads.js';
import { cacheStatements } from './statement-cache.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  url: string;
  /** PostgreSQL schema to use (tests use one per run); prepareDatabase creates it if missing. */
  schema?: string;
  poolMax?: number;
  /** Where Knex's own messages go (it writes to the console otherwise). */
  logger?: Logger;
}

// int8 (counts, epoch milliseconds) would otherwise arrive as strings; ours fit in a double.
pg.types.setTypeParser(20, (value: string) => Number(value));

export function dialectOf(db: Knex): Dialect {
  return db.client.config.client === 'pg' ? 'postgres' : 'sqlite';
}

export function openDatabase(options: DatabaseOptions): Knex {
  if (options.url.startsWith('sqlite:')) return openSqlite(sqliteFile(options.url), options);
  return openPostgres(options);
}

// Knex reports each failed connection attempt; while the database is down that is every request,
// and the error middleware already logs the 503s.
function knexLog(logger: Logger | undefined): Knex.Config['log'] {
  if (!logger) return undefined;
  return {
    debug: (message: unknown) => logger.debug(`knex: ${String(message)}`),
    warn: (message: unknown) => logger.debug(`knex: ${String(message)}`),
    error: (message: unknown) => logger.error(`knex: ${String(message)}`),
    deprecate: (method: string, alternative: string) => logger.warn(`knex: ${method} is deprecated, use ${alternative}`),
  };
}

function openSqlite(file: string, options: DatabaseOptions): Knex {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  let writer: Database.Database | undefined;
  const db = knex({
    log: knexLog(options.logger),
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: Database.Database, done: (error: Error | null, connection: unknown) => void) {
        try {
          cacheStatements(connection);
          connection.pragma('journal_mode = WAL');
          connection.pragma('busy_timeout = 5000');
          connection.pragma('synchronous = NORMAL');
          connection.pragma('foreign_keys = ON');
          // Reads go through a memory map and a 64 MiB page cache instead of a read() call per
          // page: lookups in large tables (the event log, many users) stay in memory.
          connection.pragma('mmap_size = 268435456');
          connection.pragma('cache_size = -65536');
          writer = connection;
          done(null, connection);
        } catch (error) {
          done(error as Error, connection);
        }
      },
    },
  });
  readThroughOwnConnection(db, file, () => writer);
  return db;
}

function openPostgres(options: DatabaseOptions): Knex {
  return knex({
    log: knexLog(options.logger),
    client: 'pg',
    // A connection attempt that gets no answer (a network partition) fails after 5 s instead of
    // hanging. TCP keep-alive lets the OS notice, eventually, a server that vanished without a
    // reset; a query already sent to it still waits for that (docs/deployment.md, known limit).
    connection: { connectionString: options.url, connectionTimeoutMillis: 5000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 },
    searchPath: options.schema ? [options.schema] : undefined,
    pool: { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 5000,
  });
}

/**
 * Run once at start, before migrating: on PostgreSQL the schema exists (several instances may
 * create it at once); on SQLite the connection settings really took effect.
 */
export async function prepareDatabase(db: Knex, schema?: string): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    if (!schema) return;
    try {
      await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
    } catch (error) {
      // IF NOT EXISTS is not atomic: a concurrent creator makes ours fail on the catalog's unique index.
      if (!isUniqueViolation(error) && !isAlreadyExists(error)) throw error;
    }
    return;
  }
  const settings = await sqliteSettings(db);
  const file = db.client.config.connection.filename as string;
  const expected: Record<string, unknown> = {
    journal_mode: file === ':memory:' ? 'memory' : 'wal',
    busy_timeout: 5000,
    synchronous: 1,
    foreign_keys: 1,
  };
  const wrong = Object.keys(expected).filter((name) => String(settings[name]).toLowerCase() !== String(expected[name]));
  if (wrong.length > 0) {
    const found = wrong.map((name) => `${name}=${String(settings[name])} (expected ${String(expected[name])})`).join(', ');
    throw new Error(`SQLite ${file} did not take the required settings: ${found}`);
  }
}

/** The SQLite settings the server relies on, read back from the connection. */
export async function sqliteSettings(db: Knex): Promise<Record<string, unknown>> {
  const read = async (name: string) => {
    const rows = (await db.raw(`PRAGMA ${name}`)) as Record<string, unknown>[];
    return Object.values(rows[0] ?? {})[0];
  };
  return {
    journal_mode: await read('journal_mode'),
    busy_timeout: await read('busy_timeout'),
    synchronous: await read('synchronous'),
    foreign_keys: await read('foreign_keys'),
  };
}
