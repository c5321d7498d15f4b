/**
 * The event log's entries per UTC day and type (docs/event-log.md, "Searching, counting,
 * exporting"): `auth_log_days` (day, area, type, entries), day being `at` / 86,400,000. Triggers
 * on `auth_log` keep it, so that no write path can forget it; a count on type and times sums it
 * instead of walking every matching entry. A collapsed denial's growing `count` is one entry, so
 * only inserts, deletes and changes of `at`, `area` or `type` touch the summary.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../connection.js';

// Event times are after 1970, so integer division is floor. Days left at 0 entries (retention
// deleted them) are removed, so the summary holds no more days than the log.
const DAY = 'at / 86400000';
const ADD_NEW = `insert into auth_log_days (day, area, type, entries) values (new.${DAY}, new.area, new.type, 1)
  on conflict (day, area, type) do update set entries = auth_log_days.entries + 1`;
const OF_OLD = `day = old.${DAY} and area = old.area and type = old.type`;
const SUBTRACT_OLD = [`update auth_log_days set entries = entries - 1 where ${OF_OLD}`, `delete from auth_log_days where ${OF_OLD} and entries = 0`];

const SQLITE_TRIGGERS: Array<[string, string, string[]]> = [
  ['auth_log_days_insert', 'after insert', [ADD_NEW]],
  ['auth_log_days_delete', 'after delete', SUBTRACT_OLD],
  ['auth_log_days_update', 'after update of at, area, type', [...SUBTRACT_OLD, ADD_NEW]],
];

// PostgreSQL: inserts and deletes per statement, from the statement's transition table, so that a
// statement of many entries (retention deletes 500 at a time) changes each summary row once:
// every change leaves a dead row version until vacuum, which a count then reads past.
// Transition tables take no column list, and the update trigger needs one (a collapsed denial
// updates `count`), so it is per row.
const CHANGED_PER_DAY = `select ${DAY} as day, area, type, count(*) as entries from changed group by 1, 2, 3`;
const SAME_ROW = 'auth_log_days.day = gone.day and auth_log_days.area = gone.area and auth_log_days.type = gone.type';
const POSTGRES_TRIGGERS: Array<[string, string, string[]]> = [
  [
    'auth_log_days_insert',
    'after insert on auth_log referencing new table as changed for each statement',
    [
      `insert into auth_log_days (day, area, type, entries) ${CHANGED_PER_DAY} on conflict (day, area, type) do update set entries = auth_log_days.entries + excluded.entries`,
    ],
  ],
  [
    'auth_log_days_delete',
    'after delete on auth_log referencing old table as changed for each statement',
    [
      `update auth_log_days set entries = auth_log_days.entries - gone.entries from (${CHANGED_PER_DAY}) gone where ${SAME_ROW}`,
      `delete from auth_log_days using (${CHANGED_PER_DAY}) gone where ${SAME_ROW} and auth_log_days.entries = 0`,
    ],
  ],
  ['auth_log_days_update', 'after update of at, area, type on auth_log for each row', [...SUBTRACT_OLD, ADD_NEW]],
];

async function createPostgresTriggers(knex: Knex): Promise<void> {
  for (const [name, when, statements] of POSTGRES_TRIGGERS) {
    await knex.raw(`create function ${name}() returns trigger language plpgsql as $$\nbegin\n  ${statements.join(';\n  ')};\n  return null;\nend\n$$`);
    await knex.raw(`create trigger ${name} ${when} execute function ${name}()`);
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('auth_log_days', (table) => {
    table.integer('day').notNullable();
    table.string('area', 32).notNullable();
    table.string('type', 64).notNullable();
    table.integer('entries').notNullable();
    table.primary(['day', 'area', 'type']);
    // A filter on a type or a prefix (its area) over all days or a range of them.
    table.index(['type', 'day'], 'auth_log_days_type_day');
    table.index(['area', 'day'], 'auth_log_days_area_day');
  });
  // The triggers first: creating them locks out writes to auth_log until the migration commits,
  // so the fill below counts every entry exactly once.
  if (dialectOf(knex) === 'postgres') await createPostgresTriggers(knex);
  else {
    for (const [name, when, statements] of SQLITE_TRIGGERS) {
      await knex.raw(`create trigger ${name} ${when} on auth_log begin\n  ${statements.join(';\n  ')};\nend`);
    }
  }
  await knex.raw(`insert into auth_log_days (day, area, type, entries) select ${DAY}, area, type, count(*) from auth_log group by ${DAY}, area, type`);
}

export async function down(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'postgres') {
    for (const [name] of POSTGRES_TRIGGERS) {
      await knex.raw(`drop trigger if exists ${name} on auth_log`);
      await knex.raw(`drop function if exists ${name}()`);
    }
  } else {
    for (const [name] of SQLITE_TRIGGERS) await knex.raw(`drop trigger if exists ${name}`);
  }
  await knex.schema.dropTableIfExists('auth_log_days');
}
