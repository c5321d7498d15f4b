import {
  API_PREFIX,
  conflict,
  invalidInput,
  notFound,
  originOf,
  type App,
  type AppInput,
  type AppUpdate,
  type GrantedApp,
  type ListedApp,
} from '@tools-portal/core';
import type { Knex } from 'knex';
import { preparedSelect, readPrepared } from '../../db/direct-reads.js';
import { logEvent, type Audit } from '../log/audit.js';
import type { ServiceContext } from '../support/context.js';
import { getUser } from '../users/users.js';

const APP_COLUMNS = [
  'apps.id',
  'apps.name',
  'apps.url',
  'apps.description',
  'apps.description_de',
  'apps.doclink',
  'apps.category',
  'apps.requestable',
  'apps.icon_version',
];

interface AppRow {
  id: number;
  name: string;
  url: string;
  description: string;
  description_de: string;
  doclink: string;
  category: string;
  requestable: boolean | number;
  icon_version: number | string | null;
}

/** The path of an app's icon; the version makes every change a new URL (docs/api.md, Icons). */
function iconPath(appId: number, version: number | string | null): string | null {
  return version === null || version === undefined ? null : `${API_PREFIX}/app/${appId}/icon?v=${version}`;
}

/** The presenter of an app: these fields and no others leave the server. */
function toApp(row: AppRow): App {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    description: row.description,
    descriptionDe: row.description_de,
    doclink: row.doclink,
    category: row.category,
    requestable: Boolean(row.requestable),
    icon: iconPath(row.id, row.icon_version),
  };
}

/** A grant counts while it has no expiry or its expiry is still ahead. */
export function grantIsLive(query: Knex.QueryBuilder, now: number): Knex.QueryBuilder {
  return query.where((where) => where.whereNull('user_apps.expires_at').orWhere('user_apps.expires_at', '>', now));
}

const isoOrUndefined = (ms: number | string | null | undefined) => (ms === null || ms === undefined ? undefined : new Date(Number(ms)).toISOString());

export async function listApps(db: Knex): Promise<App[]> {
  const rows: AppRow[] = await db('apps').select(APP_COLUMNS).orderBy('apps.name');
  return rows.map(toApp);
}

/** The apps granted to a user, with the grant's expiry where it has one. Expired grants are gone. */
export async function appsOfUser(db: Knex, userId: number, now = Date.now()): Promise<GrantedApp[]> {
  const rows: (AppRow & { expires_at: number | string | null })[] = await grantIsLive(
    db('apps').join('user_apps', 'user_apps.app_id', 'apps.id').where('user_apps.user_id', userId),
    now,
  )
    .select([...APP_COLUMNS, 'user_apps.expires_at'])
    .orderBy('apps.name');
  return rows.map((row) => {
    const expires = isoOrUndefined(row.expires_at);
    return expires ? { ...toApp(row), expires } : toApp(row);
  });
}

// `GET /app/` on every visit of the launcher: compiled once, remembered until the database changes.
const listedApps = (db: Knex, userId: number) =>
  db('apps')
    .leftJoin('favourites', (join) => join.on('favourites.app_id', '=', 'apps.id').andOn('favourites.user_id', '=', db.raw('?', [userId])))
    .select([...APP_COLUMNS, 'favourites.user_id as favourite'])
    .orderBy('apps.name');
// Remembered until the database changes (db/direct-reads.ts).
const EVERY_APP_LISTED = preparedSelect((db, userId: number) => listedApps(db, userId), { remember: true });
const GRANTED_APPS_LISTED = preparedSelect(
  (db, userId: number) =>
    listedApps(db, userId).join('user_apps', 'user_apps.app_id', 'apps.id').where('user_apps.user_id', userId).select('user_apps.expires_at'),
  { remember: true },
);

type ListedRow = AppRow & { favourite: number | null; expires_at?: number | string | null };

// The list made of a remembered set of rows, until the first of its grants expires: the same
// (frozen) array for as long, so that its encoded answer is made once too (routes/apps.ts).
const listsOfRows = new WeakMap<readonly ListedRow[], { list: readonly ListedApp[]; until: number }>();

