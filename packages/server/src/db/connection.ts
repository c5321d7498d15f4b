/**
 * Opens the database named by DATABASE_URL: SQLite through better-sqlite3 by default, PostgreSQL
 * through pg. Dialect differences in connecting live here and in ./errors.ts, nowhere else.
 */
import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { sqliteFile } from '../config.js';
import { cacheStatements } from './statement-cache.js';

export type Dialect = 'sqlite' | 'postgres';

export type Db = Knex;

export interface DatabaseOptions {
  url: string;
  /** PostgreSQL schema to use (tests use one per run); created if missing. */
  schema?: string;
  poolMax?: number;
}

// int8 (counts, epoch milliseconds) would otherwise arrive as strings; ours fit in a double.
pg.types.setTypeParser(20, (value: string) => Number(value));

export function dialectOf(db: Knex): Dialect {
  return db.client.config.client === 'pg' ? 'postgres' : 'sqlite';
}

export function openDatabase(options: DatabaseOptions): Knex {
  if (options.url.startsWith('sqlite:')) return openSqlite(sqliteFile(options.url));
  return openPostgres(options);
}

function openSqlite(file: string): Knex {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: { pragma(sql: string): unknown; prepare(sql: string): unknown }, done: (error: Error | null, connection: unknown) => void) {
        try {
          cacheStatements(connection);
          connection.pragma('journal_mode = WAL');
          connection.pragma('busy_timeout = 5000');
          connection.pragma('synchronous = NORMAL');
          connection.pragma('foreign_keys = ON');
          done(null, connection);
        } catch (error) {
          done(error as Error, connection);
        }
      },
    },
  });
}

function openPostgres(options: DatabaseOptions): Knex {
  return knex({
    client: 'pg',
    connection: options.url,
    searchPath: options.schema ? [options.schema] : undefined,
    pool: { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 5000,
  });
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
