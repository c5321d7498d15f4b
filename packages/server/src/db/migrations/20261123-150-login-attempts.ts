import type { Knex } from 'knex';

/**
 * Login attempts are reserved before the password is hashed (docs/security.md, brute force): one
 * counter row per email and per address, bumped atomically, replaces the log of failures that was
 * only written after the hash.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_attempts', (table) => {
    table.string('kind', 16).notNullable();
    table.string('subject', 254).notNullable();
    table.bigInteger('window_start').notNullable();
    table.integer('attempts').notNullable();
    table.primary(['kind', 'subject']);
    table.index('window_start');
  });
  await knex.schema.dropTableIfExists('login_failures');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_failures', (table) => {
    table.increments('id');
    table.string('kind', 16).notNullable();
    table.string('subject', 254).notNullable();
    table.bigInteger('at').notNullable();
    table.index(['kind', 'subject', 'at']);
  });
  await knex.schema.dropTableIfExists('login_attempts');
}
