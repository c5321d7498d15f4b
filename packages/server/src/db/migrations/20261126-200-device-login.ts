/**
 * Signing in from a terminal through the device grant (docs/oidc.md, Device grant; docs/cli.md):
 * - `sessions.name`: what a session is called in the user's sessions ("toolsctl on HOST"); null for
 *   browser sign-ins;
 * - `oidc_clients.device`: an app may use the device grant too;
 * - `oidc_cli_grants`: the provider grant of each `toolsctl` sign-in and the portal session it made
 *   (the CLI's tokens are that session's: they end with it);
 * - `oidc_device_requests`: per device request (the provider's DeviceCode id), when it last polled
 *   (`slow_down`), how many wrong codes were typed for it (the fifth voids it), and when it was
 *   allowed or denied (once);
 * - access and refresh tokens of the provider are kept as their SHA-256, without the token in the
 *   payload (a `toolsctl` access token is a credential of the REST API): existing rows are rehashed.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/** The provider's models whose ids are tokens, kept from now on as their SHA-256 (oidc/adapter.ts). */
const HASHED_MODELS = ['AccessToken', 'RefreshToken'];
const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (table) => {
    table.string('name', 200);
  });
  await knex.schema.alterTable('oidc_clients', (table) => {
    table.boolean('device').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('oidc_cli_grants', (table) => {
    table.string('grant_id', 255).primary();
    table.integer('session_id').notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    table.integer('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    table.bigInteger('expires_at').notNullable();
    table.index('session_id');
    table.index('expires_at');
  });
  await knex.schema.createTable('oidc_device_requests', (table) => {
    table.string('id', 255).primary();
    table.bigInteger('polled_at');
    table.integer('failures').notNullable().defaultTo(0);
    // When the request was allowed or denied: one decision, even from two tabs or instances.
    table.bigInteger('decided_at');
    table.bigInteger('expires_at').notNullable();
    table.index('expires_at');
  });
  const rows: { model: string; id: string; payload: string }[] = await knex('oidc_payloads').whereIn('model', HASHED_MODELS).select('model', 'id', 'payload');
  for (const row of rows) {
    const { jti: _token, ...payload } = JSON.parse(row.payload) as Record<string, unknown>;
    await knex('oidc_payloads')
      .where({ model: row.model, id: row.id })
      .update({ id: sha256(row.id), payload: JSON.stringify(payload) });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('oidc_device_requests');
  await knex.schema.dropTableIfExists('oidc_cli_grants');
  await knex.schema.alterTable('oidc_clients', (table) => {
    table.dropColumn('device');
  });
  await knex.schema.alterTable('sessions', (table) => {
    table.dropColumn('name');
  });
}
