import type { Knex } from 'knex';

/** Google sign-ins under way: what the callback must check, bound to one browser's cookie. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oidc_logins', (table) => {
    table.increments('id');
    table.string('binding_hash', 64).notNullable().unique();
    table.string('state', 128).notNullable();
    table.string('nonce', 128).notNullable();
    table.string('code_verifier', 128).notNullable();
    table.string('invite_token', 200);
    table.string('redirect', 2000).notNullable();
    table.bigInteger('created_at').notNullable();
    table.bigInteger('expires_at').notNullable();
    table.index('expires_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('oidc_logins');
}
