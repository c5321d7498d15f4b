/**
 * Counters of actions an anonymous caller may repeat only so often (Google sign-in starts per
 * address): one row per kind and subject, bumped by one atomic upsert, so that concurrent requests
 * on every instance sharing the database count alike. A window that has run out starts again.
 */
import type { Knex } from 'knex';

export interface RateLimit {
  /** What is counted, e.g. `google-start`. */
  kind: string;
  /** Most hits per window. */
  limit: number;
  windowMs: number;
}

export interface Hit {
  allowed: boolean;
  /** When the window of this hit started: one window, one group of log rows. */
  windowStart: number;
}

/** Counts one hit for `subject`; past the limit it is not allowed (and still counted). */
export async function hitRateLimit(db: Knex, rate: RateLimit, subject: string, now = Date.now()): Promise<Hit> {
  const expired = now - rate.windowMs;
  const [row] = (await db('rate_limits')
    .insert({ kind: rate.kind, subject: subject.slice(0, 254), window_start: now, hits: 1 })
    .onConflict(['kind', 'subject'])
    .merge({
      // Every SET expression reads the old row: a window that has run out starts again at 1.
      hits: db.raw('CASE WHEN rate_limits.window_start <= ? THEN 1 ELSE rate_limits.hits + 1 END', [expired]),
      window_start: db.raw('CASE WHEN rate_limits.window_start <= ? THEN ? ELSE rate_limits.window_start END', [expired, now]),
    })
    .returning(['hits', 'window_start'])) as { hits: number; window_start: number }[];
  if (Number(row.hits) === 1) await sweepRateLimits(db, rate, now);
  return { allowed: Number(row.hits) <= rate.limit, windowStart: Number(row.window_start) };
}

/** Forgets counters of this kind whose window has run out (on each new window). */
async function sweepRateLimits(db: Knex, rate: RateLimit, now: number): Promise<void> {
  await db('rate_limits').where({ kind: rate.kind }).andWhere('window_start', '<=', now - rate.windowMs).delete();
}
