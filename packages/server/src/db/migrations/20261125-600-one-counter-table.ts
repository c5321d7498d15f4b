import type { Knex } from 'knex';
import { dialectOf } from '../connection.js';

/**
 * One counter table (services/sign-in/regulator.ts): the rate limits of anonymous traffic (`rate_limits`:
 * Google sign-in starts and passkey sign-in options per address) and the password-reset limits
 * (`request_limits`: requests per address, mail slots per email) become rows of `login_attempts`,
 * with the kind in its own column (`reset-address`, `reset-email`, `google-start`,
 * `passkey-challenge`). The live counts move with them, both ways.
 */
const RATE_KINDS = ['google-start', 'passkey-challenge'];
const REQUEST_KINDS = ['reset-address', 'reset-email'];

interface CounterRow {
  kind: string;
  subject: string;
  window_start: number | string;
  attempts: number;
}

async function insertCounters(knex: Knex, rows: CounterRow[]): Promise<void> {
  for (const row of rows) await knex('login_attempts').insert(row).onConflict(['kind', 'subject']).ignore();
}

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'postgres') {
    // SQLite does not enforce a string's length.
    await knex.raw('ALTER TABLE login_attempts ALTER COLUMN kind TYPE varchar(32), ALTER COLUMN subject TYPE varchar(320)');
  }
  const rates: { kind: string; subject: string; window_start: number | string; hits: number }[] = await knex('rate_limits').select('*');
  await insertCounters(
    knex,
    rates.map(({ kind, subject, window_start, hits }) => ({ kind, subject, window_start, attempts: hits })),
  );
  // `reset-address:IP` and `reset-email:EMAIL#N` (services/sign-in/password-reset.ts).
  const requests: { subject: string; window_start: number | string; count: number }[] = await knex('request_limits').select('*');
  const counters = requests.flatMap(({ subject, window_start, count }) => {
    const colon = subject.indexOf(':');
    const kind = subject.slice(0, colon);
    return colon > 0 && REQUEST_KINDS.includes(kind) ? [{ kind, subject: subject.slice(colon + 1), window_start, attempts: count }] : [];
  });
  await insertCounters(knex, counters);
  await knex.schema.dropTable('rate_limits');
  await knex.schema.dropTable('request_limits');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limits', (table) => {
    table.string('kind', 32).notNullable();
    table.string('subject', 254).notNullable();
    table.bigInteger('window_start').notNullable();
    table.integer('hits').notNullable();
    table.primary(['kind', 'subject']);
    table.index('window_start');
  });
  await knex.schema.createTable('request_limits', (table) => {
    table.string('subject', 320).primary();
    table.bigInteger('window_start').notNullable();
    table.integer('count').notNullable();
  });
  const rates: CounterRow[] = await knex('login_attempts').whereIn('kind', RATE_KINDS).select('*');
  for (const { kind, subject, window_start, attempts } of rates) {
    await knex('rate_limits')
      .insert({ kind, subject: subject.slice(0, 254), window_start, hits: attempts })
      .onConflict(['kind', 'subject'])
      .ignore();
  }
  const requests: CounterRow[] = await knex('login_attempts').whereIn('kind', REQUEST_KINDS).select('*');
  for (const { kind, subject, window_start, attempts } of requests) {
    await knex('request_limits')
      .insert({ subject: `${kind}:${subject}`.slice(0, 320), window_start, count: attempts })
      .onConflict('subject')
      .ignore();
  }
  await knex('login_attempts')
    .whereIn('kind', [...RATE_KINDS, ...REQUEST_KINDS])
    .delete();
  if (dialectOf(knex) === 'postgres') {
    await knex.raw('ALTER TABLE login_attempts ALTER COLUMN kind TYPE varchar(16), ALTER COLUMN subject TYPE varchar(254)');
  }
}
