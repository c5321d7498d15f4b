/**
 * One sign-in attempt under the brute-force limits (docs/security.md, Password guessing), shared by
 * passwords, second-factor codes and passkeys: who it counts against, its admission (bans first,
 * then a reservation before the check) and what a refused one leaves behind.
 */
import { ApiError } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent, logRepeated, type Audit, type EventSubject } from './audit.js';
import { addressSubject, admitAttempt, deviceSubject, emailSubject, recordFailure, type BruteForcePolicy, type Reservation, type Subject } from './brute-force.js';
import { knownDevice } from './login-devices.js';
import { queueNotice } from './notices.js';
import type { MailPolicy } from './outbox.js';
import type { ClientInfo } from './sessions.js';
import { failPendingSignIn, type PendingRow } from './sign-in.js';

/**
 * The address, and the account's email, or this browser instead when it signed in to that account
 * before (services/login-devices.ts): an attacker banning the email does not lock the owner out.
 * Without an account (an unknown passkey) only the address.
 */
export async function attemptSubjects(db: Knex, info: ClientInfo, email: string | undefined, deviceId: string | undefined): Promise<Subject[]> {
  if (email === undefined) return [addressSubject(info.ip)];
  const device = await knownDevice(db, email, deviceId);
  return [device ? deviceSubject(device) : emailSubject(email), addressSubject(info.ip)];
}

/**
 * Admits one attempt (429 while a subject is banned or at its limit). A blocked attempt costs the
 * sender nothing, so it is logged as one row a minute per address and account, with a count.
 */
export async function admitSignInAttempt(
  db: Knex,
  policy: BruteForcePolicy,
  audit: Audit,
  subjects: Subject[],
  about: EventSubject | undefined,
): Promise<Reservation> {
  try {
    return await admitAttempt(db, policy, subjects);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'too_many_requests') {
      await logRepeated(db, audit, 'login.blocked', 'login blocked: too many failed logins', undefined, about);
    }
    throw error;
  }
}

export interface Refusal {
  type: 'login.failure' | 'mfa.failure';
  event: string;
  /** The account the attempt was for, whose owner learns of a ban. */
  email: string | undefined;
  about: EventSubject | undefined;
  /** The pending sign-in a wrong second factor counts against. */
  pending?: PendingRow;
}

/** A refused check keeps its reservation (it may ban), counts against the pending sign-in, and is logged. */
export async function refuseSignInAttempt(
  db: Knex,
  policy: BruteForcePolicy & MailPolicy,
  info: ClientInfo,
  reservation: Reservation,
  refusal: Refusal,
): Promise<void> {
  await db.transaction(async (trx) => {
    const banned = await recordFailure(trx, policy, reservation);
    if (refusal.pending) await failPendingSignIn(trx, refusal.pending);
    await logEvent(trx, { actor: null, ...info }, refusal.type, refusal.event, refusal.about);
    if (refusal.email && banned.some((each) => each.kind === 'email')) {
      await queueNotice(trx, policy, 'account-locked', { email: refusal.email, origin: info, detail: `${policy.loginBanMinutes} minutes` });
    }
  });
}
