/**
 * The one sign-in pipeline (docs/architecture.md, Sign-in): every way in (password, invite
 * registration, Google, and later passkeys, password reset and the OpenID provider) ends in
 * `completeSignIn`, the only creator of sessions and the only writer of sign-in events.
 * `principalFromToken` (services/sessions.ts) stays the only reader of sessions.
 *
 * A second factor is a pending state of a sign-in: `beginSignIn` answers a pending sign-in (5
 * minutes, single use, at most 5 wrong codes) for a user who has a second factor, and
 * `finishPendingSignIn` completes it once the factor has been checked.
 */
import { ApiError, randomToken, type CurrentUser, type EventType } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent } from './audit.js';
import { rememberDevice } from './login-devices.js';
import { secondFactorsOf, type SecondFactorMethod } from './second-factors.js';
import { sha256 } from './secrets.js';
import type { ClientInfo, SessionPolicy } from './sessions.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PENDING_SIGN_IN_MS = 5 * 60 * 1000;
const PENDING_SIGN_IN_MAX_FAILURES = 5;

/** How a sign-in proved who it is, and the event it writes. */
export const SIGN_IN_EVENTS = {
  password: 'login with password',
  'password-known-device': 'login with password from a known device while the email is banned',
  'invite-password': 'registered with password',
  'invite-google': 'registered with Google',
  google: 'login with Google',
  'google-linked': 'login with Google (Google account linked)',
  'staff-google': 'registered as staff admin with Google',
  'password-reset': 'login with a password reset link',
  passkey: 'login with a passkey',
} as const;

export type SignInMethod = keyof typeof SIGN_IN_EVENTS;

const GOOGLE_METHODS: readonly SignInMethod[] = ['google', 'google-linked', 'invite-google', 'staff-google'];

const SECOND_FACTOR_EVENTS: Record<'totp' | 'recovery' | 'passkey', string> = {
  totp: 'and authenticator code',
  recovery: 'and recovery code',
  passkey: 'and passkey',
};

/** MFA_REQUIRED and MFA_REQUIRED_FOR_GOOGLE (docs/configuration.md). */
interface MfaPolicy {
  mfaRequired: 'none' | 'admins' | 'all';
  mfaRequiredForGoogle: boolean;
}

export type SignInPolicy = SessionPolicy & MfaPolicy;

/** The event-log type of each way in (docs/event-log.md). */
const SIGN_IN_TYPES: Record<SignInMethod, EventType> = {
  password: 'login.success',
  'password-known-device': 'login.success',
  'password-reset': 'login.success',
  'invite-password': 'register.password',
  'invite-google': 'register.google',
  google: 'google.login',
  'google-linked': 'google.login',
  'staff-google': 'register.staff',
  passkey: 'passkey.login',
};

export interface SignedIn {
  /** The new session's token; stored only as a hash. */
  token: string;
  user: CurrentUser;
  /** The session may only enrol a second factor (MFA_REQUIRED). */
  restricted?: boolean;
}

export interface PendingSignIn {
  mfa: { token: string; methods: SecondFactorMethod[] };
}

export type SignInOutcome = SignedIn | PendingSignIn;

export const isPending = (outcome: SignInOutcome): outcome is PendingSignIn => 'mfa' in outcome;

/**
 * Finishes a sign-in whose proof has been checked: starts a session and writes the event. Takes
 * the caller's handle, so that a registration creates the user, its session and its event in one
 * transaction. A user MFA_REQUIRED covers who has no second factor gets a session restricted to
 * enrolling one (Google sign-ins only with MFA_REQUIRED_FOR_GOOGLE).
 */
