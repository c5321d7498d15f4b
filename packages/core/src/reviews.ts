/**
 * Access reviews (docs/reviews.md): what an admin or an app's owner sends to start one, what a
 * reviewer decides, and what the API answers. An item is one grant as it was when the review
 * started: a user's direct grant or a team's grant of one app.
 */
import { z } from 'zod';
import { id, isoTime, MAX_NAME_LENGTH, MAX_TEXT_LENGTH } from './validation.js';

/** Within this many days of `due`, the reviewers get a reminder (none when less remained at the start). */
export const REVIEW_REMINDER_DAYS = 3;

export const reviewDecisions = ['keep', 'remove'] as const;
export type ReviewDecision = (typeof reviewDecisions)[number];
export const reviewReviewers = ['owners', 'admins'] as const;
export const reviewWhenMissed = ['keep', 'revoke'] as const;

const reviewName = z
  .string({ error: 'must be a string' })
  .transform((value) => value.trim())
  .pipe(
    z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(MAX_NAME_LENGTH, { error: `must be at most ${MAX_NAME_LENGTH} characters` }),
  );

const comment = z.string({ error: 'must be a string' }).max(MAX_TEXT_LENGTH, { error: `must be at most ${MAX_TEXT_LENGTH} characters` });

/** `POST /review`: the apps (ids, or "all": every app, for an owner every app they own), who decides, when it is due, what a missed item becomes. */
export const reviewInput = z.strictObject({
  name: reviewName,
  apps: z.union([z.literal('all'), z.array(id, { error: 'must be a list of app ids or "all"' }).min(1, { error: 'must name at least one app' }).max(1000)], {
    error: 'must be a list of app ids or "all"',
  }),
  reviewers: z.enum(reviewReviewers, { error: 'must be owners or admins' }),
  due: isoTime,
  whenMissed: z.enum(reviewWhenMissed, { error: 'must be keep or revoke' }),
});
export type ReviewInput = z.input<typeof reviewInput>;
/** A start request as the server has checked it: `due` in ms. */
export type CheckedReviewInput = z.output<typeof reviewInput>;

const decisionFields = {
  decision: z.enum(reviewDecisions, { error: 'must be keep or remove' }),
  comment: comment.optional(),
  applyNow: z.boolean({ error: 'must be true or false' }).optional(),
};
/** `POST /review/{id}/item/{itemid}`: keep or remove; `applyNow` revokes a removed grant at once instead of at the close. */
export const reviewDecisionInput = z.strictObject(decisionFields);
export type ReviewDecisionInput = z.input<typeof reviewDecisionInput>;
/** `POST /review/{id}/decide`: the same decision for several items, all or none. */
export const reviewBulkDecisionInput = z.strictObject({
  items: z.array(id, { error: 'must be a list of item ids' }).min(1, { error: 'must name at least one item' }).max(10_000),
  ...decisionFields,
});
export type ReviewBulkDecisionInput = z.input<typeof reviewBulkDecisionInput>;

const timestamp = z.string().describe('ISO 8601 timestamp');
const named = z.strictObject({ id: z.number().int(), name: z.string() });

export const reviewProgressAnswer = z.strictObject({
  items: z.number().int(),
  decided: z.number().int(),
  keep: z.number().int(),
  remove: z.number().int(),
});

export const reviewAnswer = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  apps: z.array(named).describe('the apps under review'),
  reviewers: z.enum(reviewReviewers),
  due: timestamp,
  whenMissed: z.enum(reviewWhenMissed),
  status: z.enum(['open', 'closed']),
  startedBy: z.string().describe('the email of whoever started it'),
  started: timestamp,
  closed: timestamp.optional(),
  closedBy: z.string().optional().describe('the email of whoever closed it, or "review" when it closed itself at due'),
  progress: reviewProgressAnswer,
  waiting: z.number().int().describe('undecided items the caller may decide'),
});
export type Review = z.infer<typeof reviewAnswer>;

export const reviewItemOutcomes = ['kept', 'removed', 'already_gone'] as const;

export const reviewItemAnswer = z.strictObject({
  id: z.number().int(),
  review: z.number().int(),
  app: named,
  kind: z.enum(['user', 'team']),
  user: z.strictObject({ id: z.number().int(), email: z.string(), name: z.string() }).optional(),
  team: named.optional(),
  source: z.string().describe('"direct", or the name of the team the grant is to'),
  role: z.string().nullable(),
  expires: timestamp.optional(),
  granted: timestamp.optional().describe('when the grant was made (unknown for grants older than reviews)'),
  grantedBy: z.string().optional(),
  lastUsed: timestamp.optional().describe('the last use of the app by the user (for a team: by any member)'),
  decision: z.enum(reviewDecisions).optional(),
  decidedBy: z.string().optional(),
  decided: timestamp.optional(),
  comment: z.string(),
  outcome: z.enum(reviewItemOutcomes).optional().describe('what became of the grant: kept, removed, or already gone when the removal came'),
  applied: timestamp.optional(),
});
export type ReviewItem = z.infer<typeof reviewItemAnswer>;

/** `GET /review/{id}/item` filters. */
export interface ReviewItemFilter {
  decided?: boolean;
  app?: number;
  unusedDays?: number;
}
