/**
 * The database a test portal runs on: a temp SQLite file by default, or a fresh PostgreSQL schema
 * when TEST_DATABASE=postgres (the `server-postgres` vitest project sets it). Each is removed when
 * the test file is done.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import pg from 'pg';

export type TestDialect = 'sqlite' | 'postgres';

const DEFAULT_TEST_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * The SECRET_KEY of test portals (docs/configuration.md): fixed, so that several instances agree,
 * and so that the template's signing keys (./database-template.ts) open in every copy.
 */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

/** Schemas of test runs are named so; stale ones (from killed runs) are dropped by name. */
export const TEST_SCHEMA_PREFIX = 'portal_test_';

export interface TestDatabase {
  dialect: TestDialect;
  /** The DATABASE_URL to start a portal with. */
  url: string;
  /** The PostgreSQL schema, passed to startPortal. */
  schema?: string;
  /** Removes the database (file or schema) with everything in it. */
  drop(): Promise<void>;
}

export function testDialect(): TestDialect {
  return process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
}

export function testPostgresUrl(): string {
  return process.env.TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL;
}

/** A fresh, empty database of the dialect under test (or the one asked for). */
export function createTestDatabase(dialect: TestDialect = testDialect()): TestDatabase {
  if (dialect === 'postgres') {
    // The creation time in the name lets a later run drop what a killed run left behind.
    const schema = `${TEST_SCHEMA_PREFIX}${Date.now()}_${process.pid}_${randomBytes(4).toString('hex')}`;
    const url = testPostgresUrl();
    return { dialect, url, schema, drop: () => dropSchema(url, schema) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-test-'));
  return {
    dialect,
    url: `sqlite:${path.join(dir, 'portal.db')}`,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs SQL on the test PostgreSQL with a short-lived connection of its own. */
export async function onTestPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh PostgreSQL database of its own, for servers that run as separate processes and use the
 * database's default schema, as in production. With `template`, a copy of that database.
 */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = testPostgresUrl();
  const name = `${TEST_SCHEMA_PREFIX}${Date.now()}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onTestPostgres(admin, async (client) => {
    await client.query(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
    // A commit then waits for no flush of the write-ahead log to disk (1–15 ms each on a shared
    // machine, most of what made the API suite on PostgreSQL three times slower than on SQLite).
    // What others see is the same; only a crash of PostgreSQL itself could lose the last commits,
    // which no test does (the crash tests kill the portal's process).
    await client.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  });
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onTestPostgres(admin, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * A database migrated to the latest version and otherwise empty, made once per run by global
 * setup (./database-template.ts) for the test portals to copy.
 */
export interface DatabaseTemplate {
  dialect: TestDialect;
  /** SQLite: the template's file; PostgreSQL: the template database's name. */
  name: string;
}

/**
 * A fresh database of the dialect under test, already migrated: a copy of the run's template (a
 * file copy on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL), so that each test file does not
 * run every migration again. Without a template of that dialect, an empty one as
 * createTestDatabase makes it (the portal then migrates it). Migrations themselves are tested
 * on empty databases (database-setup, instances, startup tests).
 *
 * The template holds signing keys sealed with TEST_SECRET_KEY; a copy for a portal with another
 * `secretKey` (or none: '') has them removed, so that portal makes its own at start, as a first
 * start does.
 */
export async function createMigratedTestDatabase(
  template: DatabaseTemplate | undefined,
  { dialect = testDialect(), secretKey = TEST_SECRET_KEY }: { dialect?: TestDialect; secretKey?: string } = {},
): Promise<TestDatabase> {
  if (template?.dialect !== dialect) return createTestDatabase(dialect);
  const copy = dialect === 'postgres' ? { dialect, ...(await createPostgresDatabase(template.name)) } : copySqliteTemplate(template.name);
  if (secretKey !== TEST_SECRET_KEY) await removeSigningKeys(copy);
  return copy;
}

function copySqliteTemplate(file: string): TestDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-test-'));
  fs.copyFileSync(file, path.join(dir, 'portal.db'));
  return {
    dialect: 'sqlite',
    url: `sqlite:${path.join(dir, 'portal.db')}`,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function removeSigningKeys(database: TestDatabase): Promise<void> {
  const statement = 'DELETE FROM oidc_signing_keys';
  if (database.dialect === 'postgres') {
    await onTestPostgres(database.url, (client) => client.query(statement));
    return;
  }
  // Loaded here, not at the top: vitest.config.ts imports this module.
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(database.url.slice('sqlite:'.length));
  try {
    db.prepare(statement).run();
  } finally {
    db.close();
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  await onTestPostgres(url, (client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
}

/** Drops test schemas and databases older than `maxAgeMs`, which only a killed run leaves behind. */
async function dropStaleTestDatabases(url: string, maxAgeMs = 2 * 60 * 60 * 1000): Promise<void> {
  const stale = (name: string) => {
    const created = Number(/^portal_test_(\d+)_/.exec(name)?.[1]);
    return created > 0 && Date.now() - created > maxAgeMs;
  };
  await onTestPostgres(url, async (client) => {
    const schemas = await client.query<{ name: string }>('SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)', [TEST_SCHEMA_PREFIX]);
    for (const { name } of schemas.rows.filter((row) => stale(row.name))) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    const databases = await client.query<{ name: string }>('SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)', [TEST_SCHEMA_PREFIX]);
    for (const { name } of databases.rows.filter((row) => stale(row.name))) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

/**
 * Decides, once per run, whether the `server-postgres` project runs: yes when the test
 * PostgreSQL answers. When it does not, CI=true fails the run; elsewhere the project is skipped
 * with a loud note.
 */
export async function usePostgresProject(): Promise<boolean> {
  const url = testPostgresUrl();
  try {
    await onTestPostgres(url, (client) => client.query('SELECT 1'));
  } catch (error) {
    const reason = `PostgreSQL at ${url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@')} is unreachable (${(error as Error).message})`;
    if (process.env.CI === 'true') throw new Error(`${reason}; under CI=true the PostgreSQL API tests may not be skipped`, { cause: error });
    const line = '!'.repeat(100);
    process.stderr.write(
      `\n${line}\n!! SKIPPED: the API suite on PostgreSQL (project server-postgres).\n!! ${reason}.\n!! Start it, or set TEST_POSTGRES_URL. Only SQLite is tested in this run.\n${line}\n\n`,
    );
    return false;
  }
  // Best effort: a role that may not drop what a killed run left must not stop the tests.
  await dropStaleTestDatabases(url).catch((error: Error) => process.stderr.write(`note: stale test schemas not dropped: ${error.message}\n`));
  return true;
}

/**
 * Every row of every table, as text: what a test searches for secrets that must not be stored
 * in the clear, on either database (a SQLite test may read the file's bytes instead).
 */
export async function databaseContents(db: Knex): Promise<string> {
  const tables: string[] =
    db.client.config.client === 'pg'
      ? (await db.raw('SELECT tablename FROM pg_tables WHERE schemaname = current_schema()')).rows.map((row: { tablename: string }) => row.tablename)
      : ((await db.raw("SELECT name FROM sqlite_master WHERE type = 'table'")) as { name: string }[]).map((row) => row.name);
  const parts: string[] = [];
  for (const table of tables.sort()) parts.push(`${table}\n${JSON.stringify(await db(table).select('*'))}`);
  return parts.join('\n');
}
