import type { Knex } from 'knex';

/**
 * Passkeys (docs/security.md): a user's WebAuthn credentials, and the ceremonies' challenges,
 * stored in the database so that any instance can finish a ceremony another one started.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('passkeys', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    /** The credential id, base64url. */
    table.string('credential_id', 1400).notNullable().unique();
    /** The COSE public key, base64url. */
    table.text('public_key').notNullable();
    table.bigInteger('counter').notNullable().defaultTo(0);
    table.string('transports', 200).notNullable().defaultTo('');
    table.string('name', 100).notNullable();
    table.bigInteger('created_at').notNullable();
    table.bigInteger('last_used_at');
    table.index('user_id');
  });
  await knex.schema.createTable('webauthn_challenges', (table) => {
    table.increments('id');
    table.string('challenge', 200).notNullable().unique();
    /** 'registration' or 'authentication'. */
    table.string('purpose', 20).notNullable();
    /** The registering user, or the pending sign-in's user; null for a discoverable sign-in. */
    table.integer('user_id').references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('expires_at').notNullable();
    table.index('expires_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webauthn_challenges', 'passkeys']) await knex.schema.dropTableIfExists(table);
}
