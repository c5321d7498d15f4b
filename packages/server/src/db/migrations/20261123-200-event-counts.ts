import type { Knex } from 'knex';

/**
 * Repeated identical anonymous denials collapse into one event-log row with a count
 * (docs/product.md, Event log): `count` says how many times the event happened (1 for every
 * other row); `collapse_key` names the group a collapsed row stands for (the event, the address
 * and the time window, hashed) and is unique, so that every instance adds to the same row.
 * Counters of rate-limited actions (Google sign-in starts per address) live in `rate_limits`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('auth_log', (table) => {
    table.integer('count').notNullable().defaultTo(1);
    table.string('collapse_key', 64);
    table.unique(['collapse_key']);
  });
  await knex.schema.createTable('rate_limits', (table) => {
    table.string('kind', 32).notNullable();
    table.string('subject', 254).notNullable();
    table.bigInteger('window_start').notNullable();
    table.integer('hits').notNullable();
    table.primary(['kind', 'subject']);
    table.index('window_start');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limits');
  await knex.schema.alterTable('auth_log', (table) => {
    table.dropUnique(['collapse_key']);
    table.dropColumn('collapse_key');
    table.dropColumn('count');
  });
}
