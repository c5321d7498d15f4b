/**
 * Runs the Knex migrations. They are imported statically (not globbed from disk) so the same
 * list runs from TypeScript sources in tests and from compiled JavaScript in production.
 */
import type { Knex } from 'knex';
import * as initialSchema from './migrations/20261122-001-initial-schema.js';
import * as oidcLogins from './migrations/20261122-002-oidc-logins.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: Record<string, Migration> = {
  '20261122-001-initial-schema': initialSchema,
  '20261122-002-oidc-logins': oidcLogins,
};

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

const config: Knex.MigratorConfig = { migrationSource, tableName: 'knex_migrations' };

/**
 * Migrates to the latest version. When another instance holds Knex's migration lock, waits and
 * tries again, so that several instances starting together on one database all come up.
 */
export async function migrateToLatest(db: Knex, { attempts = 60, delayMs = 500 } = {}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.migrate.latest(config);
      return;
    } catch (error) {
      const locked = (error as Error).name === 'MigrationLocked' || /Migration table is already locked/.test(String(error));
      if (!locked || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

export async function migrateDown(db: Knex): Promise<void> {
  await db.migrate.rollback(config, true);
}
