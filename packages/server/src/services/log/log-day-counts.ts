/**
 * Exact counts of the event log from its entries per UTC day and type, `auth_log_days`
 * (migration 20261123-600, kept by triggers; docs/event-log.md): a count on type and times adds
 * up a few summary rows per day instead of walking every matching entry.
 */
import type { CheckedLogFilter } from '@tools-portal/core';
import type { Knex } from 'knex';
import { filteredLog, whereType } from './log-matches.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether the summary can answer: it knows days and types, not users, clients, actors or text. */
export const countableByDay = (filter: CheckedLogFilter): boolean => !filter.user && !filter.client && !filter.actor && !filter.q;

/**
 * The count of a filter on type and times, as one query answering `total`: the whole days inside
 * [from, to) summed from the summary, the part of a day at either end counted from the log (at
 * most a day of entries each, read from the index on the type or the time). Undefined when the
 * range holds no whole day: the plain count reads at most two days of entries then.
 */
export function dayCountQuery(db: Knex, filter: CheckedLogFilter): Knex.QueryBuilder | undefined {
  const { type, fromMs, toMs } = filter;
  const firstDay = fromMs === undefined ? undefined : Math.ceil(fromMs / DAY_MS);
  const endDay = toMs === undefined ? undefined : Math.floor(toMs / DAY_MS);
  if (firstDay !== undefined && endDay !== undefined && firstDay >= endDay) return undefined;

  const days = db('auth_log_days').select(db.raw('coalesce(sum(entries), 0)'));
  if (type) whereType(days, type);
  if (firstDay !== undefined) days.where('day', '>=', firstDay);
  if (endDay !== undefined) days.where('day', '<', endDay);
  const parts = [days];
  const entries = (from: number, to: number) => filteredLog(db, { type, fromMs: from, toMs: to }).count('*');
  if (fromMs !== undefined && fromMs < firstDay! * DAY_MS) parts.push(entries(fromMs, firstDay! * DAY_MS));
  if (toMs !== undefined && endDay! * DAY_MS < toMs) parts.push(entries(endDay! * DAY_MS, toMs));
  return db.select(db.raw(`${parts.map(() => '?').join(' + ')} as total`, parts));
}
