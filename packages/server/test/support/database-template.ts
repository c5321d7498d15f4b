/**
 * For global setup: migrates one empty database of the project's dialect once per run, the
 * template that test portals copy (createMigratedTestDatabase in ./database.ts), and hands it to
 * the test files as `inject('databaseTemplate')` (declared in ./support.ts). Running the
 * migrations costs about 0.2 s a file on SQLite and 1–2 s on PostgreSQL; a copy costs a few
 * milliseconds (SQLite) or about 0.15 s (PostgreSQL).
 *
 * The template also holds the OpenID provider's signing keys sealed with TEST_SECRET_KEY, as a
 * portal's first start makes them: making the RSA key costs 0.05–0.4 s of CPU, at every portal
 * start otherwise.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import type { TestProject } from 'vitest/node';
import { openDatabase, prepareDatabase } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ensureSigningKeys } from '../../src/oidc/signing-keys.js';
import { SecretBox } from '../../src/services/support/secret-box.js';
import { onTestPostgres, testPostgresUrl, TEST_SCHEMA_PREFIX, TEST_SECRET_KEY, type TestDialect } from './database.js';

/** Makes the template of the project's dialect and provides it; answers the teardown that removes it. */
export async function provideDatabaseTemplate(project: TestProject): Promise<() => Promise<void>> {
  const dialect: TestDialect = project.config.env?.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
  const template = dialect === 'postgres' ? await postgresTemplate() : await sqliteTemplate();
  project.provide('databaseTemplate', { dialect, name: template.name });
  return template.remove;
}

/** What every copy starts with: the latest schema, and the signing keys of the tests' SECRET_KEY. */
async function fill(db: Knex): Promise<void> {
  await migrateToLatest(db);
  await ensureSigningKeys(db, new SecretBox(Buffer.from(TEST_SECRET_KEY, 'base64')));
}

async function sqliteTemplate(): Promise<{ name: string; remove(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-template-'));
  const file = path.join(dir, 'portal.db');
  const db = openDatabase({ url: `sqlite:${file}` });
  try {
    await prepareDatabase(db);
    await fill(db);
  } finally {
    // Closing the last connection checkpoints the WAL into the file, so the file alone is a copy.
    await db.destroy();
  }
  return { name: file, remove: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function postgresTemplate(): Promise<{ name: string; remove(): Promise<void> }> {
  const admin = testPostgresUrl();
  // The prefix and creation time let a later run drop it if this run is killed (dropStaleTestDatabases).
  const name = `${TEST_SCHEMA_PREFIX}${Date.now()}_${process.pid}_template_${randomBytes(4).toString('hex')}`;
  const drop = () => onTestPostgres(admin, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined);
  await onTestPostgres(admin, (client) => client.query(`CREATE DATABASE "${name}"`));
  try {
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const db = openDatabase({ url: url.toString(), poolMax: 1 });
    try {
      await fill(db);
    } finally {
      await db.destroy();
    }
    // CREATE DATABASE … TEMPLATE fails while anyone is connected to the template; closing it to
    // connections keeps autovacuum (and everyone else) out.
    await onTestPostgres(admin, (client) => client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`));
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, remove: drop };
}
