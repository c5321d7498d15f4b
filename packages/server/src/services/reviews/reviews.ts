/**
 * Access reviews (docs/reviews.md): an admin, or an owner for apps they own, starts one; every
 * current grant of its apps (to users and to teams) becomes an item, as it is at the start.
 * Admins see every review; an owner the reviews with items of apps they own and those they started.
 */
import { ApiError, forbidden, invalidInput, notFound, REVIEW_REMINDER_DAYS, type CurrentUser, type CheckedReviewInput, type Review } from '@tools-portal/core';
import type { Knex } from 'knex';
import { isLive } from '../access/app-access.js';
import { ownedAppIds } from '../apps/app-owners.js';
import { logEvent } from '../log/audit.js';
import type { MailPolicy } from '../mail/outbox.js';
import { withDb, type ServiceContext } from '../support/context.js';
import { mailReviewStart } from './review-mail.js';
import { presentReview, reviewLabel, type Progress, type ReviewRow } from './review-rows.js';

export type ReviewContext = ServiceContext<MailPolicy> & { actor: CurrentUser };

const DAY_MS = 24 * 60 * 60 * 1000;
const INSERT_CHUNK = 200;

/** What a caller may see and decide: every app for admins (undefined), else the apps they own. */
export interface ReviewerScope {
  owned: ReadonlySet<number> | undefined;
}

/** Admins and owners of at least one app only (403 before anything else is read). */
export async function reviewerScope(ctx: ReviewContext): Promise<ReviewerScope> {
  if (ctx.actor.admin) return { owned: undefined };
  const owned = new Set(await ownedAppIds(ctx.db, ctx.actor.id, ctx.now()));
  if (owned.size === 0) throw forbidden('admins and app owners only');
  return { owned };
}

/** Whether the caller may decide items of this app in this review. */
export const mayDecide = (scope: ReviewerScope, review: Pick<ReviewRow, 'reviewers'>, appId: number) =>
  scope.owned === undefined || (review.reviewers === 'owners' && scope.owned.has(appId));

export async function startReview(ctx: ReviewContext, input: CheckedReviewInput): Promise<Review> {
  const scope = await reviewerScope(ctx);
  const now = ctx.now();
  if (input.due <= now) throw invalidInput('due', 'must be in the future');
  const appIds = await appsToReview(ctx.db, scope, input.apps);
  const review = await ctx.db.transaction(async (trx) => {
    const apps: { id: number; name: string }[] = await trx('apps').whereIn('id', appIds).orderBy('name').select('id', 'name');
    const missing = appIds.find((appId) => !apps.some((app) => Number(app.id) === appId));
    if (missing !== undefined) throw invalidInput('apps', `no app with id ${missing}`);
    const [inserted] = await trx('reviews')
      .insert({
        name: input.name,
        reviewers: input.reviewers,
        when_missed: input.whenMissed,
        due_at: input.due,
        remind_at: input.due - now >= REVIEW_REMINDER_DAYS * DAY_MS ? input.due - REVIEW_REMINDER_DAYS * DAY_MS : null,
        started_by_id: ctx.actor.id,
        started_by: ctx.actor.email,
        started_at: now,
      })
      .returning('id');
    const id = Number(typeof inserted === 'object' ? inserted.id : inserted);
    await trx('review_apps').insert(apps.map((app) => ({ review_id: id, app_id: app.id, app_name: app.name })));
    const items = await snapshotGrants(trx, { reviewId: id, apps, now });
    const row: ReviewRow = await trx('reviews').where({ id }).first();
    await logEvent(trx, ctx, {
      type: 'review.start',
      event: `started ${reviewLabel(row)} of ${apps.map((app) => app.name).join(', ')}: ${items} items, due ${new Date(input.due).toISOString()}, decided by ${input.reviewers}, when missed ${input.whenMissed}`,
    });
    await mailReviewStart(withDb(ctx, trx), { review: row, apps });
    return row;
  });
  return getReview(ctx, Number(review.id));
}

async function appsToReview(db: Knex, scope: ReviewerScope, apps: number[] | 'all'): Promise<number[]> {
  if (apps === 'all') {
    const ids = scope.owned === undefined ? ((await db('apps').pluck('id')) as number[]).map(Number) : [...scope.owned];
    if (ids.length === 0) throw invalidInput('apps', 'there are no apps to review');
    return ids;
  }
  const ids = [...new Set(apps)];
  const notOwned = scope.owned === undefined ? undefined : ids.find((appId) => !scope.owned!.has(appId));
  if (notOwned !== undefined) throw new ApiError('forbidden', `you may start a review only of apps you own (not app ${notOwned})`);
  return ids;
}

