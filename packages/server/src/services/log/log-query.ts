/**
 * Reading the event log with filters (docs/event-log.md): a page, a count, and every entry in
 * keyset batches for the export. Each filter is answered by an index ending in `at`
 * (migration 20261123-350), so a filtered page is read newest first straight from it.
 */
import type { CheckedLogFilter, LogEntry } from '@tools-portal/core';
import type { Knex } from 'knex';
import { LITERAL, readAll, readFirst, readRemembered } from '../../db/direct-reads.js';
import { LOG_COLUMNS, toLogEntry, type LogRow } from './audit.js';
import { countableByDay, dayCountQuery } from './log-day-counts.js';
import { filteredLog } from './log-matches.js';

const NEWEST_FIRST = [
  { column: 'at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/**
 * A page of the matching entries, newest first; pages count from 1. Remembered until the database
 * changes (db/direct-reads.ts): `toolsctl logs --follow` asks for the same page every 2 seconds,
 * so between two commits each follower's poll is answered from memory. Shared: never changed.
 */
export function listEvents(db: Knex, filter: CheckedLogFilter, { page, perPage }: LogPage): Promise<readonly LogEntry[]> {
  // Every field of the filter, in one order: a field added to the filter is part of the key.
  const fields = Object.entries(filter).sort(([a], [b]) => (a < b ? -1 : 1));
  const key = JSON.stringify([page, perPage, fields]);
  return readRemembered(db, `log page ${key}`, { make: () => readPage(db, filter, { page, perPage }), rowsIn: (entries) => entries.length });
}

/** A page of the log: its number (from 1) and size. */
interface LogPage {
  page: number;
  perPage: number;
}

async function readPage(db: Knex, filter: CheckedLogFilter, { page, perPage }: LogPage): Promise<readonly LogEntry[]> {
  const rows = await readAll<LogRow>(
    db,
    filteredLog(db, filter)
      .select(LOG_COLUMNS)
      .orderBy([...NEWEST_FIRST])
      .limit(perPage, LITERAL)
      .offset((page - 1) * perPage, LITERAL),
  );
  return Object.freeze(rows.map(toLogEntry));
}

/**
 * How many entries match. An exact count on type and times adds up the log's day summary
 * (./log-day-counts.ts); other filters walk every matching index entry (about 20 ms for 400,000
 * on SQLite). With `max`, counting stops there: it walks at most `max` entries.
 */
export async function countEvents(db: Knex, filter: CheckedLogFilter, max?: number): Promise<number> {
  const query =
    max === undefined ? exactCount(db, filter) : db.from(filteredLog(db, filter).select(db.raw('1')).limit(max, LITERAL).as('matches')).count({ total: '*' });
  const row = await readFirst<{ total: number | string }>(db, query);
  return Number(row?.total ?? 0);
}

const exactCount = (db: Knex, filter: CheckedLogFilter): Knex.QueryBuilder =>
  (countableByDay(filter) && dayCountQuery(db, filter)) || filteredLog(db, filter).count({ total: '*' });

/** Where a batch ended: the last entry's time and id. */
export interface LogPosition {
  at: number;
  id: number;
}

/**
 * The next `size` matching entries, newest first, after `after` (by keyset: the last entry's `at`
 * and id, never an offset), and the position to go on from; `next` is undefined at the end.
 */
export async function eventBatch(
  db: Knex,
  filter: CheckedLogFilter,
  { after, size }: { after: LogPosition | undefined; size: number },
): Promise<{ entries: LogEntry[]; next: LogPosition | undefined }> {
  const query = filteredLog(db, filter)
    .select(LOG_COLUMNS)
    .orderBy([...NEWEST_FIRST])
    .limit(size, LITERAL);
  // (at, id) < (after.at, after.id), written so that both databases range-scan the index on at.
  if (after) query.where('at', '<=', after.at).whereRaw('(at < ? or id < ?)', [after.at, after.id]);
  const rows = await readAll<LogRow>(db, query);
  const last = rows[rows.length - 1];
  return { entries: rows.map(toLogEntry), next: rows.length === size ? { at: Number(last.at), id: Number(last.id) } : undefined };
}
