/**
 * A review's items (docs/reviews.md): listed with filters, and decided one by one or in bulk.
 * Admins decide any item; owners, in a review decided by owners, the items of apps they own.
 * A decision may change until the review closes, except one already applied (`applyNow`).
 */
import { conflict, forbidden, notFound, type ReviewDecision, type ReviewItem, type ReviewItemFilter } from '@tools-portal/core';
import { logEvent } from '../log/audit.js';
import { withDb } from '../support/context.js';
import { applyRemoval } from './review-close.js';
import { granteeLabel, granteeSubject, itemsQuery, presentItem, reviewLabel, type ItemRow } from './review-rows.js';
import { mayDecide, reviewerScope, reviewRow, type ReviewContext } from './reviews.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function listItems(ctx: ReviewContext, { reviewId, filter }: { reviewId: number; filter: ReviewItemFilter }): Promise<ReviewItem[]> {
  const scope = await reviewerScope(ctx);
  await reviewRow(ctx, { scope, id: reviewId });
  const query = ctx.db.queryBuilder().from(itemsQuery(ctx.db, reviewId).as('items')).select('*');
  if (scope.owned !== undefined) query.whereIn('app_id', [...scope.owned]);
  if (filter.app !== undefined) query.where('app_id', filter.app);
  if (filter.decided !== undefined) {
    if (filter.decided) query.whereNotNull('decision');
    else query.whereNull('decision');
  }
  if (filter.unusedDays !== undefined) {
    const since = ctx.now() - filter.unusedDays * DAY_MS;
    query.where((where) => where.whereNull('last_used_at').orWhere('last_used_at', '<', since));
  }
  const rows: ItemRow[] = await query.orderBy(['app_name', 'kind', 'grantee', 'id']);
  return rows.map(presentItem);
}

export interface DecisionInput {
  reviewId: number;
  itemIds: number[];
  decision: ReviewDecision;
  comment?: string;
  applyNow?: boolean;
}

/** Decides items, all or none: 403 naming an item the caller may not decide, 409 once closed or applied. */
export async function decideItems(ctx: ReviewContext, input: DecisionInput): Promise<ReviewItem[]> {
  const scope = await reviewerScope(ctx);
  const ids = [...new Set(input.itemIds)];
  const decided = await ctx.db.transaction(async (trx) => {
    const review = await reviewRow(withDb(ctx, trx), { scope, id: input.reviewId });
    if (review.closed_at !== null) throw conflict(`${reviewLabel(review)} is closed`);
    const items: ItemRow[] = await trx('review_items').where('review_id', review.id).whereIn('id', ids);
    const missing = ids.find((id) => !items.some((item) => Number(item.id) === id));
    if (missing !== undefined) throw notFound('review item', missing);
    for (const item of items) {
      if (!mayDecide(scope, review, Number(item.app_id))) throw forbidden(`you may not decide item ${item.id}: app ${item.app_name} is not yours to review`);
      if (item.applied_at !== null) throw conflict(`item ${item.id} was applied already (${item.outcome})`);
    }
    const now = ctx.now();
    const comment = input.comment ?? '';
    const done = await trx('review_items')
      .where('review_id', review.id)
      .whereIn('id', ids)
      .whereNull('applied_at')
      .update({ decision: input.decision, decided_by: ctx.actor.email, decided_at: now, comment });
    if (done !== ids.length) throw conflict('an item was applied meanwhile; try again');
    for (const item of items) {
      await logEvent(trx, ctx, {
        type: 'review.decide',
        event: `${input.decision} ${granteeLabel(item)} on app ${item.app_name} in ${reviewLabel(review)}${comment ? `: ${comment}` : ''}`,
        ...(await granteeSubject(trx, item)),
      });
      if (input.decision === 'remove' && input.applyNow) await applyRemoval(withDb(ctx, trx), { review, item: { ...item, decided_by: ctx.actor.email }, now });
    }
    return items.map((item) => Number(item.id));
  });
  const rows: ItemRow[] = await ctx.db.queryBuilder().from(itemsQuery(ctx.db, input.reviewId).as('items')).whereIn('id', decided).orderBy('id').select('*');
  return rows.map(presentItem);
}
