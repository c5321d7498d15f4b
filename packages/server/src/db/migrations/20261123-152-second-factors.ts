import type { Knex } from 'knex';

/**
 * Second factors (docs/security.md): an authenticator app per user (its secret sealed with
 * SECRET_KEY), recovery codes (hashed), sign-ins waiting for their second factor, and sessions
 * restricted to enrolling one (MFA_REQUIRED).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_totp', (table) => {
    table.integer('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    table.text('secret_sealed').notNullable();
    table.bigInteger('created_at').notNullable();
    /** Null while the enrolment waits for its first code. */
    table.bigInteger('confirmed_at');
    /** The last 30-second step whose code was accepted: a code is accepted once. */
    table.bigInteger('last_step').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('recovery_codes', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('code_hash', 64).notNullable();
    table.bigInteger('used_at');
    table.index(['user_id', 'code_hash']);
  });
  await knex.schema.createTable('pending_sign_ins', (table) => {
    table.increments('id');
    table.string('token_hash', 64).notNullable().unique();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('method', 32).notNullable();
    table.integer('failures').notNullable().defaultTo(0);
    table.bigInteger('created_at').notNullable();
    table.bigInteger('expires_at').notNullable();
    table.index('expires_at');
  });
  await knex.schema.alterTable('sessions', (table) => {
    table.boolean('mfa_enrollment_required').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (table) => {
    table.dropColumn('mfa_enrollment_required');
  });
  for (const table of ['pending_sign_ins', 'recovery_codes', 'user_totp']) await knex.schema.dropTableIfExists(table);
}
