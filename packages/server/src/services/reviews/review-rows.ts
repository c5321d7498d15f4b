/** The rows of access reviews and how they are presented (docs/reviews.md). */
import { type Review, type ReviewItem } from '@tools-portal/core';
import type { Knex } from 'knex';
import type { EventSubject } from '../log/audit.js';
import { usersQuery, type UserRow } from '../users/users.js';

export interface ReviewRow {
  id: number;
  name: string;
  reviewers: 'owners' | 'admins';
  when_missed: 'keep' | 'revoke';
  due_at: number | string;
  remind_at: number | string | null;
  started_by_id: number | null;
  started_by: string;
  started_at: number | string;
  closed_at: number | string | null;
  closed_by: string | null;
}

export interface ItemRow {
  id: number;
  review_id: number;
  app_id: number;
  app_name: string;
  kind: 'user' | 'team';
  user_id: number | null;
  team_id: number | null;
  grantee: string;
  grantee_name: string;
  role: string | null;
  expires_at: number | string | null;
  granted_at: number | string | null;
  granted_by: string | null;
  decision: 'keep' | 'remove' | null;
  decided_by: string | null;
  decided_at: number | string | null;
  comment: string;
  outcome: 'kept' | 'removed' | 'already_gone' | null;
  applied_at: number | string | null;
  /** Read with the item (itemsQuery), not stored on it. */
  last_used_at?: number | string | null;
}

const iso = (value: number | string | null | undefined) => (value === null || value === undefined ? undefined : new Date(Number(value)).toISOString());
const optional = <K extends string, V>(key: K, value: V | null | undefined) =>
  value === null || value === undefined ? {} : ({ [key]: value } as Record<K, V>);

/** The name the event log and the mails give a review. */
export const reviewLabel = (review: Pick<ReviewRow, 'id' | 'name'>) => `access review ${review.name} (#${review.id})`;

/** Who the grant of an item is to, for the event log. */
export const granteeLabel = (item: Pick<ItemRow, 'kind' | 'grantee'>) => (item.kind === 'team' ? `team ${item.grantee}` : item.grantee);

/**
 * What an item's entry in the event log is about (docs/event-log.md): a user's grant, the user and
 * their client (none once the user is deleted); a team's grant has no subject of its own.
 */
export async function granteeSubject(db: Knex, item: Pick<ItemRow, 'kind' | 'user_id' | 'grantee'>): Promise<{ subject?: EventSubject }> {
  if (item.kind !== 'user') return {};
  const user: UserRow | undefined = item.user_id === null ? undefined : await usersQuery(db).where('users.id', item.user_id).first();
  return { subject: { user: item.grantee, client: user?.client_name ?? '' } };
}

export interface Progress {
  items: number;
  decided: number;
  keep: number;
  remove: number;
}

export function presentReview(
  row: ReviewRow,
  { apps, progress, waiting }: { apps: { id: number; name: string }[]; progress: Progress; waiting: number },
): Review {
  return {
    id: Number(row.id),
    name: row.name,
    apps,
    reviewers: row.reviewers,
    due: iso(row.due_at)!,
    whenMissed: row.when_missed,
    status: row.closed_at === null ? 'open' : 'closed',
    startedBy: row.started_by,
    started: iso(row.started_at)!,
    ...optional('closed', iso(row.closed_at)),
    ...optional('closedBy', row.closed_by),
    progress,
    waiting,
  };
}

export function presentItem(row: ItemRow): ReviewItem {
  return {
    id: Number(row.id),
    review: Number(row.review_id),
    app: { id: Number(row.app_id), name: row.app_name },
    kind: row.kind,
    ...(row.kind === 'user'
      ? { user: { id: Number(row.user_id), email: row.grantee, name: row.grantee_name } }
      : { team: { id: Number(row.team_id), name: row.grantee } }),
    source: row.kind === 'user' ? 'direct' : row.grantee,
    role: row.role,
    ...optional('expires', iso(row.expires_at)),
    ...optional('granted', iso(row.granted_at)),
    ...optional('grantedBy', row.granted_by),
    ...optional('lastUsed', iso(row.last_used_at)),
    ...optional('decision', row.decision),
    ...optional('decidedBy', row.decided_by),
    ...optional('decided', iso(row.decided_at)),
    comment: row.comment,
    ...optional('outcome', row.outcome),
    ...optional('applied', iso(row.applied_at)),
  };
}

/**
 * A review's items with their last use now: the user's of the app, or for a team grant the
 * latest of its members'.
 */
export function itemsQuery(db: Knex, reviewId: number): Knex.QueryBuilder {
  const userUse = db('app_last_use')
    .where('app_last_use.user_id', db.ref('review_items.user_id'))
    .where('app_last_use.app_id', db.ref('review_items.app_id'))
    .max('used_at');
  const teamUse = db('app_last_use')
    .join('team_members', 'team_members.user_id', 'app_last_use.user_id')
    .where('team_members.team_id', db.ref('review_items.team_id'))
    .where('app_last_use.app_id', db.ref('review_items.app_id'))
    .max('app_last_use.used_at');
  return db('review_items')
    .where('review_items.review_id', reviewId)
    .select('review_items.*', db.raw(`CASE WHEN review_items.kind = 'user' THEN ? ELSE ? END as last_used_at`, [userUse, teamUse]));
}
