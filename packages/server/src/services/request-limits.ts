/**
 * Fixed-window limits on requests that cost something to others (a mail sent on someone's
 * behalf): one counter row per subject, taken by one atomic upsert, so that every instance
 * sharing the database counts together and concurrent requests cannot all slip past.
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
