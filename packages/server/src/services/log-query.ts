/**
 * Reading the event log with filters (docs/event-log.md): a page, a count, and every entry in
 * keyset batches for the export. Each filter is answered by an index ending in `at`
 * (migration 20261123-350), so a filtered page is read newest first straight from it.
 */
import { eventArea, type CheckedLogFilter, type LogEntry } from '@tools-portal/core';
import type { Knex } from 'knex';
import { readAll, readFirst } from '../db/direct-reads.js';
import { LOG_COLUMNS, toLogEntry, type LogRow } from './audit.js';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/** The rows of the log a filter matches; the same expressions as the indexes, so they are used. */
export function filteredLog(db: Knex, filter: CheckedLogFilter): Knex.QueryBuilder {
  const query = db('auth_log');
  if (filter.user) query.whereRaw('lower("user") = lower(cast(? as text))', [filter.user]);
  if (filter.client) query.whereRaw('lower(client) = lower(cast(? as text))', [filter.client]);
  if (filter.actor) query.whereRaw('lower(actor) = lower(cast(? as text))', [filter.actor]);
  if (filter.type) {
    if (!filter.type.endsWith('.')) query.where('type', filter.type);
    else {
      const prefix = filter.type.slice(0, -1);
      query.where('area', eventArea(prefix));
      // A deeper prefix (`a.b.`): the types from `a.b.` up to `a.b/` ('/' follows '.').
      if (prefix.includes('.')) query.where('type', '>=', filter.type).where('type', '<', `${prefix}/`);
    }
  }
  if (filter.q) query.whereRaw("lower(event) like lower(cast(? as text)) escape '\\'", [`%${escapeLike(filter.q)}%`]);
  if (filter.fromMs !== undefined) query.where('at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) query.where('at', '<', filter.toMs);
  return query;
}

const NEWEST_FIRST = [
  { column: 'at', order: 'desc' },
  { column: 'id', order: 'desc' },
] as const;

/** A page of the matching entries, newest first; pages count from 1. */
export async function listEvents(db: Knex, filter: CheckedLogFilter, page: number, perPage: number): Promise<LogEntry[]> {
  const rows = await readAll<LogRow>(
    db,
    filteredLog(db, filter)
      .select(LOG_COLUMNS)
      .orderBy([...NEWEST_FIRST])
      .limit(perPage)
      .offset((page - 1) * perPage),
  );
  return rows.map(toLogEntry);
}

/**
 * How many entries match; with `max`, counting stops there: an exact count walks every matching
 * index entry (about 20 ms for 400,000 on SQLite), a capped one at most `max` of them.
 */
export async function countEvents(db: Knex, filter: CheckedLogFilter, max?: number): Promise<number> {
  const matches: Knex.QueryBuilder = max === undefined ? filteredLog(db, filter) : db.from(filteredLog(db, filter).select(db.raw('1')).limit(max).as('matches'));
  const row = await readFirst<{ total: number | string }>(db, matches.count({ total: '*' }));
  return Number(row?.total ?? 0);
}

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
  after: LogPosition | undefined,
  size: number,
): Promise<{ entries: LogEntry[]; next: LogPosition | undefined }> {
  const query = filteredLog(db, filter).select(LOG_COLUMNS).orderBy([...NEWEST_FIRST]).limit(size);
  // (at, id) < (after.at, after.id), written so that both databases range-scan the index on at.
  if (after) query.where('at', '<=', after.at).whereRaw('(at < ? or id < ?)', [after.at, after.id]);
  const rows = await readAll<LogRow>(db, query);
  const last = rows[rows.length - 1];
  return { entries: rows.map(toLogEntry), next: rows.length === size ? { at: Number(last.at), id: Number(last.id) } : undefined };
}
