/**
 * What a portal session knows of its sign-in (docs/oidc.md, "What apps learn of the sign-in"):
 * `signed_in_at`, when the user last proved who they are (the sign-in, or a later confirmation or
 * step-up), and `amr`, the RFC 8176 methods used then, space-separated (`pwd otp mfa`). Older
 * sessions keep `signed_in_at` null (read as `created_at`) and an empty `amr`.
 * `pending_sign_ins.session_id` and `oidc_logins.session_id`: the session a pending sign-in (second
 * factor) or a Google sign-in under way confirms, when it is a confirmation.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (table) => {
    table.bigInteger('signed_in_at');
    table.string('amr', 64).notNullable().defaultTo('');
  });
  for (const name of ['pending_sign_ins', 'oidc_logins']) {
    await knex.schema.alterTable(name, (table) => {
      table.integer('session_id').references('id').inTable('sessions').onDelete('CASCADE');
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const name of ['pending_sign_ins', 'oidc_logins']) {
    await knex.schema.alterTable(name, (table) => {
      table.dropForeign(['session_id']);
    });
    await knex.schema.alterTable(name, (table) => {
      table.dropColumn('session_id');
    });
  }
  await knex.schema.alterTable('sessions', (table) => {
    table.dropColumn('amr');
    table.dropColumn('signed_in_at');
  });
}
