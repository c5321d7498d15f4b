import type { Knex } from 'knex';

/**
 * The launcher (docs/api.md, Apps and Access requests): an app's category, whether users may
 * request it, and its icon; favourites; grants that expire; access requests.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('apps', (table) => {
    table.string('category', 200).notNullable().defaultTo('');
    table.boolean('requestable').notNullable().defaultTo(false);
    // Bumped at every icon change: the icon's URL carries it, so browsers may cache for long.
    table.bigInteger('icon_version');
  });

  // Icons live apart from the apps, so that listing apps never reads their bytes.
  await knex.schema.createTable('app_icons', (table) => {
    table.integer('app_id').primary().references('id').inTable('apps').onDelete('CASCADE');
    table.string('content_type', 32).notNullable();
    table.binary('data').notNullable();
  });

  await knex.schema.alterTable('user_apps', (table) => {
    table.bigInteger('expires_at');
    table.index('expires_at');
  });

  await knex.schema.createTable('favourites', (table) => {
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.primary(['user_id', 'app_id']);
    table.index('app_id');
  });

  await knex.schema.createTable('access_requests', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.text('reason').notNullable().defaultTo('');
    table.string('status', 16).notNullable().defaultTo('open');
    table.bigInteger('created_at').notNullable();
    table.bigInteger('decided_at');
    table.string('decided_by', 254);
    table.text('decision');
    table.index(['status', 'decided_at']);
    table.index('app_id');
  });
  // One open request per user and app, on every instance: the database decides a race.
  await knex.raw("CREATE UNIQUE INDEX access_requests_open ON access_requests (user_id, app_id) WHERE status = 'open'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('access_requests');
  await knex.schema.dropTableIfExists('favourites');
  await knex.schema.alterTable('user_apps', (table) => {
    table.dropIndex('expires_at');
    table.dropColumn('expires_at');
  });
  await knex.schema.dropTableIfExists('app_icons');
  await knex.schema.alterTable('apps', (table) => {
    table.dropColumn('icon_version');
    table.dropColumn('requestable');
    table.dropColumn('category');
  });
}
