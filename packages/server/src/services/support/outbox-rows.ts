/**
 * What every outbox shares (the mail outbox, services/mail/outbox.ts; webhook deliveries,
 * services/webhooks/deliveries.ts): rows written in the transaction of their cause, claimed by the
 * senders of every instance one at a time with a compare-and-set on the row's attempt count, so
 * that of several instances exactly one makes each attempt; a claim is a lease, so that the rows
 * of a sender that crashed are claimed again once it runs out; failed attempts back off.
 *
 * An outbox table has `id`, `status` (`queued`, `sending`, then its own final ones), `attempts`,
 * `next_attempt_at` and `lease_until`.
 */
import type { Knex } from 'knex';

export const HOUR_MS = 60 * 60 * 1000;
/** Backoff never waits longer than this between two attempts. */
const MAX_RETRY_DELAY_MS = HOUR_MS;

export interface ClaimOptions {
  table: string;
  limit: number;
  /** How long a claimed row is its sender's; past it another may claim it. */
  leaseMs: number;
  now: number;
  /** Narrows the due rows (webhooks: only those of enabled hooks). */
  scope?: (query: Knex.QueryBuilder) => Knex.QueryBuilder;
}

/**
 * Claims up to `limit` due rows for one attempt each: queued rows whose time has come, and rows
 * whose sender's lease ran out. Answers the rows this caller won, as they are after the claim.
 */
export async function claimDue<Row>(db: Knex, { table, limit, leaseMs, now, scope = (query) => query }: ClaimOptions): Promise<Row[]> {
  const candidates: { id: number; attempts: number; status: string }[] = await scope(
    db(table).where((query) =>
      query
        .where((queued) => queued.where('status', 'queued').andWhere('next_attempt_at', '<=', now))
        .orWhere((stale) => stale.where('status', 'sending').andWhere('lease_until', '<=', now)),
    ),
  )
    .orderBy('id')
    .limit(limit)
    .select('id', 'attempts', 'status');
  const claimed: Row[] = [];
  for (const candidate of candidates) {
    // The row's attempt count is its version: an UPDATE that finds it changed (another sender
    // won) changes nothing. PostgreSQL re-checks the condition on the row it waited for.
    const won = await db(table)
      .where({ id: candidate.id, attempts: candidate.attempts, status: candidate.status })
      .andWhere(candidate.status === 'queued' ? 'next_attempt_at' : 'lease_until', '<=', now)
      .update({ status: 'sending', attempts: Number(candidate.attempts) + 1, lease_until: now + leaseMs });
    if (won === 1) claimed.push(await db(table).where({ id: candidate.id }).first());
  }
  return claimed;
}

/** The wait before the attempt after `attempts` failed ones: base, 2×, 4×, … at most an hour. */
export function retryDelayMs(retrySeconds: number, attempts: number): number {
  return Math.min(retrySeconds * 1000 * 2 ** Math.min(Math.max(attempts - 1, 0), 20), MAX_RETRY_DELAY_MS);
}

/** The condition of an UPDATE that records the outcome of the attempt a sender claimed: still its own. */
export const stillClaimed = (row: { id: number; attempts: number }) => ({ id: row.id, attempts: row.attempts, status: 'sending' });
