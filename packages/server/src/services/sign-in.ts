/**
 * The one sign-in pipeline (docs/architecture.md, Sign-in): every way in (password, invite
 * registration, Google, and later passkeys, password reset and the OpenID provider) ends in
 * `completeSignIn`, the only creator of sessions and the only writer of sign-in events.
 * `principalFromToken` (services/sessions.ts) stays the only reader of sessions.
 */
import { randomToken, type CurrentUser, type EventType } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent } from './audit.js';
import { sha256 } from './secrets.js';
import type { ClientInfo, SessionPolicy } from './sessions.js';

const DAY_MS = 24 * 60 * 60 * 1000;

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
} as const;

export type SignInMethod = keyof typeof SIGN_IN_EVENTS;

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
};

export interface SignedIn {
  /** The new session's token; stored only as a hash. */
  token: string;
  user: CurrentUser;
}

/**
 * Finishes a sign-in whose proof has been checked: starts a session and writes the event. Takes
 * the caller's handle, so that a registration creates the user, its session and its event in one
 * transaction.
 */
export async function completeSignIn(db: Knex, user: CurrentUser, method: SignInMethod, info: ClientInfo, policy: SessionPolicy): Promise<SignedIn> {
  const token = randomToken(32);
  const now = Date.now();
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
    });
    await logEvent(trx, { ip: info.ip, userAgent: info.userAgent, actor: user }, SIGN_IN_TYPES[method], SIGN_IN_EVENTS[method]);
  });
  return { token, user };
}
