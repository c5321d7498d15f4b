/**
 * The mails of access reviews (docs/reviews.md), when mail is configured: each reviewer at the
 * start and three days before due, whoever started it at the close. Queued in the caller's
 * transaction, each in its recipient's language.
 */
import type { Language } from '@tools-portal/core';
import type { Knex } from 'knex';
import { reviewClosed, reviewReminder, reviewStarted } from '../../mail/templates.js';
import { enqueueMail, type MailContext } from '../mail/outbox.js';
import { adminRecipients, ownerRecipients, wordsForUser, wordsIn } from '../mail/recipients.js';
import type { ReviewRow } from './review-rows.js';

interface Reviewer {
  email: string;
  language: Language | null;
  /** The apps of the review this reviewer decides (every app for admins). */
  appIds: number[] | 'all';
}

const reviewLink = (publicUrl: string, reviewId: number) => `${publicUrl}/auth/#/reviews/${reviewId}`;

/** Who decides a review's items: the admins, or each app's owners (directly or through an unexpired team membership). */
async function reviewersOf(db: Knex, review: Pick<ReviewRow, 'reviewers'>, { appIds, now }: { appIds: number[]; now: number }): Promise<Reviewer[]> {
  if (review.reviewers === 'admins') return (await adminRecipients(db)).map((admin) => ({ ...admin, appIds: 'all' }));
  const byEmail = new Map<string, Reviewer & { appIds: number[] }>();
  for (const row of await ownerRecipients(db, { appIds, now })) {
    const reviewer = byEmail.get(row.email) ?? { email: row.email, language: row.language, appIds: [] };
    if (!reviewer.appIds.includes(row.appId)) reviewer.appIds.push(row.appId);
    byEmail.set(row.email, reviewer);
  }
  return [...byEmail.values()].sort((a, b) => (a.email < b.email ? -1 : 1));
}

interface ItemCount {
  app_id: number;
  count: number;
}

const countFor = (reviewer: Reviewer, counts: ItemCount[]) =>
  counts.filter((row) => reviewer.appIds === 'all' || reviewer.appIds.includes(Number(row.app_id))).reduce((sum, row) => sum + Number(row.count), 0);

/** At the start: each reviewer, about the items they decide. */
export async function mailReviewStart(ctx: MailContext, { review, apps }: { review: ReviewRow; apps: { id: number; name: string }[] }): Promise<void> {
  if (!ctx.policy.mail) return;
  const counts = await itemCounts(ctx.db, review.id, false);
  for (const reviewer of await reviewersOf(ctx.db, review, { appIds: apps.map((app) => app.id), now: ctx.now() })) {
    const count = countFor(reviewer, counts);
    if (count === 0) continue;
    const theirs = apps.filter((app) => reviewer.appIds === 'all' || reviewer.appIds.includes(app.id)).map((app) => app.name);
    const mail = reviewStarted(wordsIn(ctx.policy, reviewer.language), {
      name: review.name,
      apps: theirs,
      count,
      due: Number(review.due_at),
      whenMissed: review.when_missed,
      link: reviewLink(ctx.policy.publicUrl, review.id),
    });
    await enqueueMail(ctx, { kind: 'review-start', to: reviewer.email, ...mail });
  }
}

/** Three days before due: each reviewer who still has undecided items. */
export async function mailReviewReminder(ctx: MailContext, review: ReviewRow): Promise<void> {
  if (!ctx.policy.mail) return;
  const counts = await itemCounts(ctx.db, review.id, true);
  const appIds = counts.map((row) => Number(row.app_id));
  for (const reviewer of await reviewersOf(ctx.db, review, { appIds, now: ctx.now() })) {
    const count = countFor(reviewer, counts);
    if (count === 0) continue;
    const mail = reviewReminder(wordsIn(ctx.policy, reviewer.language), {
      name: review.name,
      count,
      due: Number(review.due_at),
      link: reviewLink(ctx.policy.publicUrl, review.id),
    });
    await enqueueMail(ctx, { kind: 'review-reminder', to: reviewer.email, ...mail });
  }
}

/** At the close: whoever started it (when still a user), with the outcome. */
export async function mailReviewClosed(
  ctx: MailContext,
  { review, kept, removed, missed }: { review: ReviewRow; kept: number; removed: number; missed: number },
): Promise<void> {
  if (!ctx.policy.mail || review.started_by_id === null) return;
  const starter: { email: string } | undefined = await ctx.db('users').where('id', review.started_by_id).first('email');
  if (!starter) return;
  const mail = reviewClosed(await wordsForUser(ctx, starter.email), {
    name: review.name,
    kept,
    removed,
    missed,
    link: reviewLink(ctx.policy.publicUrl, review.id),
  });
  await enqueueMail(ctx, { kind: 'review-closed', to: starter.email, ...mail });
}

async function itemCounts(db: Knex, reviewId: number, undecidedOnly: boolean): Promise<ItemCount[]> {
  const query = db('review_items').where('review_id', reviewId).groupBy('app_id').select('app_id').count({ count: '*' });
  if (undecidedOnly) query.whereNull('decision');
  return (await query) as ItemCount[];
}
