/**
 * Counters of actions an anonymous caller may repeat only so often (Google sign-in starts and
 * passkey sign-in options per address): the regulator's counters (services/sign-in/regulator.ts), one row
 * per kind and subject bumped by one atomic upsert, so that concurrent requests on every instance
 * sharing the database count alike. A window that has run out starts again.
 */
import type { Knex } from 'knex';
import { count, sweep } from '../sign-in/regulator.js';

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
export async function hitRateLimit(db: Knex, rate: RateLimit, { subject, now = Date.now() }: { subject: string; now?: number }): Promise<Hit> {
  const hit = await count(db, { kind: rate.kind, subject: subject.slice(0, 254), windowMs: rate.windowMs }, now);
  // Forgets counters of this kind whose window has run out (on each new window).
  if (hit.count === 1) await sweep(db, [rate]);
  return { allowed: hit.count <= rate.limit, windowStart: hit.windowStart };
}
