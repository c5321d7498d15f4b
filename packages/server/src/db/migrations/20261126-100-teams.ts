import type { Knex } from 'knex';

/**
 * Teams, app roles and app owners (docs/api.md, Teams, roles and owners): teams of users with
 * memberships that may expire; an app's roles (a JSON list, the first the default); the role
 * each grant carries; grants to teams; an app's owners, users and teams. Existing grants stay
 * direct grants without a role; existing apps have no roles.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('teams', (table) => {
    table.increments('id');
    table.string('name', 200).notNullable();
    // The name as people compare it (core's foldName): unique, so `Ops` and `OPS` cannot both exist.
    table.string('name_key', 800).notNullable().unique();
    table.text('description').notNullable().defaultTo('');
    table.bigInteger('created_at').notNullable();
  });

  await knex.schema.createTable('team_members', (table) => {
    table.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('expires_at');
    table.primary(['team_id', 'user_id']);
    table.index(['user_id', 'team_id']);
    table.index('expires_at');
  });

  await knex.schema.alterTable('apps', (table) => {
    table.text('roles').notNullable().defaultTo('[]');
  });

  await knex.schema.alterTable('user_apps', (table) => {
    table.string('role', 32);
  });

  await knex.schema.createTable('team_apps', (table) => {
    table.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.string('role', 32);
    table.bigInteger('expires_at');
    table.primary(['team_id', 'app_id']);
    table.index('app_id');
    table.index('expires_at');
  });

  await knex.schema.createTable('app_owner_users', (table) => {
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.primary(['app_id', 'user_id']);
    table.index('user_id');
  });

  await knex.schema.createTable('app_owner_teams', (table) => {
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
    table.primary(['app_id', 'team_id']);
    table.index('team_id');
  });

  await knex.schema.alterTable('access_requests', (table) => {
    table.string('role', 32);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('access_requests', (table) => {
    table.dropColumn('role');
  });
  await knex.schema.dropTableIfExists('app_owner_teams');
  await knex.schema.dropTableIfExists('app_owner_users');
  await knex.schema.dropTableIfExists('team_apps');
  await knex.schema.alterTable('user_apps', (table) => {
    table.dropColumn('role');
  });
  await knex.schema.alterTable('apps', (table) => {
    table.dropColumn('roles');
  });
  await knex.schema.dropTableIfExists('team_members');
  await knex.schema.dropTableIfExists('teams');
}
