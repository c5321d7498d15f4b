/**
 * Runs the Knex migrations. They are imported statically (not globbed from disk) so the same
 * list runs from TypeScript sources in tests and from compiled JavaScript in production.
 */
import type { Knex } from 'knex';
import { isAlreadyExists, isUniqueViolation } from './errors.js';
import * as initialSchema from './migrations/20261122-001-initial-schema.js';
import * as oidcLogins from './migrations/20261122-002-oidc-logins.js';
import * as loginAttempts from './migrations/20261123-150-login-attempts.js';
import * as loginDevices from './migrations/20261123-151-login-devices.js';
import * as secondFactors from './migrations/20261123-152-second-factors.js';
import * as eventCounts from './migrations/20261123-200-event-counts.js';
import * as launcher from './migrations/20261123-300-launcher.js';
import * as mail from './migrations/20261123-400-mail.js';
import * as oidcProvider from './migrations/20261123-450-oidc-provider.js';
import * as passkeys from './migrations/20261123-550-passkeys.js';
import * as eventLogDayCounts from './migrations/20261123-600-event-log-day-counts.js';
import * as eventLogActorType from './migrations/20261123-350-event-log-actor-type.js';
import * as backgroundJobs from './migrations/20261123-351-background-jobs.js';
import * as sessionSignInFactors from './migrations/20261125-100-session-sign-in-factors.js';
import * as emailVerified from './migrations/20261125-200-email-verified.js';
import * as apiKeyNameExpiry from './migrations/20261125-300-api-key-name-expiry.js';
import * as oneCounterTable from './migrations/20261125-600-one-counter-table.js';
import * as teams from './migrations/20261126-100-teams.js';
import * as deviceLogin from './migrations/20261126-200-device-login.js';
import * as webhooks from './migrations/20261126-300-webhooks.js';
import * as languages from './migrations/20261126-600-languages.js';
import * as accessReviews from './migrations/20261126-700-access-reviews.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const migrations: Record<string, Migration> = {
  '20261122-001-initial-schema': initialSchema,
  '20261122-002-oidc-logins': oidcLogins,
  '20261123-150-login-attempts': loginAttempts,
  '20261123-151-login-devices': loginDevices,
  '20261123-152-second-factors': secondFactors,
  '20261123-200-event-counts': eventCounts,
  '20261123-300-launcher': launcher,
  '20261123-350-event-log-actor-type': eventLogActorType,
  '20261123-351-background-jobs': backgroundJobs,
  '20261123-400-mail': mail,
  '20261123-450-oidc-provider': oidcProvider,
  '20261123-550-passkeys': passkeys,
  '20261123-600-event-log-day-counts': eventLogDayCounts,
  '20261125-100-session-sign-in-factors': sessionSignInFactors,
  '20261125-200-email-verified': emailVerified,
  '20261125-300-api-key-name-expiry': apiKeyNameExpiry,
  '20261125-600-one-counter-table': oneCounterTable,
  '20261126-100-teams': teams,
  '20261126-200-device-login': deviceLogin,
  '20261126-300-webhooks': webhooks,
  '20261126-600-languages': languages,
  '20261126-700-access-reviews': accessReviews,
};

const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

const config: Knex.MigratorConfig = { migrationSource, tableName: 'knex_migrations' };

/**
 * Migrates to the latest version. Several instances starting together on one empty database all
 * come up: when another holds Knex's migration lock, or won the race to create Knex's own tables,
 * this waits and tries again.
 */
export async function migrateToLatest(db: Knex, { attempts = 60, delayMs = 500 } = {}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.migrate.latest(config);
      return;
    } catch (error) {
      if (!(isMigrationLocked(error) || isCreationRace(error)) || attempt >= attempts) throw error;
      await removeDuplicateLockRows(db);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

function isMigrationLocked(error: unknown): boolean {
  return (error as Error).name === 'MigrationLocked' || /Migration table is already locked/.test(String(error));
}

// Knex checks for its own tables, then creates them: two instances can both find none. (On
// PostgreSQL the loser may also trip over the catalog's unique index instead.)
function isCreationRace(error: unknown): boolean {
  return (isAlreadyExists(error) || isUniqueViolation(error)) && String(error).includes(config.tableName!);
}

/**
 * Knex inserts the lock table's one row when it finds the table empty; two instances can both
 * insert one, and with two rows nobody can ever take the lock. Both rows are then unlocked (a
 * failed lock attempt rolls back), so dropping all but the first is safe at any time.
 */
async function removeDuplicateLockRows(db: Knex): Promise<void> {
  const lockTable = `${config.tableName}_lock`;
  try {
    if (!(await db.schema.hasTable(lockTable))) return;
    const first = db(lockTable).min('index');
    await db(lockTable).where('index', '>', first).delete();
  } catch {
    // Best effort: the next attempt reports whatever is really wrong.
  }
}

export async function migrateDown(db: Knex): Promise<void> {
  await db.migrate.rollback(config, true);
}
