import type { Knex } from 'knex';

/**
 * The OpenID provider (docs/oidc.md): apps enabled as clients, the provider's own state (codes,
 * tokens, grants, interactions, sessions: one row per model and id, swept when expired), which
 * portal session each grant belongs to, and the signing keys sealed with SECRET_KEY.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oidc_clients', (table) => {
    table.integer('app_id').primary().references('id').inTable('apps').onDelete('CASCADE');
    table.text('redirect_uris').notNullable();
    table.text('post_logout_redirect_uris').notNullable();
    table.boolean('public').notNullable();
    table.string('id_token_alg', 16).notNullable();
    // SHA-256 of the secret (a confidential client); null for a public client.
    table.string('secret_hash', 64);
    table.bigInteger('created_at').notNullable();
    table.bigInteger('updated_at').notNullable();
  });
  await knex.schema.createTable('oidc_payloads', (table) => {
    table.string('model', 40).notNullable();
    table.string('id', 255).notNullable();
    table.text('payload').notNullable();
    table.string('grant_id', 255);
    table.string('uid', 255);
    table.string('user_code', 255);
    table.bigInteger('expires_at');
    // Seconds since the epoch when a code or token was used; set once, by a conditional update.
    table.bigInteger('consumed_at');
    table.primary(['model', 'id']);
    table.index('grant_id');
    table.index(['model', 'uid']);
    table.index('expires_at');
  });
  await knex.schema.createTable('oidc_grant_sessions', (table) => {
    table.string('grant_id', 255).primary();
    // The portal session that signed the user in: ending it ends the grant's tokens.
    table.integer('session_id').notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.bigInteger('expires_at').notNullable();
    table.index('session_id');
    table.index('expires_at');
  });
  await knex.schema.createTable('oidc_signing_keys', (table) => {
    table.increments('id');
    table.string('kid', 64).notNullable().unique();
    table.string('alg', 16).notNullable();
    table.text('sealed_jwk').notNullable();
    table.bigInteger('created_at').notNullable();
    table.bigInteger('retired_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('oidc_signing_keys');
  await knex.schema.dropTableIfExists('oidc_grant_sessions');
  await knex.schema.dropTableIfExists('oidc_payloads');
  await knex.schema.dropTableIfExists('oidc_clients');
}
