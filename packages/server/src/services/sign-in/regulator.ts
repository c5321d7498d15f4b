/**
 * The regulator (docs/security.md): every limited attempt — a password, a second-factor code, a
 * passkey assertion, a password-reset request — is one `attempt(regulator, subjects, check)`:
 *
 * 1. admitted: a banned subject is refused at once; then one slot is reserved per subject by one
 *    atomic upsert of its counter row (all or none, in one transaction: the row lock serializes
 *    concurrent attempts on every instance sharing the database), before the check; past a
 *    subject's limit the attempt is refused (429) without a check, and its row is logged;
 * 2. checked;
 * 3. released (a success gives its slot back, when only failures count) or refused (a failure keeps
 *    its slot; the one that fills a counter bans its subject; the refusal is written in the same
 *    transaction).
 *
 * Every counter is a row of `login_attempts` (kind, subject, window start, count), and every ban a
 * row of `login_bans`; the rate limits of anonymous traffic (services/support/rate-limits.ts) and the
 * reset-mail slots (`takeSlot`) count in the same table.
 */
import { ApiError } from '@tools-portal/core';
import type { Knex } from 'knex';

/** One counter: what is counted, for whom, and how many per window. */
export interface Counter {
  /** `email`, `address`, `device` (sign-in), `reset-address`, `google-start`, … */
  kind: string;
  subject: string;
  /** Most attempts per window. */
  limit: number;
  windowMs: number;
}

/** How one family of attempts is regulated. */
export interface Regulation {
  /**
   * Only failures count (a success gives its slot back), or every attempt does. A failure that
   * fills a counter bans its subject for `banMs` when set.
   */
  counts: 'failures' | 'every';
  banMs?: number;
  /** The answer to an attempt refused before its check. */
  tooMany(retryAfter: number): ApiError;
  /** Writes the row of an attempt refused before its check (banned, or over a limit). */
  blocked?(): Promise<void>;
}

export interface Regulator extends Regulation {
  db: Knex;
}

/** What a check found: a value, or a refusal to write (in the transaction that counts it) and throw. */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: Error; refuse?: (trx: Knex, banned: Counter[]) => Promise<void> };

/** A reserved slot: the count it took and the window it was counted in. */
interface Slot extends Counter {
  count: number;
  windowStart: number;
}

/** Retry-After when every slot is held by checks under way (they may yet succeed and give it back). */
const BUSY_RETRY_SECONDS = 5;

/**
 * Admits, checks, then releases or refuses one attempt (see above). A check that throws gives its
 * slots back (when only failures count) and the error goes on.
 */
export async function attempt<T>(regulator: Regulator, subjects: Counter[], check: () => Promise<Checked<T>>): Promise<T> {
  const slots = await admit(regulator, subjects);
  // Where nothing fails, counters are forgotten as new windows start.
  const fresh = slots.filter((slot) => slot.count === 1);
  if (regulator.counts === 'every' && fresh.length > 0) await sweep(regulator.db, fresh);
  let checked: Checked<T>;
  try {
    checked = await check();
  } catch (error) {
    await release(regulator, slots);
    throw error;
  }
  if (checked.ok) {
    await release(regulator, slots);
    return checked.value;
  }
  const { error, refuse } = checked;
  await regulator.db.transaction(async (trx) => {
    const full = regulator.banMs === undefined ? [] : slots.filter((slot) => slot.count >= slot.limit);
    if (full.length > 0) await ban(trx, full, Date.now() + regulator.banMs!);
    if (refuse)
      await refuse(
        trx,
        full.map(({ kind, subject, limit, windowMs }) => ({ kind, subject, limit, windowMs })),
      );
  });
  await sweep(regulator.db, subjects);
  throw error;
}

/** Seconds left on the longest ban of these subjects; 0 when none is banned. */
export async function banRemaining(db: Knex, subjects: Pick<Counter, 'kind' | 'subject'>[]): Promise<number> {
  if (subjects.length === 0) return 0;
  const now = Date.now();
  const bans: { until: number }[] = await db('login_bans')
    .where((query) => {
      for (const { kind, subject } of subjects) query.orWhere({ kind, subject });
    })
    .andWhere('until', '>', now)
    .select('until');
  if (bans.length === 0) return 0;
  return Math.ceil((Math.max(...bans.map((row) => Number(row.until))) - now) / 1000);
}

/**
 * Counts one attempt of `counter` by one atomic upsert in `db` (a transaction or not): a window
 * that has run out starts again at 1. Answers the count and the window it was counted in.
 */
