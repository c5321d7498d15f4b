/**
 * Sessions and API keys: turning a presented token into the user it stands for. Tokens are
 * stored only as SHA-256 hashes, so a lookup is one indexed query.
 */
import { isApiKey, type CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import { LITERAL, preparedSelect, readPrepared } from '../../db/direct-reads.js';
import { logEvent } from '../log/audit.js';
import type { ActorContext } from '../support/context.js';
import { sha256 } from '../support/secrets.js';
import { toCurrentUser, usersQuery, type UserRow } from '../users/users.js';

const DAY_MS = 24 * 60 * 60 * 1000;
// Last-seen and last-used times are written at most this often, not on every request.
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface SessionPolicy {
  sessionTtlDays: number;
  sessionIdleDays: number;
}

export interface Principal {
  user: CurrentUser;
  via: 'session' | 'apikey';
  sessionId?: number;
  apiKeyId?: number;
  /** A session restricted to enrolling a second factor (MFA_REQUIRED). */
  restricted: boolean;
  /** Sessions: when the user last proved who they are (ms), and how (RFC 8176 methods; empty for older sessions). */
  signedInAt?: number;
  amr?: string[];
}

// Read on every API call: compiled once, and remembered until the database changes.
const API_KEY_BY_HASH = preparedSelect(
  (db, keyHash: string) =>
    usersQuery(db)
      .join('api_keys', 'api_keys.user_id', 'users.id')
      .where('api_keys.key_hash', keyHash)
      .select('api_keys.id as key_id', 'api_keys.last_used_at', 'api_keys.expires_at')
      .limit(1, LITERAL),
  { remember: true },
);
const SESSION_COLUMNS = [
  'sessions.id as session_id',
  'sessions.last_seen_at',
  'sessions.expires_at',
  'sessions.mfa_enrollment_required as restricted',
  'sessions.created_at as session_created_at',
  'sessions.signed_in_at',
  'sessions.amr',
];
const SESSION_BY_HASH = preparedSelect(
  (db, tokenHash: string) =>
    usersQuery(db).join('sessions', 'sessions.user_id', 'users.id').where('sessions.token_hash', tokenHash).select(SESSION_COLUMNS).limit(1, LITERAL),
  { remember: true },
);
/**
 * The session of a `toolsctl` access token (the device grant, docs/oidc.md): the provider's token
 * row, the grant it belongs to, and the portal session that grant was made for (`oidc_cli_grants`).
 * Only tokens of the built-in client are in that table: an app's token is no credential here.
 */
const SESSION_BY_CLI_TOKEN = preparedSelect(
  (db, tokenHash: string) =>
    usersQuery(db)
      .join('oidc_cli_grants', 'oidc_cli_grants.user_id', 'users.id')
      .join('sessions', 'sessions.id', 'oidc_cli_grants.session_id')
      .join('oidc_payloads', 'oidc_payloads.grant_id', 'oidc_cli_grants.grant_id')
      .where('oidc_payloads.model', 'AccessToken')
      .andWhere('oidc_payloads.id', tokenHash)
      .select([...SESSION_COLUMNS, 'oidc_payloads.expires_at as token_expires_at'])
      .limit(1, LITERAL),
  { remember: true },
);

type SessionRow = UserRow & {
  session_id: number;
  last_seen_at: number;
  expires_at: number;
  restricted: boolean | number;
  session_created_at: number;
  signed_in_at: number | null;
  amr: string;
  token_expires_at?: number | string | null;
};

/** A session token's row, else a `toolsctl` access token's (unexpired) session row. */
async function sessionRowOf(db: Knex, token: string, now: number): Promise<SessionRow | undefined> {
  const [row] = await readPrepared<SessionRow, [string]>(db, SESSION_BY_HASH, [sha256(token)]);
  if (row) return row;
  if (!/^[A-Za-z0-9_-]{20,255}$/.test(token)) return undefined;
  // The provider keeps access tokens as their SHA-256 (oidc/adapter.ts).
  const [cli] = await readPrepared<SessionRow, [string]>(db, SESSION_BY_CLI_TOKEN, [sha256(token)]);
  return cli && cli.token_expires_at !== null && Number(cli.token_expires_at) > now ? cli : undefined;
}

/**
 * Whether a session still holds at `now`: before the end of its lifetime (SESSION_TTL_DAYS, fixed at
 * sign-in) and used within SESSION_IDLE_DAYS. The one rule, also for grants of the OpenID provider.
 */
export function sessionStillValid(
  session: { expires_at: number | string; last_seen_at: number | string },
  policy: Pick<SessionPolicy, 'sessionIdleDays'>,
  now: number,
): boolean {
  return Number(session.expires_at) > now && Number(session.last_seen_at) + policy.sessionIdleDays * DAY_MS > now;
}

/**
 * The user a session token, API key or `toolsctl` access token stands for, or null when it stands
 * for nobody now. A `toolsctl` access token stands for the session its device sign-in made (docs/oidc.md, Device grant).
 */
export async function principalFromToken(db: Knex, token: string, policy: SessionPolicy): Promise<Principal | null> {
  if (token.length === 0 || token.length > 512) return null;
  const now = Date.now();
  if (isApiKey(token)) {
    const [row] = await readPrepared<UserRow & { key_id: number; last_used_at: number | null; expires_at: number | null }, [string]>(db, API_KEY_BY_HASH, [
      sha256(token),
    ]);
    // An expired key stands for nobody; it stays listed until deleted (docs/security.md).
    if (!row || (row.expires_at !== null && Number(row.expires_at) <= now)) return null;
    if (row.last_used_at === null || now - Number(row.last_used_at) > TOUCH_INTERVAL_MS) {
      await db('api_keys').where({ id: row.key_id }).update({ last_used_at: now });
    }
    return { user: toCurrentUser(row), via: 'apikey', apiKeyId: row.key_id, restricted: false };
  }
  const row = await sessionRowOf(db, token, now);
  if (!row) return null;
  const lastSeen = Number(row.last_seen_at);
  if (!sessionStillValid(row, policy, now)) {
    await db('sessions').where({ id: row.session_id }).delete();
    return null;
  }
  if (now - lastSeen > TOUCH_INTERVAL_MS) {
    await db('sessions').where({ id: row.session_id }).update({ last_seen_at: now });
  }
  return {
    user: toCurrentUser(row),
    via: 'session',
    sessionId: row.session_id,
    restricted: Boolean(row.restricted),
    signedInAt: Number(row.signed_in_at ?? row.session_created_at),
    amr: row.amr ? row.amr.split(' ') : [],
  };
}

export async function endSession(db: Knex, sessionId: number): Promise<void> {
  await db('sessions').where({ id: sessionId }).delete();
}

export interface SessionInfo {
  id: number;
  /** "toolsctl on HOST" for a device sign-in; null for a browser. */
  name: string | null;
  current: boolean;
  createdTimestamp: string;
  lastUsedTimestamp: string;
  ip: string;
  userAgent: string;
}

/** A user's sessions, newest first, the caller's own marked. */
export async function listSessionsOfUser(db: Knex, userId: number, currentId: number | undefined): Promise<SessionInfo[]> {
  const rows = await db('sessions')
    .where({ user_id: userId })
    .andWhere('expires_at', '>', Date.now())
    .orderBy('id', 'desc')
    .select('id', 'name', 'created_at', 'last_seen_at', 'ip', 'user_agent');
  return rows.map((row) => ({
    id: row.id,
    name: row.name ?? null,
    current: row.id === currentId,
    createdTimestamp: new Date(Number(row.created_at)).toISOString(),
    lastUsedTimestamp: new Date(Number(row.last_seen_at)).toISOString(),
    ip: row.ip,
    userAgent: row.user_agent,
  }));
}

/** Ends sessions of a user, all of them or all but one; answers how many. */
export async function endSessionsOfUser(db: Knex, userId: number, except?: number): Promise<number> {
  const query = db('sessions').where({ user_id: userId });
  if (except !== undefined) query.andWhereNot({ id: except });
  return query.delete();
}

/** Ends one of the caller's own sessions and logs it, in one transaction; false when it is none of theirs. */
export async function revokeOwnSession(ctx: ActorContext, sessionId: number): Promise<boolean> {
  return ctx.db.transaction(async (trx) => {
    const ended = await trx('sessions').where({ id: sessionId, user_id: ctx.actor.id }).delete();
    if (ended > 0) await logEvent(trx, ctx, { type: 'session.revoke', event: `ended session ${sessionId}` });
    return ended > 0;
  });
}

/** Ends the caller's sessions but `keep` (the current one) and logs how many, in one transaction. */
export async function revokeOtherOwnSessions(ctx: ActorContext, keep: number | undefined): Promise<number> {
  return ctx.db.transaction(async (trx) => {
    const ended = await endSessionsOfUser(trx, ctx.actor.id, keep);
    await logEvent(trx, ctx, { type: 'session.revoke', event: `ended ${ended} other sessions` });
    return ended;
  });
}

/** Lifts the restriction of a session once its user has enrolled a second factor. */
export async function liftRestriction(db: Knex, sessionId: number | undefined): Promise<void> {
  if (sessionId !== undefined) await db('sessions').where({ id: sessionId }).update({ mfa_enrollment_required: false });
}
