import {
  API_PREFIX,
  conflict,
  invalidInput,
  notFound,
  originOf,
  type ManagedApp,
  type AppInput,
  type AppOwners,
  type App as AppSummary,
  type AppUpdate,
  type GrantedApp,
  type ListedApp,
} from '@tools-portal/core';
import type { Knex } from 'knex';
import { preparedSelect, readPrepared } from '../../db/direct-reads.js';
import { accessOf, hasAccessNow, isLive } from '../access/app-access.js';
import { lastUsesOfUser } from '../access/last-use.js';
import { logEvent } from '../log/audit.js';
import { withDb, type ServiceContext, type ActorContext } from '../support/context.js';
import { getUser } from '../users/users.js';
import { assertManagesApp, ownersOf, setOwners } from './app-owners.js';
import { conformGrantsToRoles, grantRole, rolesOf } from './app-roles.js';

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
  'apps.roles',
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
  roles: string | null;
}

/** The path of an app's icon; the version makes every change a new URL (docs/api.md, Icons). */
function iconPath(appId: number, version: number | string | null): string | null {
  return version === null || version === undefined ? null : `${API_PREFIX}/app/${appId}/icon?v=${version}`;
}

/** The presenter of an app: these fields and no others leave the server. */
function toApp(row: AppRow): AppSummary {
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
    roles: rolesOf(row.roles),
  };
}

/** A direct grant counts while it has no expiry or its expiry is still ahead. */
export function grantIsLive(query: Knex.QueryBuilder, now: number): Knex.QueryBuilder {
  return isLive(query, 'user_apps.expires_at', now);
}

const isoOrUndefined = (ms: number | string | null | undefined) => (ms === null || ms === undefined ? undefined : new Date(Number(ms)).toISOString());

export async function listApps(db: Knex): Promise<AppSummary[]> {
  const rows: AppRow[] = await db('apps').select(APP_COLUMNS).orderBy('apps.name');
  return rows.map(toApp);
}

/**
 * The apps a user may use (directly or through teams), with when that access ends where it does,
 * the user's roles and where the access comes from (`direct` and/or team names).
 */
