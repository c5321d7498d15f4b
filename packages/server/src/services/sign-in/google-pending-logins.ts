/**
 * Google sign-ins under way (docs/product.md, Scale): what the callback must check, kept in the database
 * so any instance can finish what another started, bound to the browser by a random value in a
 * cookie (stored only as a hash), used at most once and only within LOGIN_TTL_SECONDS.
 */
import { ApiError, randomToken } from '@tools-portal/core';
import type { Knex } from 'knex';
import { insertBounded } from '../support/bounded-rows.js';
import { sha256 } from '../support/secrets.js';

export const GOOGLE_LOGIN_TTL_SECONDS = 10 * 60;
/**
 * Most sign-ins under way at once, from every address together: past it the oldest are dropped
 * (a browser that took that long starts again). Each address is limited on its own before this.
 */
const MAX_PENDING_LOGINS = 10_000;

export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  inviteToken: string | null;
  /** The target after sign-in, already resolved to a safe one. */
  redirect: string;
  /** The portal session this sign-in confirms (Confirm it's you), if it is a confirmation. */
  confirms: number | null;
}

/**
 * Stores a sign-in under way, sweeping expired ones and keeping at most `maxPending`; answers the
 * browser binding to put in the cookie.
 */
export async function savePendingLogin(db: Knex, login: PendingLogin, maxPending = MAX_PENDING_LOGINS): Promise<string> {
  const binding = randomToken(32);
  const now = Date.now();
  await insertBounded(db, 'oidc_logins', {
    row: {
      binding_hash: sha256(binding),
      state: login.state,
      nonce: login.nonce,
      code_verifier: login.codeVerifier,
      invite_token: login.inviteToken,
      redirect: login.redirect,
      session_id: login.confirms,
      created_at: now,
      expires_at: now + GOOGLE_LOGIN_TTL_SECONDS * 1000,
    },
    max: maxPending,
    now,
  });
  return binding;
}

/** Takes the sign-in this browser started, once; a missing, used or expired one is refused. */
export async function takePendingLogin(db: Knex, binding: string | undefined): Promise<PendingLogin> {
  if (!binding || binding.length > 200) throw new ApiError('unauthenticated', 'no Google sign-in was started in this browser');
  const row = await db('oidc_logins')
    .where({ binding_hash: sha256(binding) })
    .first();
  // Of two callbacks racing with one cookie, only the one whose delete removed the row goes on.
  const taken = row ? await db('oidc_logins').where({ id: row.id }).delete() : 0;
  if (!row || taken === 0) throw new ApiError('unauthenticated', 'unknown or already used Google sign-in');
  if (Number(row.expires_at) <= Date.now()) throw new ApiError('unauthenticated', 'the Google sign-in took too long and expired');
  return {
    state: row.state,
    nonce: row.nonce,
    codeVerifier: row.code_verifier,
    inviteToken: row.invite_token,
    redirect: row.redirect,
    confirms: row.session_id === null || row.session_id === undefined ? null : Number(row.session_id),
  };
}
