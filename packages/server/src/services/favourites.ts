/** A user's favourite apps, shown first in their app list. Only apps the user may use. */
import { notFound } from '@tools-portal/core';
import type { Knex } from 'knex';
import { mayUseAppNow } from './apps.js';

export async function setFavourite(db: Knex, user: { id: number; admin: boolean }, appId: number, favourite: boolean): Promise<void> {
  if (!favourite) {
    await db('favourites').where({ user_id: user.id, app_id: appId }).delete();
    return;
  }
  // A user cannot tell an app it may not use from one that does not exist.
  if (!(await mayUseAppNow(db, user, appId))) throw notFound('app', appId);
  await db('favourites').insert({ user_id: user.id, app_id: appId }).onConflict(['user_id', 'app_id']).ignore();
}