/** Every live grant of the apps, to users and to teams, as items: answers how many. */
async function snapshotGrants(trx: Knex, { reviewId, apps, now }: { reviewId: number; apps: { id: number; name: string }[]; now: number }): Promise<number> {
  const names = new Map(apps.map((app) => [Number(app.id), app.name]));
  const appIds = [...names.keys()];
  const users: {
    user_id: number;
    app_id: number;
    email: string;
    name: string;
    role: string | null;
    expires_at: unknown;
    granted_at: unknown;
    granted_by: string | null;
  }[] = await isLive(trx('user_apps').join('users', 'users.id', 'user_apps.user_id').whereIn('user_apps.app_id', appIds), 'user_apps.expires_at', now)
    .orderBy(['user_apps.app_id', 'users.email'])
    .select(
      'user_apps.user_id',
      'user_apps.app_id',
      'users.email',
      'users.name',
      'user_apps.role',
      'user_apps.expires_at',
      'user_apps.granted_at',
      'user_apps.granted_by',
    );
  const teams: { team_id: number; app_id: number; name: string; role: string | null; expires_at: unknown; granted_at: unknown; granted_by: string | null }[] =
    await isLive(trx('team_apps').join('teams', 'teams.id', 'team_apps.team_id').whereIn('team_apps.app_id', appIds), 'team_apps.expires_at', now)
      .orderBy(['team_apps.app_id', 'teams.name'])
      .select('team_apps.team_id', 'team_apps.app_id', 'teams.name', 'team_apps.role', 'team_apps.expires_at', 'team_apps.granted_at', 'team_apps.granted_by');
  const common = (row: { app_id: number; role: string | null; expires_at: unknown; granted_at: unknown; granted_by: string | null }) => ({
    review_id: reviewId,
    app_id: row.app_id,
    app_name: names.get(Number(row.app_id))!,
    role: row.role,
    expires_at: row.expires_at ?? null,
    granted_at: row.granted_at ?? null,
    granted_by: row.granted_by ?? null,
    comment: '',
  });
  const rows = [
    ...users.map((row) => ({ ...common(row), kind: 'user', user_id: row.user_id, team_id: null, grantee: row.email, grantee_name: row.name })),
    ...teams.map((row) => ({ ...common(row), kind: 'team', user_id: null, team_id: row.team_id, grantee: row.name, grantee_name: '' })),
  ];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) await trx('review_items').insert(rows.slice(start, start + INSERT_CHUNK));
  return rows.length;
}

/** The reviews the caller may see, open ones first (by due), then closed ones (newest first). */
export async function listReviews(ctx: ReviewContext): Promise<Review[]> {
  const scope = await reviewerScope(ctx);
  const query = ctx.db('reviews').select('reviews.*');
  if (scope.owned !== undefined) {
    const owned = [...scope.owned];
    query.where((where) =>
      where
        .where('reviews.started_by_id', ctx.actor.id)
        .orWhere((owners) =>
          owners.where('reviews.reviewers', 'owners').whereIn('reviews.id', ctx.db('review_apps').whereIn('app_id', owned).select('review_id')),
        ),
    );
  }
  const rows: ReviewRow[] = await query.orderBy('reviews.id', 'desc');
  const open = rows.filter((row) => row.closed_at === null).sort((a, b) => Number(a.due_at) - Number(b.due_at));
  const closed = rows.filter((row) => row.closed_at !== null);
  return presentAll(ctx.db, scope, [...open, ...closed]);
}

/** One review the caller may see (404 for one that does not exist, 403 for another's). */
export async function reviewRow(ctx: ReviewContext, { scope, id }: { scope: ReviewerScope; id: number }): Promise<ReviewRow> {
  const { db } = ctx;
  const row: ReviewRow | undefined = await db('reviews').where({ id }).first();
  if (!row) throw notFound('review', id);
  if (scope.owned !== undefined && Number(row.started_by_id) !== ctx.actor.id) {
    const apps = ((await db('review_apps').where('review_id', id).pluck('app_id')) as number[]).map(Number);
    if (row.reviewers !== 'owners' || !apps.some((appId) => scope.owned!.has(appId))) throw forbidden('this review has no items of apps you own');
  }
  return row;
}

export async function getReview(ctx: ReviewContext, id: number): Promise<Review> {
  const scope = await reviewerScope(ctx);
  const [review] = await presentAll(ctx.db, scope, [await reviewRow(ctx, { scope, id })]);
  return review;
}

async function presentAll(db: Knex, scope: ReviewerScope, rows: ReviewRow[]): Promise<Review[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => Number(row.id));
  const [apps, counts] = (await Promise.all([
    db('review_apps').whereIn('review_id', ids).orderBy('app_name').select('review_id', 'app_id', 'app_name'),
    db('review_items').whereIn('review_id', ids).groupBy('review_id', 'app_id', 'decision').select('review_id', 'app_id', 'decision').count({ count: '*' }),
  ])) as [{ review_id: number; app_id: number; app_name: string }[], { review_id: number; app_id: number; decision: string | null; count: number | string }[]];
  return rows.map((row) => {
    const id = Number(row.id);
    const progress: Progress = { items: 0, decided: 0, keep: 0, remove: 0 };
    let waiting = 0;
    for (const count of counts.filter((entry) => Number(entry.review_id) === id)) {
      const n = Number(count.count);
      progress.items += n;
      if (count.decision === 'keep' || count.decision === 'remove') {
        progress.decided += n;
        progress[count.decision] += n;
      } else if (row.closed_at === null && mayDecide(scope, row, Number(count.app_id))) waiting += n;
    }
    const reviewApps = apps.filter((app) => Number(app.review_id) === id).map((app) => ({ id: Number(app.app_id), name: app.app_name }));
    return presentReview(row, { apps: reviewApps, progress, waiting });
  });
}
