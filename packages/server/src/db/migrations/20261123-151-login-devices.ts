import type { Knex } from 'knex';

/**
 * Browsers that have signed in to an account (docs/security.md, lockout): the device cookie's
 * random id, stored only as a SHA-256 hash, once per account it signed in to.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_devices', (table) => {
    table.increments('id');
    table.string('token_hash', 64).notNullable();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('created_at').notNullable();
    table.bigInteger('last_used_at').notNullable();
    table.unique(['token_hash', 'user_id']);
    table.index('user_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('login_devices');
}
