/** A user's favourite apps, shown first in their app list. Only apps the user may use. */
import { notFound } from '@tools-portal/core';
import { mayUseAppNow } from '../apps/apps.js';
import type { ServiceContext } from '../support/context.js';

/** Marks or unmarks `appId` as a favourite of the acting user. */
export async function setFavourite(
  ctx: ServiceContext & { actor: { id: number; admin: boolean } },
  { appId, favourite }: { appId: number; favourite: boolean },
): Promise<void> {
  const { db, actor: user } = ctx;
  if (!favourite) {
    await db('favourites').where({ user_id: user.id, app_id: appId }).delete();
    return;
  }
  // A user cannot tell an app it may not use from one that does not exist.
  if (!(await mayUseAppNow(ctx, appId))) throw notFound('app', appId);
  await db('favourites').insert({ user_id: user.id, app_id: appId }).onConflict(['user_id', 'app_id']).ignore();
}
