/**
 * One sign-in attempt under the brute-force limits (docs/security.md, Password guessing), shared by
 * passwords, second-factor codes and passkeys: who it counts against, and its run through the
 * regulator (services/sign-in/regulator.ts: bans first, a slot reserved before the check, released or
 * refused after it) with what a refused one leaves behind.
 */
import type { Knex } from 'knex';
import { logEvent, logRepeated, type EventSubject } from '../log/audit.js';
import { addressSubject, deviceSubject, emailSubject, tooManyAttempts, type BruteForcePolicy, type Subject } from './brute-force.js';
import { knownDevice } from './login-devices.js';
import { queueNotice } from '../mail/notices.js';
import type { MailPolicy } from '../mail/outbox.js';
import { attempt, type Counter, type Regulator } from './regulator.js';
import { originOf, type ServiceContext } from '../support/context.js';
import { failPendingSignIn, type PendingRow } from './sign-in.js';

/**
 * The address, and the account's email, or this browser instead when it signed in to that account
 * before (services/sign-in/login-devices.ts): an attacker banning the email does not lock the owner out.
 * Without an account (an unknown passkey) only the address.
 */
export async function attemptSubjects(
  db: Knex,
  { ip, email, deviceId }: { ip: string; email: string | undefined; deviceId: string | undefined },
): Promise<Subject[]> {
  if (email === undefined) return [addressSubject(ip)];
  const device = await knownDevice(db, email, deviceId);
  return [device ? deviceSubject(device) : emailSubject(email), addressSubject(ip)];
}

interface Refusal {
  type: 'login.failure' | 'mfa.failure';
  event: string;
  /** The account the attempt was for, whose owner learns of a ban. */
  email: string | undefined;
  about: EventSubject | undefined;
  /** The pending sign-in a wrong second factor counts against. */
  pending?: PendingRow;
}

const MINUTE_MS = 60 * 1000;

/** The counters of sign-in subjects: an address has its own limit; an email and a known device the email's. */
export function signInCounters(policy: BruteForcePolicy, subjects: Subject[]): Counter[] {
  return subjects.map(({ kind, subject }) => ({
    kind,
    subject,
    limit: kind === 'address' ? policy.loginFailuresPerAddress : policy.loginFailuresPerEmail,
    windowMs: policy.loginWindowMinutes * MINUTE_MS,
  }));
}

/**
 * Sign-in attempts count failures only and ban; one refused before its check is logged, when
 * `blocked` is given, as one `login.blocked` row a minute per address and account, with a count.
 */
export function signInRegulator(
  ctx: Pick<ServiceContext<BruteForcePolicy>, 'db' | 'policy' | 'ip' | 'userAgent'>,
  blocked?: { about: EventSubject | undefined },
): Regulator {
  const { db, policy } = ctx;
  const audit = { actor: null, ...originOf(ctx) };
  return {
    db,
    counts: 'failures',
    banMs: policy.loginBanMinutes * MINUTE_MS,
    tooMany: tooManyAttempts,
    blocked: blocked && (() => logRepeated(db, audit, { type: 'login.blocked', event: 'login blocked: too many failed logins', subject: blocked.about })),
  };
}

/** What a sign-in check found: a value, or a refusal to write (and the error to answer). */
export type SignInChecked<T> = { ok: true; value: T } | { ok: false; error: Error; refusal: Refusal };

/**
 * One sign-in attempt through the regulator (429 while a subject is banned or at its limit). A
 * refused check keeps its slot (it may ban), counts against the pending sign-in, and is logged; an
 * email's ban earns its owner a notice.
 */
export async function signInAttempt<T>(
  deps: Pick<ServiceContext<BruteForcePolicy & MailPolicy>, 'db' | 'policy' | 'ip' | 'userAgent'>,
  attempted: { subjects: Subject[]; about: EventSubject | undefined },
  check: () => Promise<SignInChecked<T>>,
): Promise<T> {
  const { policy } = deps;
  const info = originOf(deps);
  const regulator = signInRegulator(deps, { about: attempted.about });
  return attempt(regulator, signInCounters(policy, attempted.subjects), async () => {
    const checked = await check();
    if (checked.ok) return checked;
    const { refusal } = checked;
    return {
      ok: false,
      error: checked.error,
      refuse: async (trx, banned) => {
        if (refusal.pending) await failPendingSignIn(trx, refusal.pending);
        await logEvent(trx, { actor: null, ...info }, { type: refusal.type, event: refusal.event, subject: refusal.about });
        if (refusal.email && banned.some((each) => each.kind === 'email')) {
          await queueNotice(
            { db: trx, policy, now: Date.now },
            { kind: 'account-locked', email: refusal.email, origin: info, lockMinutes: policy.loginBanMinutes },
          );
        }
      },
    };
  });
}
