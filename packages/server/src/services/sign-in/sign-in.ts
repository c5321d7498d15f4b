/**
 * The one sign-in pipeline (docs/architecture.md, Sign-in): every way in (password, invite
 * registration, Google, and later passkeys, password reset and the OpenID provider) ends in
 * `completeSignIn`, the only creator of sessions and the only writer of sign-in events.
 * `principalFromToken` (services/sign-in/sessions.ts) stays the only reader of sessions.
 *
 * A second factor is a pending state of a sign-in: `beginSignIn` answers a pending sign-in (5
 * minutes, single use, at most 5 wrong codes) for a user who has a second factor, and
 * `finishPendingSignIn` completes it once the factor has been checked.
 *
 * Every session remembers when its user proved who they are and how (`signed_in_at`, `amr`: what
 * the OpenID provider tells apps, docs/oidc.md). A confirmation (the **Confirm it's you** screen:
 * `prompt=login`, `max_age`, `acr_values=mfa`) is a sign-in like any other that ends here too: it
 * updates the session it confirms instead of starting one.
 */
import { ApiError, randomToken, type CurrentUser, type EventType } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent } from '../log/audit.js';
import { rememberDevice } from './login-devices.js';
import { secondFactorsOf, type SecondFactorMethod } from './second-factors.js';
import { sha256 } from '../support/secrets.js';
import { originOf, withDb, type ServiceContext } from '../support/context.js';
import type { SessionPolicy } from './sessions.js';

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
  'step-up': 'step-up to two factors',
  device: 'signed in a device, allowed on the verification page:',
} as const;

export type SignInMethod = keyof typeof SIGN_IN_EVENTS;

const GOOGLE_METHODS: readonly SignInMethod[] = ['google', 'google-linked', 'invite-google', 'staff-google'];

const SECOND_FACTOR_EVENTS: Record<'totp' | 'recovery' | 'passkey', string> = {
  totp: 'and authenticator code',
  recovery: 'and recovery code',
  passkey: 'and passkey',
};

const STEP_UP_EVENTS: Record<'totp' | 'recovery' | 'passkey', string> = {
  totp: 'with an authenticator code',
  recovery: 'with a recovery code',
  passkey: 'with a passkey',
};

/** MFA_REQUIRED and MFA_REQUIRED_FOR_GOOGLE (docs/configuration.md). */
export interface MfaPolicy {
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
  'step-up': 'mfa.success',
  device: 'device.login',
};

export interface SignedIn {
  /** The new session's token; stored only as a hash. Empty when the sign-in confirmed a session. */
  token: string;
  user: CurrentUser;
  /** The session may only enrol a second factor (MFA_REQUIRED). */
  restricted?: boolean;
  /** The sign-in confirmed the session it was asked to (SignInProof.confirms): no new session. */
  confirmed?: boolean;
  /** The new session's id (none when the sign-in confirmed a session). */
  sessionId?: number;
}

/** What a sign-in proved beyond its way in, and the session it confirms, if any. */
export interface SignInProof {
  secondFactor?: 'totp' | 'recovery' | 'passkey';
  /** The passkey used (first or second factor), by RFC 8176's names: `hwk` bound to one device, `swk` synced. */
  key?: 'hwk' | 'swk';
  /** The session this sign-in confirms (the Confirm it's you screen): it is updated, no session is made. */
  confirms?: number;
  /** A step-up: the methods the confirmed session used so far, whose first factor it keeps. */
  previousAmr?: string[];
  /**
   * A device sign-in (the device grant, oidc/device-approval.ts): the new session is named after the
   * device, carries its address, and keeps the approving session's sign-in time and methods.
   */
  device?: DeviceSignIn;
}

/** The device a session is made for, and the sign-in of the browser session that allowed it. */
interface DeviceSignIn {
  name: string;
  ip: string;
  userAgent: string;
  signedInAt: number;
  amr: string[];
}

const FIRST_FACTOR_AMR: Record<SignInMethod, string> = {
  password: 'pwd',
  'password-known-device': 'pwd',
  'invite-password': 'pwd',
  'password-reset': 'pwd',
  google: 'fed',
  'google-linked': 'fed',
  'invite-google': 'fed',
  'staff-google': 'fed',
  passkey: 'swk',
  'step-up': '',
  device: '',
};

const FIRST_FACTORS = new Set(['pwd', 'fed', 'hwk', 'swk']);

/**
 * The RFC 8176 methods of a sign-in (space-separated, as sessions store them): `pwd`, `fed` for
 * Google, `otp` for an authenticator or recovery code, `hwk`/`swk` for a passkey, and `mfa` when
 * two factors were used. A passkey alone counts as two: it is only accepted with user verification.
 */
