/**
 * Whether a user proved their mailbox (docs/oidc.md, `email_verified`): `users.email_verified_at`,
 * set when the user registered from an invitation that was sent by mail, used a password-reset
 * link that was sent by mail, or signed in with Google's verified claim for that very email. Which
 * links went out by mail is remembered with them (`invites.mailed`, `password_resets.mailed`): a
 * link an admin copied proves nothing. Users from before this migration stay unproven (null),
 * the honest default: nothing recorded then tells how they came to exist.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.bigInteger('email_verified_at');
  });
  await knex.schema.alterTable('invites', (table) => {
    table.boolean('mailed').notNullable().defaultTo(false);
  });
  await knex.schema.alterTable('password_resets', (table) => {
    table.boolean('mailed').notNullable().defaultTo(false);
  });
}

// A plain ALTER TABLE … DROP COLUMN on both dialects (SQLite has it since 3.35): Knex's SQLite
// dropColumn copies the table, and dropping `users` inside the migration's transaction (where
// foreign keys cannot be switched off) would cascade-delete every session, grant and link.
export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of [
    ['password_resets', 'mailed'],
    ['invites', 'mailed'],
    ['users', 'email_verified_at'],
  ]) {
    await knex.raw('alter table ?? drop column ??', [table, column]);
  }
}
