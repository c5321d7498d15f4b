/**
 * The event log's who and what (docs/event-log.md): `actor` (the email of who did it), `type`
 * (a name of core's catalogue) and `area` (the type up to its first dot, so that a filter on a
 * prefix such as `login.` is an equality an index answers in order). Indexes for the filters,
 * each ending in `at` so that a filtered page is read newest first straight from the index;
 * `lower(...)` because those filters ignore case.
 */
import type { Knex } from 'knex';

// Older rows get the type their text shows; their actor stays unknown ('').
const BACKFILL: Array<[string, string]> = [
  ['login with password', 'login.success'],
  ['login failed:%', 'login.failure'],
  ['login blocked:%', 'login.blocked'],
  ['logout', 'session.logout'],
  ['ended % sessions of %', 'session.end_all'],
  ['login with Google%', 'google.login'],
  ['Google sign-in refused:%', 'google.failure'],
  ['registered as staff admin%', 'register.staff'],
  ['registered with password', 'register.password'],
  ['registered %Google%', 'register.google'],
  ['created admin %', 'admin.create'],
  ['created client %', 'client.create'],
  ['deleted client %', 'client.delete'],
  ['deleted user %', 'user.delete'],
  ['created app %', 'app.create'],
  ['updated app %', 'app.update'],
  ['deleted app %', 'app.delete'],
  ['granted app %', 'grant.add'],
  ['revoked app %', 'grant.remove'],
  ['invited %', 'invite.create'],
  ['deleted invite %', 'invite.delete'],
  ['created API key %', 'apikey.create'],
  ['deleted API key %', 'apikey.delete'],
  ['forward auth denied:%', 'verify.denied'],
];

// Each ends in (at, id), the order of every page and of the export's keyset, so that PostgreSQL
// reads a filtered page backwards from the index without sorting (SQLite's indexes end in the
// rowid anyway).
const INDEXES: Array<[string, string]> = [
  ['auth_log_at', 'at, id'],
  ['auth_log_user_at', 'lower("user"), at, id'],
  ['auth_log_client_at', 'lower(client), at, id'],
  ['auth_log_actor_at', 'lower(actor), at, id'],
  ['auth_log_area_at', 'area, at, id'],
  ['auth_log_type_at', 'type, at, id'],
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('auth_log', (table) => {
    table.string('actor', 254).notNullable().defaultTo('');
    table.string('type', 64).notNullable().defaultTo('');
    table.string('area', 32).notNullable().defaultTo('');
  });
  const cases = BACKFILL.map(() => 'when event like ? then ?').join(' ');
  const areaOf = (type: string) => type.slice(0, type.indexOf('.'));
  await knex.raw(`update auth_log set type = case ${cases} else '' end, area = case ${cases} else '' end`, [
    ...BACKFILL.flat(),
    ...BACKFILL.flatMap(([pattern, type]) => [pattern, areaOf(type)]),
  ]);
  for (const [name, columns] of INDEXES) await knex.raw(`create index ${name} on auth_log (${columns})`);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`drop index if exists ${name}`);
  await knex.schema.alterTable('auth_log', (table) => {
    table.dropColumn('area');
    table.dropColumn('type');
    table.dropColumn('actor');
  });
}
