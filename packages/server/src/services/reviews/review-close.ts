/**
 * What a review does to grants (docs/reviews.md). A "remove" takes the grant away at the close (or
 * at once with `applyNow`); at the close undecided items follow `whenMissed`. An item is the grant
 * as it was at the start: a grant gone since (revoked, or revoked and granted anew: another grant)
 * makes the removal a logged no-op; a grant changed since (role, expiry) is removed as it now is.
 * Closing is one conditional UPDATE (`closed_at IS NULL`), so that of several instances closing a
 * due review at once exactly one does it. Removals the close does on its own (missed items, a due
 * review) are logged with the review as actor.
 */
import { conflict, forbidden, type CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import type { Logger } from '../../logger.js';
import { logEvent, type Audit } from '../log/audit.js';
import type { MailPolicy } from '../mail/outbox.js';
import { withDb, type ServiceContext } from '../support/context.js';
import { repeatEvery } from '../support/repeat.js';
import { mailReviewClosed, mailReviewReminder } from './review-mail.js';
import { granteeLabel, granteeSubject, reviewLabel, type ItemRow, type ReviewRow } from './review-rows.js';
import { reviewerScope, reviewRow, type ReviewContext } from './reviews.js';

type CloseContext = ServiceContext<MailPolicy>;

/** Mail is queued on the wall clock, whatever clock decided what is due (tests move theirs). */
const mailContext = (ctx: CloseContext, trx: Knex) => ({ ...withDb(ctx, trx), now: Date.now });

/** The review as the actor of what it does on its own. */
const asReview = (review: ReviewRow): Audit => ({ actor: null, actorName: reviewLabel(review), ip: '', userAgent: 'tools-portal' });

interface GrantNow {
  role: string | null;
  granted_at: number | string | null;
}

const sameGrant = (item: ItemRow, now: GrantNow) => (now.granted_at === null ? item.granted_at === null : Number(now.granted_at) === Number(item.granted_at));

/** Removes an item's grant as it now is (or notes that it is gone), logs it and records the outcome. */
export async function applyRemoval(
  ctx: Audit & { db: Knex },
  { review, item, now }: { review: ReviewRow; item: ItemRow; now: number },
): Promise<'removed' | 'already_gone'> {
  const trx = ctx.db;
  const grant =
    item.kind === 'user'
      ? trx('user_apps').where({ user_id: item.user_id, app_id: item.app_id })
      : trx('team_apps').where({ team_id: item.team_id, app_id: item.app_id });
  const current: GrantNow | undefined = await grant
    .clone()
    .where((where) => where.whereNull('expires_at').orWhere('expires_at', '>', now))
    .first('role', 'granted_at');
  const subject = await granteeSubject(trx, item);
  let outcome: 'removed' | 'already_gone' = 'already_gone';
  if (current && sameGrant(item, current)) {
    const deleted = await grant.clone().delete();
    if (deleted > 0) outcome = 'removed';
  }
  const role = current?.role ? ` (role ${current.role})` : '';
  await logEvent(trx, ctx, {
    type: outcome === 'removed' ? 'review.revoke' : 'review.noop',
    event:
      outcome === 'removed'
        ? `removed app ${item.app_name} from ${granteeLabel(item)}${role} by ${reviewLabel(review)}${item.decision ? `, decided by ${item.decided_by}` : ', left undecided'}`
        : `app ${item.app_name} of ${granteeLabel(item)} was no longer the grant under ${reviewLabel(review)} (revoked meanwhile): nothing removed`,
    ...subject,
  });
  await trx('review_items').where('id', item.id).update({ outcome, applied_at: now });
  return outcome;
}

/**
 * Closes an open review: by `by` (a person), or by itself at due (`by` null). Answers false when
 * it was closed already (by another call or instance).
 */
export async function closeReview(ctx: CloseContext, { reviewId, by }: { reviewId: number; by: CurrentUser | null }): Promise<boolean> {
  const now = ctx.now();
  return ctx.db.transaction(async (trx) => {
    // The write comes first: on SQLite a transaction that read before writing cannot wait for
    // another instance's write lock (SQLITE_BUSY at once); on PostgreSQL the row lock orders them.
    const taken = await trx('reviews')
      .where('id', reviewId)
      .whereNull('closed_at')
      .update({ closed_at: now, closed_by: by?.email ?? 'review', remind_at: null });
    if (taken === 0) return false;
    const review: ReviewRow = await trx('reviews').where('id', reviewId).first();
    const itself = asReview(review);
    const person: Audit = by ? { actor: by, ip: ctx.ip, userAgent: ctx.userAgent } : itself;
    const items: ItemRow[] = await trx('review_items').where('review_id', reviewId).whereNull('applied_at').orderBy('id');
    let kept = 0;
    let missed = 0;
    for (const item of items) {
      if (item.decision === null) missed++;
      const remove = item.decision === 'remove' || (item.decision === null && review.when_missed === 'revoke');
      if (remove) {
        const audit = item.decision === null ? itself : person;
        await applyRemoval({ db: trx, ...audit }, { review, item, now });
      } else {
        kept++;
        await trx('review_items').where('id', item.id).update({ outcome: 'kept', applied_at: now });
      }
    }
    const applied = (await trx('review_items').where({ review_id: reviewId, outcome: 'removed' }).count({ count: '*' }).first()) as { count: number | string };
    const removed = Number(applied.count);
    await logEvent(trx, person, {
      type: 'review.close',
      event: `closed ${reviewLabel(review)}${by ? '' : ' at its due date'}: ${kept} kept, ${removed} removed, ${missed} undecided (when missed: ${review.when_missed})`,
    });
    await mailReviewClosed(mailContext(ctx, trx), { review, kept, removed, missed });
    return true;
  });
}

/** `POST /review/{id}/close`: admins, or whoever started it; 409 when closed already. */
export async function closeByHand(ctx: ReviewContext, reviewId: number): Promise<void> {
  const scope = await reviewerScope(ctx);
  const review = await reviewRow(ctx, { scope, id: reviewId });
  if (scope.owned !== undefined && Number(review.started_by_id) !== ctx.actor.id) throw forbidden('admins, or whoever started the review, may close it');
  if (!(await closeReview(ctx, { reviewId, by: ctx.actor }))) throw conflict(`${reviewLabel(review)} is closed already`);
}

const SYSTEM = { ip: '', userAgent: 'tools-portal', actor: null };

/** Closes the reviews due at `now` and sends the reminders due; answers how many reviews it closed. */
export async function runReviewJob(db: Knex, { policy, now }: { policy: MailPolicy; now: number }): Promise<number> {
  const ctx: CloseContext = { db, policy, now: () => now, ...SYSTEM };
  const due: { id: number }[] = await db('reviews').whereNull('closed_at').where('due_at', '<=', now).orderBy('due_at').select('id');
  let closed = 0;
  for (const review of due) if (await closeReview(ctx, { reviewId: Number(review.id), by: null })) closed++;
  const reminders: ReviewRow[] = await db('reviews').whereNull('closed_at').whereNotNull('remind_at').where('remind_at', '<=', now).select('*');
  for (const review of reminders) {
    await db.transaction(async (trx) => {
      const taken = await trx('reviews').where('id', review.id).whereNotNull('remind_at').update({ remind_at: null });
      if (taken === 0) return;
      await logEvent(trx, asReview(review), {
        type: 'review.remind',
        event: `reminded the reviewers of ${reviewLabel(review)}, due ${new Date(Number(review.due_at)).toISOString()}`,
      });
      await mailReviewReminder(mailContext(ctx, trx), review);
    });
  }
  return closed;
}

/** Runs the job every `intervalMs` until stopped; `onClosed` after a run that closed a review (grants changed). */
export function startReviewJob(
  db: Knex,
  { policy, logger, intervalMs, onClosed }: { policy: MailPolicy; logger: Logger; intervalMs: number; onClosed: () => void },
): { stop(): Promise<void> } {
  return repeatEvery(intervalMs, {
    run: async () => {
      if ((await runReviewJob(db, { policy, now: Date.now() })) > 0) onClosed();
    },
    onError: (error) => logger.warn('could not close due access reviews', error),
  });
}