export async function count(
  db: Knex,
  counter: Pick<Counter, 'kind' | 'subject' | 'windowMs'>,
  now = Date.now(),
): Promise<{ count: number; windowStart: number }> {
  const expired = now - counter.windowMs;
  // Every SET expression reads the old row.
  const [row] = (await db('login_attempts')
    .insert({ kind: counter.kind, subject: counter.subject, window_start: now, attempts: 1 })
    .onConflict(['kind', 'subject'])
    .merge({
      attempts: db.raw('CASE WHEN login_attempts.window_start <= ? THEN 1 ELSE login_attempts.attempts + 1 END', [expired]),
      window_start: db.raw('CASE WHEN login_attempts.window_start <= ? THEN ? ELSE login_attempts.window_start END', [expired, now]),
    })
    .returning(['attempts', 'window_start'])) as { attempts: number; window_start: number }[];
  return { count: Number(row.attempts), windowStart: Number(row.window_start) };
}

class OverLimit extends Error {
  constructor(readonly over: Slot) {
    super('over the limit');
  }
}

/** Bans first, then one slot per subject, all or none, in the order given (callers keep one order: no deadlock). */
async function admit(regulator: Regulator, subjects: Counter[]): Promise<Slot[]> {
  const { db } = regulator;
  if (regulator.banMs !== undefined) {
    const banned = await banRemaining(db, subjects);
    if (banned > 0) await refuseAtOnce(regulator, banned);
  }
  const now = Date.now();
  try {
    return await db.transaction(async (trx) => {
      const slots: Slot[] = [];
      for (const subject of subjects) {
        const slot = { ...subject, ...(await count(trx, subject, now)) };
        if (slot.count > subject.limit) throw new OverLimit(slot);
        slots.push(slot);
      }
      return slots;
    });
  } catch (error) {
    if (!(error instanceof OverLimit)) throw error;
    const { over } = error;
    if (regulator.banMs === undefined) return refuseAtOnce(regulator, Math.max(1, Math.ceil((over.windowStart + over.windowMs - now) / 1000)));
    // No ban here: the slots may be held by checks still under way that will succeed (many people
    // signing in at once behind one address); failures ban. Until a slot frees, come back shortly.
    const banned = await banRemaining(db, [over]);
    return refuseAtOnce(regulator, banned > 0 ? banned : BUSY_RETRY_SECONDS);
  }
}

async function refuseAtOnce(regulator: Regulator, retryAfter: number): Promise<never> {
  if (regulator.blocked) await regulator.blocked();
  throw regulator.tooMany(retryAfter);
}

/** A success, or a check that never finished, gives its slots back (when only failures count). */
async function release(regulator: Regulator, slots: Slot[]): Promise<void> {
  if (regulator.counts !== 'failures') return;
  for (const { kind, subject, windowStart } of slots) {
    await regulator.db('login_attempts').where({ kind, subject, window_start: windowStart }).andWhere('attempts', '>', 0).decrement('attempts', 1);
  }
}

async function ban(db: Knex, subjects: Counter[], until: number): Promise<void> {
  for (const { kind, subject } of subjects) {
    await db('login_bans').insert({ kind, subject, until }).onConflict(['kind', 'subject']).merge();
  }
}

/** Forgets the counters and bans of these subjects (a password reset frees its email). */
export async function forget(db: Knex, subjects: Pick<Counter, 'kind' | 'subject'>[]): Promise<void> {
  for (const { kind, subject } of subjects) {
    await db('login_bans').where({ kind, subject }).delete();
    await db('login_attempts').where({ kind, subject }).delete();
  }
}

/** Forgets counters of these kinds whose window has run out, and bans that ended (after a failure; the upsert ignores them anyway). */
export async function sweep(db: Knex, counters: Pick<Counter, 'kind' | 'windowMs'>[]): Promise<void> {
  const now = Date.now();
  const windows = new Map(counters.map(({ kind, windowMs }) => [kind, windowMs]));
  for (const [kind, windowMs] of windows)
    await db('login_attempts')
      .where({ kind })
      .andWhere('window_start', '<=', now - windowMs)
      .delete();
  await db('login_bans').where('until', '<=', now).delete();
}

/**
 * A sliding limit that refuses silently: at most `limit` of one subject in any `windowMs`. The
 * subject has `limit` slot rows (`SUBJECT#0` …); a request takes the first slot last taken at
 * least `windowMs` ago, by one conditional update each, so two requests never take one slot, on
 * any instance. Answers whether a slot was taken. Slots taken at t and t' of one subject are thus
 * at least `windowMs` apart, and any window holds at most `limit` of them.
 */
export async function takeSlot(db: Knex, counter: Counter, now = Date.now()): Promise<boolean> {
  const { kind, limit, windowMs } = counter;
  const slots = Array.from({ length: limit }, (_, index) => `${counter.subject.slice(0, 310)}#${index}`);
  await db('login_attempts')
    .insert(slots.map((subject) => ({ kind, subject, window_start: 0, attempts: 0 })))
    .onConflict(['kind', 'subject'])
    .ignore();
  for (const subject of slots) {
    const taken = await db('login_attempts')
      .where({ kind, subject })
      .andWhere('window_start', '<=', now - windowMs)
      .update({ window_start: now, attempts: 1 });
    if (taken === 1) return true;
  }
  return false;
}
