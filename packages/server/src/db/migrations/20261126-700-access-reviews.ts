import type { Knex } from 'knex';

/**
 * Access reviews and last use (docs/reviews.md): when each user last used each app (written in
 * batches, off the request path); when and by whom each grant was made (unknown for older ones);
 * reviews and their items, each item a grant as it was at the review's start.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('app_last_use', (table) => {
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.bigInteger('used_at').notNullable();
    table.primary(['user_id', 'app_id']);
    table.index('app_id');
  });
  for (const name of ['user_apps', 'team_apps']) {
    await knex.schema.alterTable(name, (table) => {
      table.bigInteger('granted_at');
      table.string('granted_by', 254);
    });
  }
  await knex.schema.createTable('reviews', (table) => {
    table.increments('id');
    table.string('name', 200).notNullable();
    table.string('reviewers', 16).notNullable();
    table.string('when_missed', 16).notNullable();
    table.bigInteger('due_at').notNullable();
    // When the reminder goes out (null: none, or sent); set at the start.
    table.bigInteger('remind_at');
    table.integer('started_by_id').references('id').inTable('users').onDelete('SET NULL');
    table.string('started_by', 254).notNullable();
    table.bigInteger('started_at').notNullable();
    table.bigInteger('closed_at');
    table.string('closed_by', 254);
    table.index(['closed_at', 'due_at']);
  });
  await knex.schema.createTable('review_apps', (table) => {
    table.integer('review_id').notNullable().references('id').inTable('reviews').onDelete('CASCADE');
    table.integer('app_id').notNullable();
    table.string('app_name', 200).notNullable();
    table.primary(['review_id', 'app_id']);
  });
  await knex.schema.createTable('review_items', (table) => {
    table.increments('id');
    table.integer('review_id').notNullable().references('id').inTable('reviews').onDelete('CASCADE');
    table.integer('app_id').notNullable();
    table.string('app_name', 200).notNullable();
    table.string('kind', 8).notNullable();
    // The grantee: a user (id, email, name) or a team (id, name), kept as they were at the start.
    table.integer('user_id');
    table.integer('team_id');
    table.string('grantee', 254).notNullable();
    table.string('grantee_name', 200).notNullable().defaultTo('');
    table.string('role', 32);
    table.bigInteger('expires_at');
    table.bigInteger('granted_at');
    table.string('granted_by', 254);
    table.string('decision', 8);
    table.string('decided_by', 254);
    table.bigInteger('decided_at');
    table.text('comment').notNullable().defaultTo('');
    table.string('outcome', 16);
    table.bigInteger('applied_at');
    table.index(['review_id', 'app_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('review_items');
  await knex.schema.dropTableIfExists('review_apps');
  await knex.schema.dropTableIfExists('reviews');
  for (const name of ['user_apps', 'team_apps']) {
    await knex.schema.alterTable(name, (table) => {
      table.dropColumn('granted_at');
      table.dropColumn('granted_by');
    });
  }
  await knex.schema.dropTableIfExists('app_last_use');
}
