/**
 * Brute-force regulation (docs/security.md): at most LOGIN_FAILURES_PER_EMAIL password checks for
 * one email, and LOGIN_FAILURES_PER_ADDRESS from one address, are *started* per window. An attempt
 * is reserved before the password is hashed, by one atomic upsert of a counter row per subject
 * (the row lock serializes concurrent attempts on every instance sharing the database); a success
 * releases its reservation. Past a limit the answer is 429 at once; the failure that reaches the
 * limit bans the subject for the ban time.
 */
import { ApiError } from '@tools-portal/core';
import type { Knex } from 'knex';

export interface BruteForcePolicy {
  loginFailuresPerEmail: number;
  loginFailuresPerAddress: number;
  loginWindowMinutes: number;
  loginBanMinutes: number;
}

/** A device is a browser with a device cookie (services/login-devices.ts); it has the email's limit. */
type Kind = 'email' | 'address' | 'device';

/** One subject whose attempts are counted: an email or an address. */
export interface Subject {
  kind: Kind;
  subject: string;
}

/** A reserved attempt: the count it took and the window it was counted in, per subject. */
export interface Reservation {
  slots: (Subject & { attempts: number; windowStart: number })[];
}

const MINUTE_MS = 60 * 1000;
/** Retry-After when every slot is held by checks under way. */
const BUSY_RETRY_SECONDS = 5;

export const emailSubject = (email: string): Subject => ({ kind: 'email', subject: email.slice(0, 254) });
export const addressSubject = (ip: string): Subject => ({ kind: 'address', subject: ip.slice(0, 254) });
export const deviceSubject = (hash: string): Subject => ({ kind: 'device', subject: hash });

const limitOf = (policy: BruteForcePolicy, kind: Kind) => (kind === 'address' ? policy.loginFailuresPerAddress : policy.loginFailuresPerEmail);

/** Seconds left on the longest ban of these subjects; 0 when none is banned. */
export async function banRemaining(db: Knex, subjects: Subject[]): Promise<number> {
  if (subjects.length === 0) return 0;
  const now = Date.now();
  const bans: { until: number }[] = await db('login_bans')
    .where((query) => {
      for (const { kind, subject } of subjects) query.orWhere({ kind, subject });
    })
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

class OverLimit extends Error {
  constructor(readonly over: Subject) {
    super('over the limit');
  }
}

/**
 * Reserves one password check for every subject, all or none (one transaction, subjects in a fixed
 * order so that concurrent reservations cannot deadlock). Past a subject's limit it throws
 * too_many_requests; nothing stays reserved then.
 */
export async function reserveAttempt(db: Knex, policy: BruteForcePolicy, subjects: Subject[]): Promise<Reservation> {
  const now = Date.now();
  const expired = now - policy.loginWindowMinutes * MINUTE_MS;
  try {
    return await db.transaction(async (trx) => {
      const slots: Reservation['slots'] = [];
      for (const { kind, subject } of subjects) {
        // A window that has run out starts again at 1; the SET expressions all read the old row.
        const [row] = (await trx('login_attempts')
          .insert({ kind, subject, window_start: now, attempts: 1 })
          .onConflict(['kind', 'subject'])
          .merge({
            attempts: trx.raw('CASE WHEN login_attempts.window_start <= ? THEN 1 ELSE login_attempts.attempts + 1 END', [expired]),
            window_start: trx.raw('CASE WHEN login_attempts.window_start <= ? THEN ? ELSE login_attempts.window_start END', [expired, now]),
          })
          .returning(['attempts', 'window_start'])) as { attempts: number; window_start: number }[];
        const attempts = Number(row.attempts);
        if (attempts > limitOf(policy, kind)) throw new OverLimit({ kind, subject });
        slots.push({ kind, subject, attempts, windowStart: Number(row.window_start) });
      }
      return { slots };
    });
  } catch (error) {
    if (!(error instanceof OverLimit)) throw error;
    // Refused without a check. No ban here: the slots may be held by checks still under way that
    // will succeed (many people signing in at once behind one address); failures ban in
    // recordFailure. Until a slot frees, the caller is told to come back shortly.
    const banned = await banRemaining(db, [error.over]);
    throw tooManyAttempts(banned > 0 ? banned : BUSY_RETRY_SECONDS);
  }
}

/** Refuses at once (429) while a subject is banned, else reserves one check like `reserveAttempt`. */
export async function admitAttempt(db: Knex, policy: BruteForcePolicy, subjects: Subject[]): Promise<Reservation> {
  const banned = await banRemaining(db, subjects);
  if (banned > 0) throw tooManyAttempts(banned);
  return reserveAttempt(db, policy, subjects);
}

/**
 * A check that failed keeps its reservation; the one that reached a limit starts a ban. Answers
 * the subjects it banned (an email's ban earns its owner a notice).
 */
export async function recordFailure(db: Knex, policy: BruteForcePolicy, reservation: Reservation): Promise<Subject[]> {
  const full = reservation.slots.filter((slot) => slot.attempts >= limitOf(policy, slot.kind));
  if (full.length > 0) await ban(db, policy, full);
  await sweepAttempts(db, policy);
  return full.map(({ kind, subject }) => ({ kind, subject }));
}

/** A check that succeeded, or never ran, gives its reservation back. */
export async function releaseAttempt(db: Knex, reservation: Reservation): Promise<void> {
  for (const { kind, subject, windowStart } of reservation.slots) {
    await db('login_attempts').where({ kind, subject, window_start: windowStart }).andWhere('attempts', '>', 0).decrement('attempts', 1);
  }
}

async function ban(db: Knex, policy: BruteForcePolicy, subjects: Subject[]): Promise<void> {
  const until = Date.now() + policy.loginBanMinutes * MINUTE_MS;
  for (const { kind, subject } of subjects) {
    await db('login_bans').insert({ kind, subject, until }).onConflict(['kind', 'subject']).merge();
  }
}

/** Forgets counters whose window has run out (called now and then; the upsert ignores them anyway). */
async function sweepAttempts(db: Knex, policy: BruteForcePolicy): Promise<void> {
  const now = Date.now();
  await db('login_attempts').where('window_start', '<=', now - policy.loginWindowMinutes * MINUTE_MS).delete();
  await db('login_bans').where('until', '<=', now).delete();
}
