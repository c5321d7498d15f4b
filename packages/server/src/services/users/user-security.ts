/**
 * What an admin's user page shows about a user's sign-ins (docs/api.md, Users): created, the last
 * successful sign-in the event log holds, second factors, live sessions and API keys. Counts and
 * times only: nothing secret leaves.
 */
import { notFound, type UserSecurity } from '@tools-portal/core';
import type { Knex } from 'knex';

/** The event types of a finished sign-in (core/src/events.ts). */
const SIGN_IN_TYPES = ['login.success', 'passkey.login', 'google.login', 'register.password', 'register.google', 'password.reset'];

async function count(query: Knex.QueryBuilder): Promise<number> {
  const row = (await query.count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

export async function userSecurity(db: Knex, id: number, now = Date.now()): Promise<UserSecurity> {
  const user: { email: string; created_at: number | string } | undefined = await db('users').where({ id }).first('email', 'created_at');
  if (!user) throw notFound('user', id);
  const [lastSignIn, totp, passkeys, sessions, apiKeys] = await Promise.all([
    db('auth_log').whereRaw('lower("user") = ?', [user.email.toLowerCase()]).whereIn('type', SIGN_IN_TYPES).orderBy('at', 'desc').first('at') as Promise<
      { at: number | string } | undefined
    >,
    db('user_totp').where({ user_id: id }).whereNotNull('confirmed_at').first('user_id'),
    count(db('passkeys').where({ user_id: id })),
    count(db('sessions').where({ user_id: id }).andWhere('expires_at', '>', now)),
    count(db('api_keys').where({ user_id: id })),
  ]);
  return {
    createdTimestamp: new Date(Number(user.created_at)).toISOString(),
    lastSignInTimestamp: lastSignIn ? new Date(Number(lastSignIn.at)).toISOString() : null,
    totp: Boolean(totp),
    passkeys,
    sessions,
    apiKeys,
  };
}
