/**
 * German and English (docs/glossary.md): a user's chosen language (`users.language`, null: their
 * browser decides), an invitation's (`invites.language`, null: DEFAULT_LANGUAGE), and an app's
 * description for German readers (`apps.description_de`, empty: they read the English one).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (table) => {
    table.string('language', 8);
  });
  await knex.schema.alterTable('invites', (table) => {
    table.string('language', 8);
  });
  await knex.schema.alterTable('apps', (table) => {
    table.text('description_de').notNullable().defaultTo('');
  });
}

// A plain ALTER TABLE … DROP COLUMN on both dialects, as 20261125-200-email-verified does: Knex's
// SQLite dropColumn would copy (and so drop) tables that others cascade from.
export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of [
    ['apps', 'description_de'],
    ['invites', 'language'],
    ['users', 'language'],
  ]) {
    await knex.raw('alter table ?? drop column ??', [table, column]);
  }
}