/** The caller's app list (`GET /app/`): every app for admins, else the live grants; with favourites. */
export async function appListOf(db: Knex, user: { id: number; admin: boolean }, now = Date.now()): Promise<readonly ListedApp[]> {
  const rows = await readPrepared<ListedRow, [number]>(db, user.admin ? EVERY_APP_LISTED : GRANTED_APPS_LISTED, [user.id]);
  const known = listsOfRows.get(rows);
  if (known && now < known.until) return known.list;
  // Expiry is judged here, not in the query, so that the rows can be remembered.
  const listed: ListedApp[] = [];
  let until = Infinity;
  for (const row of rows) {
    const expires = row.expires_at === undefined || row.expires_at === null ? Infinity : Number(row.expires_at);
    if (expires > now) {
      listed.push(Object.assign(toApp(row), { favourite: row.favourite !== null }));
      until = Math.min(until, expires);
    }
  }
  const list = Object.freeze(listed);
  listsOfRows.set(rows, { list, until });
  return list;
}

export async function getApp(db: Knex, id: number): Promise<App> {
  const row: AppRow | undefined = await db('apps').select(APP_COLUMNS).where('apps.id', id).first();
  if (!row) throw notFound('app', id);
  return toApp(row);
}

/** Whether a user may see an app (its icon, its favourite star): admins all, others a live grant. */
export async function mayUseAppNow(ctx: ServiceContext & { actor: { id: number; admin: boolean } }, appId: number): Promise<boolean> {
  const { db, actor: user } = ctx;
  if (user.admin) return (await db('apps').where('id', appId).first('id')) !== undefined;
  const grant = await grantIsLive(db('user_apps').where({ user_id: user.id, app_id: appId }), ctx.now()).first('app_id');
  return grant !== undefined;
}

/** Origins of every registered app. */
export async function appOrigins(db: Knex): Promise<Set<string>> {
  return originsOf(await db('apps').select('url'));
}

/** Origins of the apps a user may use now (admins every app, others live grants): where a sign-in may send them. */
export async function appOriginsOf(db: Knex, user: { id: number; admin: boolean }, now = Date.now()): Promise<Set<string>> {
  if (user.admin) return appOrigins(db);
  return originsOf(await grantIsLive(db('apps').join('user_apps', 'user_apps.app_id', 'apps.id').where('user_apps.user_id', user.id), now).select('apps.url'));
}

const originsOf = (rows: { url: string }[]) => new Set(rows.map((row) => originOf(row.url)).filter((origin): origin is string => origin !== null));

type AppFields = Required<Omit<AppInput, 'id'>>;

export async function createApp(db: Knex, audit: Audit, input: AppFields): Promise<App> {
  const { name, url, description, descriptionDe, doclink, category, requestable } = input;
  return await db.transaction(async (trx) => {
    const [row] = await trx('apps')
      .insert({ name, url, description, description_de: descriptionDe, doclink, category, requestable, created_at: Date.now() })
      .returning('id');
    await logEvent(trx, audit, { type: 'app.create', event: `created app ${name}` });
    return getApp(trx, row.id);
  });
}

export async function updateApp(
  db: Knex,
  audit: Audit,
  input: Omit<AppUpdate, 'description' | 'doclink'> & { description: string; doclink: string },
): Promise<App> {
  const { id, name, url, description, descriptionDe, doclink, category, requestable } = input;
  return await db.transaction(async (trx) => {
    const before = await getApp(trx, id);
    if (before.name !== name && (await trx('oidc_clients').where({ app_id: id }).first('app_id'))) {
      throw conflict(`app ${before.name} is an OpenID Connect client: renaming it would change its client_id; turn OpenID Connect off first`);
    }
    const changes = {
      name,
      url,
      description,
      doclink,
      description_de: descriptionDe ?? before.descriptionDe,
      category: category ?? before.category,
      requestable: requestable ?? before.requestable,
    };
    await trx('apps').where({ id }).update(changes);
    const renamed = before.name === name ? '' : ` (was ${before.name})`;
    await logEvent(trx, audit, { type: 'app.update', event: `updated app ${name}${renamed}` });
    return getApp(trx, id);
  });
}

