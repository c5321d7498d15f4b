/**
 * The reads and writes of our OpenID provider (docs/oidc.md) beyond its own models (oidc/adapter.ts):
 * the user behind a token, and which portal session a grant was made under (`oidc_grant_sessions`),
 * so that a grant never outlives that session.
 */
import type { CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import { LITERAL, preparedSelect, readPrepared } from '../../db/direct-reads.js';
import { toCurrentUser, usersQuery, type UserRow } from '../users/users.js';

/** A user as the provider's claims need it: whether the mailbox is proven (`email_verified`) beside the rest. */
export type ClaimsUser = CurrentUser & { emailVerified: boolean };
type VerifiedRow = UserRow & { email_verified_at: number | string | null };

/** A user of a grant, with the app and the portal session the grant was made for. */
export interface GrantUser {
  user: ClaimsUser;
  appId: number;
  appName: string;
  session: { expires_at: number | string; last_seen_at: number | string };
}

// Read on every code exchange, refresh and userinfo call: compiled once, run on SQLite's direct
// connection (db/direct-reads.ts).
const USER_BY_ID = preparedSelect((db, id: number) => usersQuery(db).where('users.id', id).select('users.email_verified_at').limit(1, LITERAL));
const USER_OF_GRANT = preparedSelect((db, grantId: string, userId: number) =>
  usersQuery(db)
    .join('oidc_grant_sessions', 'oidc_grant_sessions.user_id', 'users.id')
    .join('sessions', 'sessions.id', 'oidc_grant_sessions.session_id')
    .join('apps', 'apps.id', 'oidc_grant_sessions.app_id')
    .where('oidc_grant_sessions.grant_id', grantId)
    .andWhere('users.id', userId)
    .select('oidc_grant_sessions.app_id', 'apps.name as app_name', 'sessions.expires_at', 'sessions.last_seen_at', 'users.email_verified_at')
    .limit(1, LITERAL),
);

const claimsUser = (row: VerifiedRow): ClaimsUser => ({ ...toCurrentUser(row), emailVerified: row.email_verified_at !== null });

/** A user by id, for the claims of a token made without a grant. */
export async function claimsUserById(db: Knex, id: number): Promise<ClaimsUser | undefined> {
  const [row] = await readPrepared<VerifiedRow, [number]>(db, USER_BY_ID, [id]);
  return row ? claimsUser(row) : undefined;
}

/** The user of a grant, when the grant is this user's and its portal session still exists (one query). */
export async function grantUser(db: Knex, grantId: string, userId: number): Promise<GrantUser | undefined> {
  const [row] = await readPrepared<
    VerifiedRow & { app_id: number; app_name: string; expires_at: number | string; last_seen_at: number | string },
    [string, number]
  >(db, USER_OF_GRANT, [grantId, userId]);
  if (!row) return undefined;
  return { user: claimsUser(row), appId: Number(row.app_id), appName: row.app_name, session: { expires_at: row.expires_at, last_seen_at: row.last_seen_at } };
}

/** Whether a grant was made under this portal session. */
export async function grantMadeUnder(db: Knex, grantId: string, sessionId: number): Promise<boolean> {
  return Boolean(await db('oidc_grant_sessions').where({ grant_id: grantId, session_id: sessionId }).first('grant_id'));
}

/**
 * Records that a new grant was made under a portal session, for a user and an app; it ends with the
 * session or at `latestEnd` (ms), whichever comes first. False when the session is gone.
 */
export async function bindGrantToSession(
  db: Knex,
  grant: { grantId: string; sessionId: number; userId: number; appId: number; latestEnd: number },
): Promise<boolean> {
  const session = await db('sessions').where({ id: grant.sessionId }).first('expires_at');
  if (!session) return false;
  await db('oidc_grant_sessions').insert({
    grant_id: grant.grantId,
    session_id: grant.sessionId,
    user_id: grant.userId,
    app_id: grant.appId,
    expires_at: Math.min(Number(session.expires_at), grant.latestEnd),
  });
  return true;
}
