/**
 * Background jobs that one instance at a time may run (services/support/background-job.ts): a lease
 * (holder, until) taken by a conditional update, and when the job last completed.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('background_jobs', (table) => {
    table.string('name', 64).primary();
    table.string('holder', 64).notNullable().defaultTo('');
    table.bigInteger('lease_until').notNullable().defaultTo(0);
    table.bigInteger('last_run_at').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('background_jobs');
}