export async function completeSignIn(
  db: Knex,
  user: CurrentUser,
  method: SignInMethod,
  info: ClientInfo,
  policy: SignInPolicy,
  secondFactor?: 'totp' | 'recovery' | 'passkey',
): Promise<SignedIn> {
  const restricted = !secondFactor && (await mustEnrol(db, user, method, policy));
  const token = randomToken(32);
  const now = Date.now();
  const event = [SIGN_IN_EVENTS[method], secondFactor && SECOND_FACTOR_EVENTS[secondFactor], restricted && '(restricted to enrolling a second factor)'];
  // The session and its event commit together (on a transaction given, inside it).
  await db.transaction(async (trx) => {
    await trx('sessions').insert({
      token_hash: sha256(token),
      user_id: user.id,
      created_at: now,
      last_seen_at: now,
      expires_at: now + policy.sessionTtlDays * DAY_MS,
      ip: info.ip.slice(0, 64),
      user_agent: info.userAgent.slice(0, 512),
      mfa_enrollment_required: restricted,
    });
    await logEvent(trx, { ip: info.ip, userAgent: info.userAgent, actor: user }, SIGN_IN_TYPES[method], event.filter(Boolean).join(' '));
  });
  return { token, user, restricted };
}

async function mustEnrol(db: Knex, user: CurrentUser, method: SignInMethod, policy: MfaPolicy): Promise<boolean> {
  const covered = policy.mfaRequired === 'all' || (policy.mfaRequired === 'admins' && user.admin);
  if (!covered) return false;
  if (GOOGLE_METHODS.includes(method) && !policy.mfaRequiredForGoogle) return false;
  return (await secondFactorsOf(db, user.id)).length === 0;
}

/** A first factor has been checked: a user with a second factor gets a pending sign-in, others a session. */
export async function beginSignIn(db: Knex, user: CurrentUser, method: SignInMethod, info: ClientInfo, policy: SignInPolicy): Promise<SignInOutcome> {
  const methods = await secondFactorsOf(db, user.id);
  if (methods.length === 0) return completeSignIn(db, user, method, info, policy);
  const token = randomToken(32);
  const now = Date.now();
  await db('pending_sign_ins').where('expires_at', '<=', now).delete();
  await db('pending_sign_ins').insert({ token_hash: sha256(token), user_id: user.id, method, failures: 0, created_at: now, expires_at: now + PENDING_SIGN_IN_MS });
  return { mfa: { token, methods } };
}

export interface PendingRow {
  id: number;
  user_id: number;
  method: SignInMethod;
  failures: number;
}

/** The pending sign-in of a token, if it is still open; anything else is a 401. */
export async function openPendingSignIn(db: Knex, token: string): Promise<PendingRow> {
  const row: PendingRow | undefined =
    token.length > 0 && token.length <= 200
      ? await db('pending_sign_ins').where({ token_hash: sha256(token) }).andWhere('expires_at', '>', Date.now()).first('id', 'user_id', 'method', 'failures')
      : undefined;
  if (!row || row.failures >= PENDING_SIGN_IN_MAX_FAILURES) throw new ApiError('unauthenticated', 'the sign-in has expired; log in again');
  return row;
}

/** A wrong second factor: counted, and the fifth voids the pending sign-in. */
export async function failPendingSignIn(db: Knex, pending: PendingRow): Promise<void> {
  await db('pending_sign_ins').where({ id: pending.id }).increment('failures', 1);
  await db('pending_sign_ins').where({ id: pending.id }).andWhere('failures', '>=', PENDING_SIGN_IN_MAX_FAILURES).delete();
}

/**
 * The second factor has been checked: the pending sign-in is used up (once) and becomes a session.
 * Only now is the browser a known device of the account (services/login-devices.ts): one that
 * passed the password alone must not escape the email's limit on codes (docs/security.md).
 */
export async function finishPendingSignIn(
  db: Knex,
  pending: PendingRow,
  user: CurrentUser,
  secondFactor: 'totp' | 'recovery' | 'passkey',
  info: ClientInfo,
  policy: SignInPolicy,
  deviceId: string | undefined,
): Promise<SignedIn & { deviceId: string }> {
  const signedIn = await db.transaction(async (trx) => {
    const taken = await trx('pending_sign_ins').where({ id: pending.id }).delete();
    if (taken === 0) throw new ApiError('unauthenticated', 'the sign-in has expired; log in again');
    return completeSignIn(trx, user, pending.method, info, policy, secondFactor);
  });
  return { ...signedIn, deviceId: await rememberDevice(db, user.id, deviceId, policy.sessionTtlDays) };
}
