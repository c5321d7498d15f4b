/**
 * Limits on requests that cost something to others (a mail sent on someone's behalf): fixed
 * windows answering 429 (one counter row per subject, taken by one atomic upsert), and sliding
 * ones that refuse silently (`takeSlot`); every instance sharing the database counts together and
 * concurrent requests cannot all slip past.
 */
import { ApiError } from '@tools-portal/core';
import type { Knex } from 'knex';

export interface RequestLimit {
  /** What is counted, e.g. `reset-email:ann@example.com`. */
  subject: string;
  limit: number;
}

class OverLimit extends Error {
  constructor(readonly retryAfter: number) {
    super('over the limit');
  }
}

/** Counts one request for every subject, all or none; past a limit it answers 429 with Retry-After. */
export async function takeRequest(db: Knex, limits: RequestLimit[], windowMs: number, now = Date.now()): Promise<void> {
  const expired = now - windowMs;
  try {
    await db.transaction(async (trx) => {
      for (const { subject, limit } of [...limits].sort((a, b) => a.subject.localeCompare(b.subject))) {
        const [row] = (await trx('request_limits')
          .insert({ subject: subject.slice(0, 320), window_start: now, count: 1 })
          .onConflict('subject')
          .merge({
            count: trx.raw('CASE WHEN request_limits.window_start <= ? THEN 1 ELSE request_limits.count + 1 END', [expired]),
            window_start: trx.raw('CASE WHEN request_limits.window_start <= ? THEN ? ELSE request_limits.window_start END', [expired, now]),
          })
          .returning(['count', 'window_start'])) as { count: number; window_start: number }[];
        if (Number(row.count) > limit) throw new OverLimit(Math.max(1, Math.ceil((Number(row.window_start) + windowMs - now) / 1000)));
      }
    });
  } catch (error) {
    if (!(error instanceof OverLimit)) throw error;
    throw new ApiError('too_many_requests', `too many requests; try again in ${Math.ceil(error.retryAfter / 60)} minutes`, {
      retryAfter: error.retryAfter,
    });
  }
  // Now and then, forget windows that ran out long ago.
  if (Math.random() < 0.01) await db('request_limits').where('window_start', '<=', expired).delete();
}

/**
 * A sliding limit that refuses silently: at most `limit` of `subject` in any `windowMs`. The
 * subject has `limit` slot rows; a request takes the first slot last taken at least `windowMs`
 * ago, by one conditional update each, so two requests never take one slot, on any instance.
 * Answers whether a slot was taken. Slots taken at t and t' of one subject are thus at least
 * `windowMs` apart, and any window holds at most `limit` of them.
 */
export async function takeSlot(db: Knex, subject: string, limit: number, windowMs: number, now = Date.now()): Promise<boolean> {
  const slots = Array.from({ length: limit }, (_, index) => `${subject.slice(0, 310)}#${index}`);
  await db('request_limits')
    .insert(slots.map((slot) => ({ subject: slot, window_start: 0, count: 0 })))
    .onConflict('subject')
    .ignore();
  for (const slot of slots) {
    const taken = await db('request_limits').where({ subject: slot }).andWhere('window_start', '<=', now - windowMs).update({ window_start: now, count: 1 });
    if (taken === 1) return true;
  }
  return false;
}