export function amrOf(method: SignInMethod, proof: SignInProof = {}): string {
  if (method === 'device') return (proof.device?.amr ?? []).join(' ');
  const first =
    method === 'passkey'
      ? (proof.key ?? 'swk')
      : method === 'step-up'
        ? (proof.previousAmr ?? []).filter((value) => FIRST_FACTORS.has(value)).join(' ')
        : FIRST_FACTOR_AMR[method];
  const second = proof.secondFactor === 'passkey' ? (proof.key ?? 'swk') : proof.secondFactor ? 'otp' : undefined;
  const amr = [first, second, (second || method === 'passkey') && 'mfa'].filter((value): value is string => Boolean(value));
  return [...new Set(amr)].join(' ');
}

/** The OpenID `acr` of a session's methods: `mfa` when two factors were used, else `fed` for Google, else `pwd`. */
export function acrOf(amr: readonly string[]): 'mfa' | 'fed' | 'pwd' {
  if (amr.includes('mfa')) return 'mfa';
  return amr.includes('fed') ? 'fed' : 'pwd';
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
  ctx: ServiceContext<SignInPolicy>,
  { user, method, proof = {} }: { user: CurrentUser; method: SignInMethod; proof?: SignInProof },
): Promise<SignedIn> {
  const { db, policy } = ctx;
  const info = originOf(ctx);
  const { secondFactor, confirms } = proof;
  const now = ctx.now();
  if (confirms !== undefined) {
    const factor = secondFactor && (method === 'step-up' ? STEP_UP_EVENTS : SECOND_FACTOR_EVENTS)[secondFactor];
    const event = [SIGN_IN_EVENTS[method], factor, '(confirming the session)'];
    await db.transaction(async (trx) => {
      const previous = method === 'step-up' ? await trx('sessions').where({ id: confirms }).first('amr') : undefined;
      const amr = amrOf(method, { ...proof, previousAmr: String(previous?.amr ?? '').split(' ') });
      const updated = await trx('sessions').where({ id: confirms, user_id: user.id }).andWhere('expires_at', '>', now).update({ signed_in_at: now, amr });
      if (updated === 0) throw new ApiError('unauthenticated', "only the signed-in user can confirm it's them; log in again");
      await logEvent(trx, { ip: info.ip, userAgent: info.userAgent, actor: user }, { type: SIGN_IN_TYPES[method], event: event.filter(Boolean).join(' ') });
    });
    return { token: '', user, confirmed: true };
  }
  const amr = amrOf(method, proof);
  const restricted = !secondFactor && (await mustEnrol(db, policy, { user, method }));
  const token = randomToken(32);
  const { device } = proof;
  const event = [
    SIGN_IN_EVENTS[method],
    device?.name,
    secondFactor && SECOND_FACTOR_EVENTS[secondFactor],
    restricted && '(restricted to enrolling a second factor)',
  ];
  let sessionId = 0;
  // The session and its event commit together (on a transaction given, inside it).
  await db.transaction(async (trx) => {
    const [inserted] = await trx('sessions')
      .insert({
        token_hash: sha256(token),
        user_id: user.id,
        created_at: now,
        signed_in_at: device?.signedInAt ?? now,
        amr,
        last_seen_at: now,
        expires_at: now + policy.sessionTtlDays * DAY_MS,
        ip: (device?.ip ?? info.ip).slice(0, 64),
        user_agent: (device?.userAgent ?? info.userAgent).slice(0, 512),
        mfa_enrollment_required: restricted,
        name: device?.name ?? null,
      })
      .returning('id');
    sessionId = Number(typeof inserted === 'object' ? inserted.id : inserted);
    await logEvent(trx, { ip: info.ip, userAgent: info.userAgent, actor: user }, { type: SIGN_IN_TYPES[method], event: event.filter(Boolean).join(' ') });
  });
  return { token, user, restricted, sessionId };
}

async function mustEnrol(db: Knex, policy: MfaPolicy, { user, method }: { user: CurrentUser; method: SignInMethod }): Promise<boolean> {
  const covered = policy.mfaRequired === 'all' || (policy.mfaRequired === 'admins' && user.admin);
  if (!covered) return false;
  if (GOOGLE_METHODS.includes(method) && !policy.mfaRequiredForGoogle) return false;
  return (await secondFactorsOf(db, user.id)).length === 0;
}

/** A first factor has been checked: a user with a second factor gets a pending sign-in, others a session. */
export async function beginSignIn(
  ctx: ServiceContext<SignInPolicy>,
  { user, method, confirms }: { user: CurrentUser; method: SignInMethod; confirms?: number },
): Promise<SignInOutcome> {
  const { db } = ctx;
  const methods = await secondFactorsOf(db, user.id);
  if (methods.length === 0) return completeSignIn(ctx, { user, method, proof: { confirms } });
  const token = randomToken(32);
  const now = ctx.now();
  await db('pending_sign_ins').where('expires_at', '<=', now).delete();
  await db('pending_sign_ins').insert({
    token_hash: sha256(token),
    user_id: user.id,
    method,
    failures: 0,
    created_at: now,
    expires_at: now + PENDING_SIGN_IN_MS,
    session_id: confirms ?? null,
  });
  return { mfa: { token, methods } };
}