/** Deletes an app: every grant of it goes; the app's own data is not ours to touch. */
export async function deleteApp(db: Knex, audit: Audit, id: number): Promise<void> {
  await db.transaction(async (trx) => {
    const app = await getApp(trx, id);
    await trx('apps').where({ id }).delete();
    await logEvent(trx, audit, { type: 'app.delete', event: `deleted app ${app.name}` });
  });
}

/** An expiry given by a caller must lie ahead. */
export function checkFutureExpiry(expiresAt: number | null | undefined, now: number, field = 'expires'): void {
  if (expiresAt !== null && expiresAt !== undefined && expiresAt <= now) throw invalidInput(field, 'must be in the future');
}

const expirySuffix = (expiresAt: number | null | undefined) => (expiresAt ? `, expiring ${new Date(expiresAt).toISOString()}` : '');

/** A grant of an app to a user, with an optional expiry. */
interface GrantInput {
  userId: number;
  appId: number;
  expiresAt?: number;
}

export async function grantApp(ctx: ServiceContext, { userId, appId, expiresAt }: GrantInput): Promise<void> {
  checkFutureExpiry(expiresAt, ctx.now());
  await ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const app = await getApp(trx, appId);
    await insertGrant(trx, { user, app, expiresAt });
    await logEvent(trx, ctx, {
      type: 'grant.add',
      event: `granted app ${app.name} to ${user.email}${expirySuffix(expiresAt)}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}

/**
 * Inserts a grant. A grant that exists already fails on the primary key (conflict), unless it
 * has expired and awaits removal: then it is replaced.
 */
export async function insertGrant(
  trx: Knex,
  { user, app, expiresAt }: { user: { id: number; email: string }; app: { id: number; name: string }; expiresAt: number | undefined },
): Promise<void> {
  await trx('user_apps').where({ user_id: user.id, app_id: app.id }).where('expires_at', '<=', Date.now()).delete();
  await trx('user_apps').insert({ user_id: user.id, app_id: app.id, expires_at: expiresAt ?? null });
}

/** Changes an existing, live grant's expiry (null: none). */
export async function setGrantExpiry(
  ctx: ServiceContext,
  { userId, appId, expiresAt }: { userId: number; appId: number; expiresAt: number | null },
): Promise<void> {
  const now = ctx.now();
  checkFutureExpiry(expiresAt, now);
  await ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const app = await getApp(trx, appId);
    const changed = await grantIsLive(trx('user_apps').where({ user_id: userId, app_id: appId }), now).update({ expires_at: expiresAt });
    if (changed === 0) throw notFound(`grant of app ${app.name} to user`, user.email);
    const what = expiresAt === null ? 'no longer expires' : `expires ${new Date(expiresAt).toISOString()}`;
    await logEvent(trx, ctx, {
      type: 'grant.update',
      event: `grant of app ${app.name} to ${user.email} ${what}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}

export async function revokeApp(ctx: ServiceContext, { userId, appId }: { userId: number; appId: number }): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const app = await getApp(trx, appId);
    const removed = await grantIsLive(trx('user_apps').where({ user_id: userId, app_id: appId }), ctx.now()).delete();
    if (removed === 0) throw notFound(`grant of app ${app.name} to user`, user.email);
    await logEvent(trx, ctx, {
      type: 'grant.remove',
      event: `revoked app ${app.name} from ${user.email}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}

/** Ids of the apps a user may use now: one lookup on the grants' primary key, expired grants left out. */
export async function grantedAppIds(db: Knex, userId: number, now = Date.now()): Promise<number[]> {
  const rows: { app_id: number }[] = await grantIsLive(db('user_apps').where('user_id', userId), now).select('app_id');
  return rows.map((row) => Number(row.app_id));
}