export async function appsOfUser(db: Knex, userId: number, now = Date.now()): Promise<GrantedApp[]> {
  const access = await accessOf(db, userId, now);
  if (access.apps.size === 0) return [];
  const lastUses = await lastUsesOfUser(db, userId);
  const rows: AppRow[] = await db('apps')
    .whereIn('apps.id', [...access.apps.keys()])
    .select(APP_COLUMNS)
    .orderBy('apps.name');
  return rows.map((row) => {
    const { roles, sources, expiresAt } = access.apps.get(Number(row.id))!;
    const expires = isoOrUndefined(expiresAt);
    const lastUsed = isoOrUndefined(lastUses.get(Number(row.id)) ?? null);
    const granted = {
      ...toApp(row),
      grantedRoles: [...roles],
      sources: sources.map((source) => source.team?.name ?? 'direct'),
      ...(lastUsed ? { lastUsed } : {}),
    };
    return expires ? { ...granted, expires } : granted;
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
// The earlier of a team grant's and its membership's expiry (NULL: never), judged after reading.
const TEAM_ACCESS_ENDS =
  'CASE WHEN team_apps.expires_at IS NULL THEN team_members.expires_at WHEN team_members.expires_at IS NULL THEN team_apps.expires_at ' +
  'WHEN team_apps.expires_at < team_members.expires_at THEN team_apps.expires_at ELSE team_members.expires_at END';
/** A user's grants, direct and through teams, expired ones included: one row per way in. */
const grantsOf = (db: Knex, userId: number) =>
  db
    .select('user_apps.app_id', 'user_apps.expires_at')
    .from('user_apps')
    .where('user_apps.user_id', userId)
    .unionAll((union) => {
      union
        .select('team_apps.app_id', db.raw(`${TEAM_ACCESS_ENDS} as expires_at`))
        .from('team_members')
        .join('team_apps', 'team_apps.team_id', 'team_members.team_id')
        .where('team_members.user_id', userId);
    })
    .as('access');
const GRANTED_APPS_LISTED = preparedSelect(
  (db, userId: number) => listedApps(db, userId).join(grantsOf(db, userId), 'access.app_id', 'apps.id').select('access.expires_at'),
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
  // Expiry is judged here, not in the query, so that the rows can be remembered. An app reached
  // through several grants is listed once; the list changes when any of its grants expires.
  const listed: ListedApp[] = [];
  const seen = new Set<number>();
  let until = Infinity;
  for (const row of rows) {
    const expires = row.expires_at === undefined || row.expires_at === null ? Infinity : Number(row.expires_at);
    if (expires > now) {
      until = Math.min(until, expires);
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      listed.push(Object.assign(toApp(row), { favourite: row.favourite !== null }));
    }
  }
  const list = Object.freeze(listed);
  listsOfRows.set(rows, { list, until });
  return list;
}

/** An app as lists show it, without its owners. */
export async function getAppSummary(db: Knex, id: number): Promise<AppSummary> {
  const row: AppRow | undefined = await db('apps').select(APP_COLUMNS).where('apps.id', id).first();
  if (!row) throw notFound('app', id);
  return toApp(row);
}

/** An app with its owners. */
export async function getApp(db: Knex, id: number): Promise<ManagedApp> {
  const app = await getAppSummary(db, id);
  return { ...app, owners: await ownersOf(db, id) };
}

/** `GET /app/{id}`: admins and the app's owners. */
export async function getManagedApp(ctx: ActorContext, id: number): Promise<ManagedApp> {
  await assertManagesApp(ctx, id);
  return getApp(ctx.db, id);
}

/** Whether a user may see an app (its icon, its favourite star): admins all, others a live grant, direct or through a team. */
export async function mayUseAppNow(ctx: ServiceContext & { actor: { id: number; admin: boolean } }, appId: number): Promise<boolean> {
  const { db, actor: user } = ctx;
  if (user.admin) return (await db('apps').where('id', appId).first('id')) !== undefined;
  return hasAccessNow(db, { userId: user.id, appId }, ctx.now());
}

/** Origins of every registered app. */
export async function appOrigins(db: Knex): Promise<Set<string>> {
  return originsOf(await db('apps').select('url'));
}

/** Origins of the apps a user may use now (admins every app, others live grants): where a sign-in may send them. */
export async function appOriginsOf(db: Knex, user: { id: number; admin: boolean }, now = Date.now()): Promise<Set<string>> {
  if (user.admin) return appOrigins(db);
  const ids = [...(await accessOf(db, user.id, now)).apps.keys()];
  return originsOf(ids.length === 0 ? [] : await db('apps').whereIn('id', ids).select('url'));
}

const originsOf = (rows: { url: string }[]) => new Set(rows.map((row) => originOf(row.url)).filter((origin): origin is string => origin !== null));

type AppFields = Omit<Required<Omit<AppInput, 'id'>>, 'roles' | 'owners'> & { roles?: string[]; owners?: AppOwners };

export async function createApp(ctx: ServiceContext, input: AppFields): Promise<ManagedApp> {
  const { name, url, description, descriptionDe, doclink, category, requestable, roles = [], owners } = input;
  return await ctx.db.transaction(async (trx) => {
    const [row] = await trx('apps')
      .insert({ name, url, description, description_de: descriptionDe, doclink, category, requestable, roles: JSON.stringify(roles), created_at: ctx.now() })
      .returning('id');
    const id = Number(row.id);
    await logEvent(trx, ctx, { type: 'app.create', event: `created app ${name}${roles.length > 0 ? ` with roles ${roles.join(', ')}` : ''}` });
    if (owners) await setOwners(withDb(ctx, trx), { app: { id, name }, owners });
    return getApp(trx, id);
  });
}

export async function updateApp(
  ctx: ServiceContext,
  input: Omit<AppUpdate, 'description' | 'doclink' | 'roles' | 'owners'> & { description: string; doclink: string; roles?: string[]; owners?: AppOwners },
): Promise<ManagedApp> {
  const { id, name, url, description, descriptionDe, doclink, category, requestable, roles, owners } = input;
  return await ctx.db.transaction(async (trx) => {
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
      roles: JSON.stringify(roles ?? before.roles),
    };
    await trx('apps').where({ id }).update(changes);
    const renamed = before.name === name ? '' : ` (was ${before.name})`;
    await logEvent(trx, ctx, { type: 'app.update', event: `updated app ${name}${renamed}` });
    if (roles && roles.join(',') !== before.roles.join(',')) {
      const moved = await conformGrantsToRoles(trx, { appId: id, roles });
      const list = roles.length > 0 ? roles.join(', ') : 'none';
      await logEvent(trx, ctx, { type: 'app.roles', event: `roles of app ${name} are now ${list}; ${moved} grants took the default role` });
    }
    if (owners) await setOwners(withDb(ctx, trx), { app: { id, name }, owners });
    return getApp(trx, id);
  });
}

/** Deletes an app: every grant of it goes; the app's own data is not ours to touch. */
export async function deleteApp(ctx: ServiceContext, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const app = await getApp(trx, id);
    await trx('apps').where({ id }).delete();
    await logEvent(trx, ctx, { type: 'app.delete', event: `deleted app ${app.name}` });
  });
}

