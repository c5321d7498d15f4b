import type { Knex } from 'knex';

/**
 * API keys (docs/api.md, API keys): an optional name and expiry. An expired key answers 401
 * and stays listed until its owner or an admin deletes it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (table) => {
    table.string('name', 200);
    table.bigInteger('expires_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (table) => {
    table.dropColumn('expires_at');
    table.dropColumn('name');
  });
}
