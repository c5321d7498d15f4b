import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('clients', (table) => {
    table.increments('id');
    table.string('name', 200).notNullable().unique();
    table.bigInteger('created_at').notNullable();
  });

  await knex.schema.createTable('users', (table) => {
    table.increments('id');
    table.string('email', 254).notNullable().unique();
    table.string('name', 200).notNullable().defaultTo('');
    table.integer('client_id').notNullable().references('id').inTable('clients').onDelete('CASCADE');
    table.text('password_hash');
    table.string('google_sub', 255).unique();
    table.bigInteger('created_at').notNullable();
    table.index('client_id');
  });

  await knex.schema.createTable('apps', (table) => {
    table.increments('id');
    table.string('name', 200).notNullable().unique();
    table.string('url', 2000).notNullable();
    table.text('description').notNullable().defaultTo('');
    table.string('doclink', 2000).notNullable().defaultTo('');
    table.bigInteger('created_at').notNullable();
  });

  await knex.schema.createTable('user_apps', (table) => {
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.primary(['user_id', 'app_id']);
    table.index('app_id');
  });

  await knex.schema.createTable('invites', (table) => {
    table.increments('id');
    table.string('email', 254).notNullable();
    table.string('token', 64).notNullable().unique();
    table.integer('client_id').notNullable().references('id').inTable('clients').onDelete('CASCADE');
    table.bigInteger('sent_at').notNullable();
    table.bigInteger('expires_at').notNullable();
    table.bigInteger('used_at');
  });
  // An email may have one open invite at a time; used invites stay for the record.
  await knex.raw('CREATE UNIQUE INDEX invites_open_email ON invites (email) WHERE used_at IS NULL');

  await knex.schema.createTable('invite_apps', (table) => {
    table.integer('invite_id').notNullable().references('id').inTable('invites').onDelete('CASCADE');
    table.integer('app_id').notNullable().references('id').inTable('apps').onDelete('CASCADE');
    table.primary(['invite_id', 'app_id']);
  });

  await knex.schema.createTable('sessions', (table) => {
    table.increments('id');
    table.string('token_hash', 64).notNullable().unique();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('created_at').notNullable();
    table.bigInteger('last_seen_at').notNullable();
    table.bigInteger('expires_at').notNullable();
    table.string('ip', 64).notNullable().defaultTo('');
    table.string('user_agent', 512).notNullable().defaultTo('');
    table.index('user_id');
  });

  await knex.schema.createTable('api_keys', (table) => {
    table.increments('id');
    table.string('key_hash', 64).notNullable().unique();
    table.string('masked', 32).notNullable();
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('created_at').notNullable();
    table.bigInteger('last_used_at');
    table.index('user_id');
  });

  await knex.schema.createTable('login_failures', (table) => {
    table.increments('id');
    table.string('kind', 16).notNullable();
    table.string('subject', 254).notNullable();
    table.bigInteger('at').notNullable();
    table.index(['kind', 'subject', 'at']);
  });

  await knex.schema.createTable('login_bans', (table) => {
    table.string('kind', 16).notNullable();
    table.string('subject', 254).notNullable();
    table.bigInteger('until').notNullable();
    table.primary(['kind', 'subject']);
  });

  await knex.schema.createTable('auth_log', (table) => {
    table.increments('id');
    table.bigInteger('at').notNullable();
    table.string('client', 200).notNullable().defaultTo('');
    table.string('user', 254).notNullable().defaultTo('');
    table.string('event', 1000).notNullable();
    table.string('ip', 64).notNullable().defaultTo('');
    table.string('user_agent', 512).notNullable().defaultTo('');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['auth_log', 'login_bans', 'login_failures', 'api_keys', 'sessions', 'invite_apps', 'invites', 'user_apps', 'apps', 'users', 'clients']) {
    await knex.schema.dropTableIfExists(table);
  }
}
