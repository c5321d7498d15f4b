/**
 * A review's evidence (docs/reviews.md): every item with its grant, decision, decider, time,
 * comment and outcome, as CSV (formula-safe, like the event log's export) or JSON Lines.
 */
import type { ReviewItem } from '@tools-portal/core';
import { csvCell } from '../log/log-export.js';
import { itemsQuery, presentItem, type ItemRow } from './review-rows.js';
import { reviewerScope, reviewRow, type ReviewContext } from './reviews.js';

const COLUMNS = [
  'review',
  'item',
  'app',
  'kind',
  'grantee',
  'role',
  'expires',
  'granted',
  'grantedBy',
  'lastUsed',
  'decision',
  'decidedBy',
  'decided',
  'comment',
  'outcome',
  'applied',
] as const;

type Line = Record<(typeof COLUMNS)[number], string | number>;

function lineOf(reviewName: string, item: ReviewItem): Line {
  return {
    review: reviewName,
    item: item.id,
    app: item.app.name,
    kind: item.kind,
    grantee: item.user?.email ?? item.team?.name ?? '',
    role: item.role ?? '',
    expires: item.expires ?? '',
    granted: item.granted ?? '',
    grantedBy: item.grantedBy ?? '',
    lastUsed: item.lastUsed ?? '',
    decision: item.decision ?? '',
    decidedBy: item.decidedBy ?? '',
    decided: item.decided ?? '',
    comment: item.comment,
    outcome: item.outcome ?? '',
    applied: item.applied ?? '',
  };
}

/** The export's text (a review's items fit in memory: they were inserted in one transaction). */
export async function exportReview(
  ctx: ReviewContext,
  { reviewId, format }: { reviewId: number; format: 'csv' | 'jsonl' },
): Promise<{ name: string; text: string }> {
  const scope = await reviewerScope(ctx);
  const review = await reviewRow(ctx, { scope, id: reviewId });
  const query = ctx.db.queryBuilder().from(itemsQuery(ctx.db, reviewId).as('items')).select('*').orderBy(['app_name', 'kind', 'grantee', 'id']);
  if (scope.owned !== undefined) query.whereIn('app_id', [...scope.owned]);
  const lines = ((await query) as ItemRow[]).map((row) => lineOf(review.name, presentItem(row)));
  const text =
    format === 'csv'
      ? [`${COLUMNS.join(',')}\r\n`, ...lines.map((line) => `${COLUMNS.map((column) => csvCell(line[column])).join(',')}\r\n`)].join('')
      : lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  return { name: review.name, text };
}