/** An expiry given by a caller must lie ahead. */
export function checkFutureExpiry(expiresAt: number | null | undefined, now: number, field = 'expires'): void {
  if (expiresAt !== null && expiresAt !== undefined && expiresAt <= now) throw invalidInput(field, 'must be in the future');
}

export const expirySuffix = (expiresAt: number | null | undefined) => (expiresAt ? `, expiring ${new Date(expiresAt).toISOString()}` : '');
export const roleSuffix = (role: string | null | undefined) => (role ? ` as ${role}` : '');

/** A grant of an app to a user, with its role (else the app's default) and an optional expiry. */
interface GrantInput {
  userId: number;
  appId: number;
  role?: string;
  expiresAt?: number;
}

/** Grants an app to a user: admins, or the app's owners. */
export async function grantApp(ctx: ActorContext, { userId, appId, role, expiresAt }: GrantInput): Promise<void> {
  await assertManagesApp(ctx, appId);
  checkFutureExpiry(expiresAt, ctx.now());
  await ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const app = await getAppSummary(trx, appId);
    const granted = grantRole(app.roles, role);
    await insertGrant(trx, { user, app, role: granted, expiresAt, grantedBy: ctx.actor.email });
    await logEvent(trx, ctx, {
      type: 'grant.add',
      event: `granted app ${app.name} to ${user.email}${roleSuffix(granted)}${expirySuffix(expiresAt)}`,
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
  {
    user,
    app,
    role = null,
    expiresAt,
    grantedBy,
  }: {
    user: { id: number; email: string };
    app: { id: number; name: string };
    role?: string | null;
    expiresAt: number | undefined;
    /** The email of who granted it (reviews show it). */
    grantedBy?: string;
  },
): Promise<void> {
  await trx('user_apps').where({ user_id: user.id, app_id: app.id }).where('expires_at', '<=', Date.now()).delete();
  await trx('user_apps').insert({
    user_id: user.id,
    app_id: app.id,
    role,
    expires_at: expiresAt ?? null,
    granted_at: Date.now(),
    granted_by: grantedBy ?? null,
  });
}

/** Changes an existing, live grant's expiry (null: none) and/or role: admins, or the app's owners. */
export async function updateGrant(
  ctx: ActorContext,
  { userId, appId, expiresAt, role }: { userId: number; appId: number; expiresAt?: number | null; role?: string },
): Promise<void> {
  await assertManagesApp(ctx, appId);
  const now = ctx.now();
  checkFutureExpiry(expiresAt, now);
  await ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const app = await getAppSummary(trx, appId);
    const changes = {
      ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
      ...(role === undefined ? {} : { role: grantRole(app.roles, role) }),
    };
    const changed = await grantIsLive(trx('user_apps').where({ user_id: userId, app_id: appId }), now).update(changes);
    if (changed === 0) throw notFound(`grant of app ${app.name} to user`, user.email);
    await logEvent(trx, ctx, {
      type: 'grant.update',
      event: `grant of app ${app.name} to ${user.email} ${grantChange({ expiresAt, role })}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}

/** What a grant update changed, for the event log: `expires 2026-…, role editor`. */
export function grantChange({ expiresAt, role }: { expiresAt?: number | null; role?: string }): string {
  const parts: string[] = [];
  if (expiresAt !== undefined) parts.push(expiresAt === null ? 'no longer expires' : `expires ${new Date(expiresAt).toISOString()}`);
  if (role !== undefined) parts.push(`role ${role}`);
  return parts.join(', ');
}

/** Removes a user's direct grant of an app: admins, or the app's owners. */
export async function revokeApp(ctx: ActorContext, { userId, appId }: { userId: number; appId: number }): Promise<void> {
  await assertManagesApp(ctx, appId);
  await ctx.db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const app = await getAppSummary(trx, appId);
    const removed = await grantIsLive(trx('user_apps').where({ user_id: userId, app_id: appId }), ctx.now()).delete();
    if (removed === 0) throw notFound(`grant of app ${app.name} to user`, user.email);
    await logEvent(trx, ctx, {
      type: 'grant.remove',
      event: `revoked app ${app.name} from ${user.email}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}
