/**
 * Brute-force regulation (DESIGN.md): after too many failed logins for one email, or from one
 * address, within the window, further attempts are refused for the ban time. The counters live
 * in the database so that every instance sees them.
 */
import { ApiError } from '@tools-portal/core';
import type { Knex } from 'knex';

export interface BruteForcePolicy {
  loginFailuresPerEmail: number;
  loginFailuresPerAddress: number;
  loginWindowMinutes: number;
  loginBanMinutes: number;
}

type Kind = 'email' | 'address';

const MINUTE_MS = 60 * 1000;

/** Seconds left on a ban of this email or address; 0 when neither is banned. */
export async function banRemaining(db: Knex, email: string, ip: string): Promise<number> {
  const now = Date.now();
  const bans: { until: number }[] = await db('login_bans')
    .where((query) => query.where({ kind: 'email', subject: email }).orWhere({ kind: 'address', subject: ip }))
    .andWhere('until', '>', now)
    .select('until');
  if (bans.length === 0) return 0;
  return Math.ceil((Math.max(...bans.map((ban) => Number(ban.until))) - now) / 1000);
}

export function tooManyAttempts(retryAfter: number): ApiError {
  return new ApiError('too_many_requests', `too many failed logins; try again in ${Math.ceil(retryAfter / 60)} minutes`, {
    retryAfter,
  });
}

/** Counts a failed login; a failure that reaches a limit starts a ban. */
export async function recordFailure(db: Knex, policy: BruteForcePolicy, email: string, ip: string): Promise<void> {
  const now = Date.now();
  const since = now - policy.loginWindowMinutes * MINUTE_MS;
  const subjects: [Kind, string, number][] = [
    ['email', email.slice(0, 254), policy.loginFailuresPerEmail],
    ['address', ip.slice(0, 254), policy.loginFailuresPerAddress],
  ];
  await db.transaction(async (trx) => {
    await trx('login_failures').where('at', '<', since).delete();
    for (const [kind, subject, limit] of subjects) {
      await trx('login_failures').insert({ kind, subject, at: now });
      const { count } = (await trx('login_failures')
        .where({ kind, subject })
        .andWhere('at', '>=', since)
        .count({ count: '*' })
        .first()) as { count: number };
      if (Number(count) >= limit) {
        await trx('login_bans')
          .insert({ kind, subject, until: now + policy.loginBanMinutes * MINUTE_MS })
          .onConflict(['kind', 'subject'])
          .merge();
      }
    }
  });
}

/** A successful login forgets the email's failures (the address keeps its count). */
export async function clearFailures(db: Knex, email: string): Promise<void> {
  await db('login_failures').where({ kind: 'email', subject: email }).delete();
}
