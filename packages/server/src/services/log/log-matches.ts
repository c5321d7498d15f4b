/**
 * The rows of the event log a filter matches (docs/event-log.md), with the same expressions as
 * the indexes of migration 20261123-350, so that they are used.
 */
import { eventArea, type CheckedLogFilter } from '@tools-portal/core';
import type { Knex } from 'knex';

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * Rows of a table with `type` and `area` columns (the log, or its day summary) of one type, or
 * of a prefix ending in `.`.
 */
export function whereType(query: Knex.QueryBuilder, type: string): Knex.QueryBuilder {
  if (!type.endsWith('.')) return query.where('type', type);
  const prefix = type.slice(0, -1);
  query.where('area', eventArea(prefix));
  // A deeper prefix (`a.b.`): the types from `a.b.` up to `a.b/` ('/' follows '.').
  if (prefix.includes('.')) query.where('type', '>=', type).where('type', '<', `${prefix}/`);
  return query;
}

export function filteredLog(db: Knex, filter: CheckedLogFilter): Knex.QueryBuilder {
  const query = db('auth_log');
  if (filter.user) query.whereRaw('lower("user") = lower(cast(? as text))', [filter.user]);
  if (filter.client) query.whereRaw('lower(client) = lower(cast(? as text))', [filter.client]);
  if (filter.actor) query.whereRaw('lower(actor) = lower(cast(? as text))', [filter.actor]);
  if (filter.type) whereType(query, filter.type);
  if (filter.q) query.whereRaw("lower(event) like lower(cast(? as text)) escape '\\'", [`%${escapeLike(filter.q)}%`]);
  if (filter.fromMs !== undefined) query.where('at', '>=', filter.fromMs);
  if (filter.toMs !== undefined) query.where('at', '<', filter.toMs);
  return query;
}
