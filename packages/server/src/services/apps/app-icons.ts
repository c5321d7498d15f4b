/** Apps' icons (docs/api.md, Icons): stored apart from the apps, served with a versioned URL. */
import { ApiError, invalidInput, notFound, type ManagedApp } from '@tools-portal/core';
import type { Knex } from 'knex';
import { getApp } from './apps.js';
import { logEvent } from '../log/audit.js';
import type { ServiceContext } from '../support/context.js';
import { checkIcon, ICON_TYPES, MAX_ICON_BYTES } from './icon-images.js';

export interface StoredIcon {
  contentType: string;
  data: Buffer;
  version: string;
}

/** Checks and stores an icon; the declared content type must be what the bytes are. */
export async function setIcon(ctx: ServiceContext, { appId, declaredType, data }: { appId: number; declaredType: string; data: Buffer }): Promise<ManagedApp> {
  if (data.length > MAX_ICON_BYTES) throw new ApiError('payload_too_large', `icon: is larger than the ${MAX_ICON_BYTES / 1024} KB limit`, { field: 'icon' });
  const type = declaredType.split(';')[0].trim().toLowerCase();
  if (type === 'image/svg+xml') throw invalidInput('icon', 'SVG is not accepted: use PNG, JPEG or WebP');
  if (!(ICON_TYPES as readonly string[]).includes(type)) throw invalidInput('icon', 'Content-Type must be image/png, image/jpeg or image/webp');
  const check = checkIcon(data);
  if (!check.ok) throw invalidInput('icon', check.reason);
  if (check.type !== type) throw invalidInput('icon', `is ${check.type}, not ${type}`);
  return ctx.db.transaction(async (trx) => {
    const app = await getApp(trx, appId);
    const before = await trx('apps').where({ id: appId }).first('icon_version');
    // A new version at every change, never one used before (the old URL may sit in caches).
    const version = Math.max(ctx.now(), Number(before?.icon_version ?? 0) + 1);
    await trx('app_icons').where({ app_id: appId }).delete();
    await trx('app_icons').insert({ app_id: appId, content_type: check.type, data });
    await trx('apps').where({ id: appId }).update({ icon_version: version });
    await logEvent(trx, ctx, { type: 'app.icon', event: `set the icon of app ${app.name}` });
    return getApp(trx, appId);
  });
}

export async function removeIcon(ctx: ServiceContext, appId: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const app = await getApp(trx, appId);
    if (app.icon === null) throw notFound('icon of app', appId);
    await trx('app_icons').where({ app_id: appId }).delete();
    await trx('apps').where({ id: appId }).update({ icon_version: null });
    await logEvent(trx, ctx, { type: 'app.icon', event: `removed the icon of app ${app.name}` });
  });
}

export async function readIcon(db: Knex, appId: number): Promise<StoredIcon | undefined> {
  const row = await db('app_icons')
    .join('apps', 'apps.id', 'app_icons.app_id')
    .where('app_icons.app_id', appId)
    .first('app_icons.content_type', 'app_icons.data', 'apps.icon_version');
  return row && { contentType: row.content_type, data: Buffer.from(row.data), version: String(row.icon_version) };
}
