import type { Knex } from 'knex';

/**
 * Mail (docs/email.md): the outbox every instance delivers from, password-reset links, the
 * counters that limit reset requests, and which app an invite's link names.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_outbox', (table) => {
    table.increments('id');
    table.string('kind', 64).notNullable();
    table.string('recipient', 254).notNullable();
    table.string('subject', 500).notNullable();
    // Bodies hold links with tokens: emptied once the mail is delivered or given up.
    table.text('text_body');
    table.text('html_body');
    table.string('message_id', 255).notNullable();
    table.string('status', 16).notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.bigInteger('created_at').notNullable();
    table.bigInteger('next_attempt_at').notNullable();
    table.bigInteger('lease_until');
    table.bigInteger('sent_at');
    table.string('last_error', 1000);
    table.index(['status', 'next_attempt_at']);
  });

  await knex.schema.createTable('password_resets', (table) => {
    table.increments('id');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.string('token_hash', 64).notNullable().unique();
    table.bigInteger('created_at').notNullable();
    table.bigInteger('expires_at').notNullable();
    table.bigInteger('used_at');
    table.index('user_id');
  });

  await knex.schema.createTable('request_limits', (table) => {
    table.string('subject', 320).primary();
    table.bigInteger('window_start').notNullable();
    table.integer('count').notNullable();
  });

  await knex.schema.alterTable('invites', (table) => {
    // The app the registration link names (the first app as sent); null: the portal itself.
    table.integer('link_app_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('invites', (table) => {
    table.dropColumn('link_app_id');
  });
  await knex.schema.dropTableIfExists('request_limits');
  await knex.schema.dropTableIfExists('password_resets');
  await knex.schema.dropTableIfExists('mail_outbox');
}