/**
 * A step-up of a signed-in session to two factors (acr_values=mfa): a pending sign-in of the
 * session's user that their second factor finishes on that session, keeping its first factor.
 */
export async function beginStepUp(db: Knex, user: CurrentUser, sessionId: number): Promise<PendingSignIn> {
  const methods = await secondFactorsOf(db, user.id);
  if (methods.length === 0) throw new ApiError('conflict', 'there is no second factor to step up with: set up an authenticator app or a passkey first');
  const token = randomToken(32);
  const now = Date.now();
  await db('pending_sign_ins').where('expires_at', '<=', now).delete();
  await db('pending_sign_ins').insert({
    token_hash: sha256(token),
    user_id: user.id,
    method: 'step-up',
    failures: 0,
    created_at: now,
    expires_at: now + PENDING_SIGN_IN_MS,
    session_id: sessionId,
  });
  return { mfa: { token, methods } };
}

export interface PendingRow {
  id: number;
  user_id: number;
  method: SignInMethod;
  failures: number;
  /** The session this pending sign-in confirms, if it is a confirmation. */
  session_id: number | null;
}

/** The pending sign-in of a token, if it is still open; anything else is a 401. */
export async function openPendingSignIn(db: Knex, token: string): Promise<PendingRow> {
  const row: PendingRow | undefined =
    token.length > 0 && token.length <= 200
      ? await db('pending_sign_ins')
          .where({ token_hash: sha256(token) })
          .andWhere('expires_at', '>', Date.now())
          .first('id', 'user_id', 'method', 'failures', 'session_id')
      : undefined;
  if (!row || row.failures >= PENDING_SIGN_IN_MAX_FAILURES) throw new ApiError('unauthenticated', 'the sign-in has expired; log in again');
  return row;
}

/** A wrong second factor: counted, and the fifth voids the pending sign-in. */
export async function failPendingSignIn(db: Knex, pending: PendingRow): Promise<void> {
  await db('pending_sign_ins').where({ id: pending.id }).increment('failures', 1);
  await db('pending_sign_ins').where({ id: pending.id }).andWhere('failures', '>=', PENDING_SIGN_IN_MAX_FAILURES).delete();
}

export type SecondFactorUsed = 'totp' | 'recovery' | 'passkey';

/** A second factor that is used up (a recovery code, an authenticator step) in the transaction that takes the pending sign-in. */
export type SecondFactorUse = (trx: Knex) => Promise<SecondFactorUsed | undefined>;

/** Thrown by `finishPendingSignIn` when its `SecondFactorUse` refused the code: nothing was changed. */
export class WrongSecondFactor extends Error {
  constructor() {
    super('wrong second factor');
  }
}

/**
 * The second factor has been checked: the pending sign-in is used up (once) and becomes a session.
 * A code is used up only in the same transaction, after the pending sign-in is taken (a write
 * first, so that of requests racing for one pending sign-in one goes on and the others find it
 * gone): a loser's recovery code is not spent (docs/security.md). Only now is the browser a known
 * device of the account (services/sign-in/login-devices.ts): one that passed the password alone must not
 * escape the email's limit on codes (docs/security.md).
 */
export async function finishPendingSignIn(
  ctx: ServiceContext<SignInPolicy>,
  {
    pending,
    user,
    proof,
    deviceId,
  }: {
    pending: PendingRow;
    user: CurrentUser;
    proof: Omit<SignInProof, 'secondFactor'> & { secondFactor: SecondFactorUsed | SecondFactorUse };
    deviceId: string | undefined;
  },
): Promise<SignedIn & { deviceId: string }> {
  const { db, policy } = ctx;
  const signedIn = await db.transaction(async (trx) => {
    const taken = await trx('pending_sign_ins').where({ id: pending.id }).delete();
    if (taken === 0) throw new ApiError('unauthenticated', 'the sign-in has expired; log in again');
    const factor = typeof proof.secondFactor === 'function' ? await proof.secondFactor(trx) : proof.secondFactor;
    if (!factor) throw new WrongSecondFactor();
    return completeSignIn(withDb(ctx, trx), {
      user,
      method: pending.method,
      proof: { ...proof, secondFactor: factor, confirms: pending.session_id ?? undefined },
    });
  });
  return { ...signedIn, deviceId: await rememberDevice(db, { userId: user.id, oldId: deviceId, ttlDays: policy.sessionTtlDays }) };
}
