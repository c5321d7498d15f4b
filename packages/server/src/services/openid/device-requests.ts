/**
 * What the portal keeps of the device grant (docs/oidc.md, Device grant) beside the provider's own
 * DeviceCode rows: per request, when its device last polled (`slow_down`) and how many wrong codes
 * were typed for it (the fifth voids it); and per `toolsctl` sign-in, which portal session its grant
 * belongs to (`oidc_cli_grants`), so that its tokens are that session's and end with it.
 */
import type { Knex } from 'knex';
import { LITERAL, preparedSelect, readPrepared } from '../../db/direct-reads.js';
import { isUniqueViolation } from '../../db/errors.js';
import { toCurrentUser, usersQuery } from '../users/users.js';
import type { GrantUser } from './openid-grants.js';

const TABLE = 'oidc_device_requests';

/** How often a device may poll the token endpoint (RFC 8628 `interval`, seconds). */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** Wrong codes typed for one request before it is voided. */
export const DEVICE_CODE_MAX_FAILURES = 5;

/** One device request: the provider's DeviceCode id and when it expires (ms). */
export interface DeviceRequestRef {
  id: string;
  expiresAt: number;
}

/**
 * Records a poll of the token endpoint; false when it came sooner than the interval after the
 * last one (the answer is then `slow_down`). Every poll counts, the refused ones too, so a device
 * that keeps polling too fast keeps being told so. A conditional update first, so that two
 * instances answering two quick polls agree: one poll per interval passes.
 */
export async function recordPoll(db: Knex, request: DeviceRequestRef, now: number): Promise<boolean> {
  const earliest = now - DEVICE_POLL_INTERVAL_SECONDS * 1000;
  const updated = await db(TABLE)
    .where({ id: request.id })
    .andWhere((where) => where.whereNull('polled_at').orWhere('polled_at', '<=', earliest))
    .update({ polled_at: now });
  if (updated > 0) return true;
  if ((await db(TABLE).where({ id: request.id }).update({ polled_at: now })) > 0) return false;
  try {
    await db(TABLE).insert({ id: request.id, polled_at: now, failures: 0, expires_at: request.expiresAt });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Counts a wrong code typed for a request; answers how many it has now. */
export async function countWrongCode(db: Knex, request: DeviceRequestRef): Promise<number> {
  const updated = await db(TABLE).where({ id: request.id }).increment('failures', 1);
  if (updated === 0) {
    try {
      await db(TABLE).insert({ id: request.id, polled_at: null, failures: 1, expires_at: request.expiresAt });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await db(TABLE).where({ id: request.id }).increment('failures', 1);
    }
  }
  const row = await db(TABLE).where({ id: request.id }).first('failures');
  return Number(row?.failures ?? 0);
}

/** Takes the one decision of a request (allow, deny or void): false when it was taken already. */
export async function decide(db: Knex, request: DeviceRequestRef, now: number): Promise<boolean> {
  const updated = await db(TABLE).where({ id: request.id }).whereNull('decided_at').update({ decided_at: now });
  if (updated > 0) return true;
  if (await db(TABLE).where({ id: request.id }).first('id')) return false;
  try {
    await db(TABLE).insert({ id: request.id, polled_at: null, failures: 0, decided_at: now, expires_at: request.expiresAt });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** The codes of device requests still open (the provider's rows; `after`: stored expiry past this, ms). */
export async function openDeviceCodes(db: Knex, after: number): Promise<{ id: string; userCode: string; expiresAt: number }[]> {
  const rows: { id: string; user_code: string; expires_at: number | string }[] = await db('oidc_payloads')
    .where({ model: 'DeviceCode' })
    .whereNotNull('user_code')
    .andWhere('expires_at', '>', after)
    .whereNull('consumed_at')
    .select('id', 'user_code', 'expires_at')
    .limit(1000);
  return rows.map((row) => ({ id: row.id, userCode: row.user_code, expiresAt: Number(row.expires_at) }));
}

/** Records that a `toolsctl` grant was made for a portal session; it ends with the session. */
export async function bindCliGrant(db: Knex, grant: { grantId: string; sessionId: number; userId: number; expiresAt: number }): Promise<void> {
  await db('oidc_cli_grants').insert({ grant_id: grant.grantId, session_id: grant.sessionId, user_id: grant.userId, expires_at: grant.expiresAt });
}

const USER_OF_CLI_GRANT = preparedSelect((db, grantId: string, userId: number) =>
  usersQuery(db)
    .join('oidc_cli_grants', 'oidc_cli_grants.user_id', 'users.id')
    .join('sessions', 'sessions.id', 'oidc_cli_grants.session_id')
    .where('oidc_cli_grants.grant_id', grantId)
    .andWhere('users.id', userId)
    .select('sessions.expires_at', 'sessions.last_seen_at', 'users.email_verified_at')
    .limit(1, LITERAL),
);

/** The user of a `toolsctl` grant, when it is this user's and its portal session still exists. */
export async function cliGrantUser(db: Knex, grantId: string, userId: number): Promise<Omit<GrantUser, 'appId' | 'appName'> | undefined> {
  const [row] = await readPrepared<
    Parameters<typeof toCurrentUser>[0] & { expires_at: number; last_seen_at: number; email_verified_at: unknown },
    [string, number]
  >(db, USER_OF_CLI_GRANT, [grantId, userId]);
  if (!row) return undefined;
  return {
    user: { ...toCurrentUser(row), emailVerified: row.email_verified_at !== null },
    session: { expires_at: row.expires_at, last_seen_at: row.last_seen_at },
  };
}
