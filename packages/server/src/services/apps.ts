import { notFound, originOf, type App, type AppInput, type AppUpdate } from '@tools-portal/core';
import type { Knex } from 'knex';
import { logEvent, type Audit } from './audit.js';
import { getUser } from './users.js';

const APP_COLUMNS = ['apps.id', 'apps.name', 'apps.url', 'apps.description', 'apps.doclink'];

type AppFields = Omit<App, 'id'>;

export async function listApps(db: Knex): Promise<App[]> {
  return db('apps').select(APP_COLUMNS).orderBy('apps.name');
}

export async function appsOfUser(db: Knex, userId: number): Promise<App[]> {
  return db('apps')
    .join('user_apps', 'user_apps.app_id', 'apps.id')
    .where('user_apps.user_id', userId)
    .select(APP_COLUMNS)
    .orderBy('apps.name');
}

export async function getApp(db: Knex, id: number): Promise<App> {
  const app = await db('apps').select(APP_COLUMNS).where('apps.id', id).first();
  if (!app) throw notFound('app', id);
  return app;
}

export async function findAppByName(db: Knex, name: string): Promise<App | undefined> {
  return db('apps').select(APP_COLUMNS).where('apps.name', name).first();
}

/** Origins of every registered app: where a login may send the browser. */
export async function appOrigins(db: Knex): Promise<Set<string>> {
  const rows: { url: string }[] = await db('apps').select('url');
  return new Set(rows.map((row) => originOf(row.url)).filter((origin): origin is string => origin !== null));
}

export async function createApp(db: Knex, audit: Audit, input: AppFields): Promise<App> {
  return await db.transaction(async (trx) => {
    const [row] = await trx('apps').insert({ ...input, created_at: Date.now() }).returning('id');
    await logEvent(trx, audit, `created app ${input.name}`);
    return { id: row.id, ...input };
  });
}

export async function updateApp(db: Knex, audit: Audit, input: AppUpdate & AppFields): Promise<App> {
  const { id, name, url, description, doclink } = input;
  return await db.transaction(async (trx) => {
    const before = await getApp(trx, id);
    await trx('apps').where({ id }).update({ name, url, description, doclink });
    const renamed = before.name === name ? '' : ` (was ${before.name})`;
    await logEvent(trx, audit, `updated app ${name}${renamed}`);
    return { id, name, url, description, doclink };
  });
}

/** Deletes an app: every grant of it goes; the app's own data is not ours to touch. */
export async function deleteApp(db: Knex, audit: Audit, id: number): Promise<void> {
  await db.transaction(async (trx) => {
    const app = await getApp(trx, id);
    await trx('apps').where({ id }).delete();
    await logEvent(trx, audit, `deleted app ${app.name}`);
  });
}

export async function grantApp(db: Knex, audit: Audit, userId: number, appId: number): Promise<void> {
  await db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const app = await getApp(trx, appId);
    // A grant that exists already fails on the primary key: conflict.
    await trx('user_apps').insert({ user_id: userId, app_id: appId });
    await logEvent(trx, audit, `granted app ${app.name} to ${user.email}`, { client: user.client.name, user: user.email });
  });
}

export async function revokeApp(db: Knex, audit: Audit, userId: number, appId: number): Promise<void> {
  await db.transaction(async (trx) => {
    const user = await getUser(trx, userId);
    const app = await getApp(trx, appId);
    const removed = await trx('user_apps').where({ user_id: userId, app_id: appId }).delete();
    if (removed === 0) throw notFound(`grant of app ${app.name} to user`, user.email);
    await logEvent(trx, audit, `revoked app ${app.name} from ${user.email}`, { client: user.client.name, user: user.email });
  });
}

/** Ids of the apps granted to a user: one lookup on the grants' primary key. */
export async function grantedAppIds(db: Knex, userId: number): Promise<number[]> {
  const rows: { app_id: number }[] = await db('user_apps').where('user_id', userId).select('app_id');
  return rows.map((row) => Number(row.app_id));
}
