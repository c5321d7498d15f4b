import { isAdmin, isLanguage, notFound, type AppUser, type CurrentUser, type Language, type User } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent } from '../log/audit.js';
import type { ServiceContext, ActorContext } from '../support/context.js';

export interface UserRow {
  id: number;
  email: string;
  name: string;
  client_id: number;
  client_name: string;
}

/** Users joined with their client: the base of every user query. */
export function usersQuery(db: Knex) {
  return db('users')
    .join('clients', 'clients.id', 'users.client_id')
    .select('users.id', 'users.email', 'users.name', 'users.client_id', 'clients.name as client_name');
}

function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, name: row.name, client: { id: row.client_id, name: row.client_name } };
}

export function toCurrentUser(row: UserRow): CurrentUser {
  const user = toUser(row);
  return { ...user, admin: isAdmin(user) };
}

/** The user as a principal sees itself, e.g. right after creating it. */
export async function currentUserById(db: Knex, id: number): Promise<CurrentUser> {
  return toCurrentUser(await usersQuery(db).where('users.id', id).first());
}

export async function listUsers(db: Knex): Promise<User[]> {
  const rows: UserRow[] = await usersQuery(db).orderBy('users.email');
  return rows.map(toUser);
}

export async function getUser(db: Knex, id: number): Promise<User> {
  const row: UserRow | undefined = await usersQuery(db).where('users.id', id).first();
  if (!row) throw notFound('user', id);
  return toUser(row);
}

/**
 * Records that the user proved the mailbox of `email` (docs/oidc.md, `email_verified`): a link
 * sent there by mail was used, or Google vouched for that address. Only while the user still has
 * that email; the first proof's time is kept.
 */
export async function markEmailVerified(db: Knex, { userId, email, now = Date.now() }: { userId: number; email: string; now?: number }): Promise<void> {
  await db('users').where({ id: userId, email }).whereNull('email_verified_at').update({ email_verified_at: now });
}

export async function findUserByEmail(db: Knex, email: string): Promise<UserRow | undefined> {
  return usersQuery(db).where('users.email', email.trim().toLowerCase()).first();
}

export async function usersOfClient(db: Knex, clientId: number): Promise<User[]> {
  const rows: UserRow[] = await usersQuery(db).where('users.client_id', clientId).orderBy('users.email');
  return rows.map(toUser);
}

/** Users with a live grant of an app, with the grant's expiry where it has one. */
export async function usersOfApp(db: Knex, appId: number, now = Date.now()): Promise<AppUser[]> {
  const rows: (UserRow & { expires_at: number | string | null })[] = await usersQuery(db)
    .join('user_apps', 'user_apps.user_id', 'users.id')
    .where('user_apps.app_id', appId)
    .where((where) => where.whereNull('user_apps.expires_at').orWhere('user_apps.expires_at', '>', now))
    .select('user_apps.expires_at')
    .orderBy('users.email');
  return rows.map((row) => (row.expires_at === null ? toUser(row) : { ...toUser(row), expires: new Date(Number(row.expires_at)).toISOString() }));
}

/** Deletes a user's credentials: sessions, API keys and grants go with it (foreign keys). */
export async function deleteUser(ctx: ServiceContext, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, id);
    await trx('users').where({ id }).delete();
    await logEvent(trx, ctx, { type: 'user.delete', event: `deleted user ${user.email}`, subject: { client: user.client.name, user: user.email } });
  });
}

/** An admin's "end sessions": every session of the user stops working at once. */
export async function endUserSessions(ctx: ServiceContext, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, id);
    const ended = await trx('sessions').where({ user_id: id }).delete();
    await logEvent(trx, ctx, {
      type: 'session.end_all',
      event: `ended ${ended} sessions of ${user.email}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}

/** The language the user chose on Account; null: their browser decides (docs/api.md, `PUT /user/me`). */
export async function languageOf(db: Knex, userId: number): Promise<Language | null> {
  const row: { language: string | null } | undefined = await db('users').where({ id: userId }).first('language');
  return isLanguage(row?.language) ? row.language : null;
}

/** The caller chooses their language, or null to follow the browser; logged when it changes. */
export async function setLanguage(ctx: ActorContext, language: Language | null): Promise<void> {
  const { actor } = ctx;
  await ctx.db.transaction(async (trx) => {
    const changed = await trx('users')
      .where({ id: actor.id })
      .where((where) => (language === null ? where.whereNotNull('language') : where.whereNull('language').orWhereNot('language', language)))
      .update({ language });
    if (changed === 0) return;
    await logEvent(trx, ctx, {
      type: 'account.language',
      event: language === null ? 'language: follow the browser' : `language: ${language}`,
      subject: { client: actor.client.name, user: actor.email },
    });
  });
}
