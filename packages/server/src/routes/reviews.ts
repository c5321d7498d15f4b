import { z, reviewAnswer, reviewBulkDecisionInput, reviewDecisionInput, reviewInput, reviewItemAnswer, pathId } from '@tools-portal/core';
import { decideItems, listItems } from '../services/reviews/review-items.js';
import { closeByHand } from '../services/reviews/review-close.js';
import { exportReview } from '../services/reviews/review-export.js';
import { getReview, listReviews, startReview } from '../services/reviews/reviews.js';
import { actorContext, route, type RouteSpec } from './route.js';

const itemQuery = z.strictObject({
  decided: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().describe('true: decided items only; false: undecided only'),
  app: pathId.optional().describe("one app's items"),
  unusedDays: z
    .string()
    .regex(/^[0-9]{1,5}$/, { error: 'must be a whole number of days (0 to 99999)' })
    .transform(Number)
    .optional()
    .describe('items never used, or last used more than this many days ago'),
});

const exportQuery = z.strictObject({ format: z.enum(['csv', 'jsonl'], { error: 'must be csv or jsonl' }).optional().describe('csv (the default) or jsonl') });

const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8; header=present', jsonl: 'application/x-ndjson; charset=utf-8' } as const;

export const reviewRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/review',
    response: { schema: z.array(reviewAnswer) },
    access: 'owner',
    summary: "Access reviews: every one for admins; for an app's owners those with items of their apps and those they started",
    async handler(_input, ctx, deps) {
      return listReviews(actorContext(ctx, deps));
    },
  }),
  route({
    method: 'POST',
    path: '/review',
    body: reviewInput,
    response: { status: 201, schema: reviewAnswer },
    access: 'owner',
    summary:
      'Start an access review: {name, apps: [id] | "all", reviewers: "owners" | "admins", due, whenMissed: "keep" | "revoke"}; every current grant of the apps becomes an item; admins, or owners for apps they own',
    async handler({ body }, ctx, deps) {
      return startReview(actorContext(ctx, deps), body);
    },
  }),
  route({
    method: 'GET',
    path: '/review/:id',
    response: { schema: reviewAnswer },
    access: 'owner',
    summary: 'One access review with its progress',
    async handler({ params }, ctx, deps) {
      return getReview(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/review/:id/item',
    query: itemQuery,
    response: { schema: z.array(reviewItemAnswer) },
    access: 'owner',
    summary: "A review's items (an owner: those of apps they own), filtered by ?decided=true|false, ?app=ID, ?unusedDays=N (never used or not in N days)",
    async handler({ params, query }, ctx, deps) {
      const filter = {
        ...(query.decided === undefined ? {} : { decided: query.decided === 'true' }),
        ...(query.app === undefined ? {} : { app: query.app }),
        ...(query.unusedDays === undefined ? {} : { unusedDays: query.unusedDays }),
      };
      return listItems(actorContext(ctx, deps), { reviewId: params.id, filter });
    },
  }),
  route({
    method: 'POST',
    path: '/review/:id/item/:itemid',
    body: reviewDecisionInput,
    response: { schema: reviewItemAnswer },
    access: 'owner',
    summary: 'Decide an item: {decision: "keep" | "remove", comment?, applyNow?} (applyNow: remove the grant at once rather than at the close)',
    async handler({ params, body }, ctx, deps) {
      const [item] = await decideItems(actorContext(ctx, deps), { reviewId: params.id, itemIds: [params.itemid], ...body });
      return item;
    },
  }),
  route({
    method: 'POST',
    path: '/review/:id/decide',
    body: reviewBulkDecisionInput,
    response: { schema: z.array(reviewItemAnswer) },
    access: 'owner',
    summary: 'Decide several items alike, all or none: {items: [id], decision, comment?, applyNow?}',
    async handler({ params, body: { items, ...decision } }, ctx, deps) {
      return decideItems(actorContext(ctx, deps), { reviewId: params.id, itemIds: items, ...decision });
    },
  }),
  route({
    method: 'POST',
    path: '/review/:id/close',
    response: { schema: reviewAnswer },
    access: 'owner',
    summary: 'Close a review now: removals take effect, undecided items follow whenMissed; 409 when closed already; admins, or whoever started it',
    async handler({ params }, ctx, deps) {
      const service = actorContext(ctx, deps);
      await closeByHand(service, params.id);
      return getReview(service, params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/review/:id/export',
    query: exportQuery,
    response: { content: ['text/csv', 'application/x-ndjson'], description: "the review's items with their decisions" },
    access: 'owner',
    summary:
      'Evidence of a review: every item with decision, decider, time, comment and outcome, as CSV (?format=csv, the default) or JSON Lines (?format=jsonl)',
    async handler({ params, query }, ctx, deps) {
      const format = query.format ?? 'csv';
      const { text } = await exportReview(actorContext(ctx, deps), { reviewId: params.id, format });
      ctx.set('content-disposition', `attachment; filename="review-${params.id}.${format}"`);
      ctx.set('cache-control', 'no-store');
      ctx.type = EXPORT_TYPES[format];
      return text;
    },
  }),
];
