import type { Knex } from 'knex';

/**
 * Webhooks (docs/webhooks.md): the receivers, the event types each takes (one row per type or
 * prefix, so that the event log's insert finds the matching hooks by index), and the deliveries, an
 * outbox like mail's, written in the transaction of their event-log entry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (table) => {
    table.increments('id');
    table.string('url', 2000).notNullable();
    table.string('description', 2000).notNullable().defaultTo('');
    table.boolean('enabled').notNullable().defaultTo(true);
    // Sealed with SECRET_KEY (services/support/secret-box.ts); the previous one signs too until previous_secret_until.
    table.text('secret').notNullable();
    table.text('previous_secret');
    table.bigInteger('previous_secret_until');
    table.bigInteger('created_at').notNullable();
    // When the first failed attempt since the last delivered one happened; null while the hook delivers.
    table.bigInteger('failing_since');
  });

  await knex.schema.createTable('webhook_events', (table) => {
    table.integer('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    // An event type (login.failure) or a prefix ending in `.` (login.): an entry's type matches
    // the hooks whose pattern is the type or one of its prefixes (services/webhooks/fan-out.ts).
    table.string('pattern', 64).notNullable();
    table.primary(['webhook_id', 'pattern']);
    table.index(['pattern']);
  });

  await knex.schema.createTable('webhook_deliveries', (table) => {
    table.increments('id');
    table.integer('webhook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    // The event-log entry delivered (the log keeps its rows; pruning may remove it after 400 days).
    table.integer('log_id');
    table.string('event_type', 64).notNullable();
    // `webhook-id`: the same on every attempt of one delivery.
    table.string('message_id', 64).notNullable();
    // The signed body, made at the first attempt (a counted entry's count is final by then).
    table.text('body');
    table.string('status', 16).notNullable();
    table.integer('attempts').notNullable().defaultTo(0);
    table.bigInteger('created_at').notNullable();
    table.bigInteger('next_attempt_at').notNullable();
    table.bigInteger('lease_until');
    table.bigInteger('delivered_at');
    table.integer('last_code');
    table.integer('duration_ms');
    table.string('last_error', 1000);
    table.unique(['webhook_id', 'log_id']);
    table.index(['status', 'next_attempt_at']);
    table.index(['webhook_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('webhook_deliveries');
  await knex.schema.dropTableIfExists('webhook_events');
  await knex.schema.dropTableIfExists('webhooks');
}
