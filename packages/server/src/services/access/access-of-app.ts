/** `GET /app/{id}/access` (docs/api.md, Teams, roles and owners): everyone who may use an app, with roles and sources. */
import type { AppAccess } from '@tools-portal/core';
import { assertManagesApp } from '../apps/app-owners.js';
import { getAppSummary } from '../apps/apps.js';
import type { ActorContext } from '../support/context.js';
import { usersQuery, type UserRow } from '../users/users.js';
import { groupSources, sourcesOfApp } from './app-access.js';
import { lastUsesOfApp } from './last-use.js';

export async function accessToApp(ctx: ActorContext, appId: number): Promise<AppAccess[]> {
  await assertManagesApp(ctx, appId);
  await getAppSummary(ctx.db, appId);
  const [sources, lastUses] = await Promise.all([sourcesOfApp(ctx.db, appId, ctx.now()), lastUsesOfApp(ctx.db, appId)]);
  const byUser = new Map<number, typeof sources>();
  for (const source of sources) byUser.set(source.userId, [...(byUser.get(source.userId) ?? []), source]);
  if (byUser.size === 0) return [];
  const users: UserRow[] = await usersQuery(ctx.db)
    .where((where) =>
      where
        .whereIn('users.id', ctx.db('user_apps').where('app_id', appId).select('user_id'))
        .orWhereIn(
          'users.id',
          ctx.db('team_members').join('team_apps', 'team_apps.team_id', 'team_members.team_id').where('team_apps.app_id', appId).select('team_members.user_id'),
        ),
    )
    .orderBy('users.email');
  return users
    .filter((row) => byUser.has(Number(row.id)))
    .map((row) => {
      const access = groupSources(byUser.get(Number(row.id))!).get(appId)!;
      const lastUsed = lastUses.get(Number(row.id));
      return {
        ...(lastUsed === undefined ? {} : { lastUsed: new Date(lastUsed).toISOString() }),
        id: Number(row.id),
        email: row.email,
        name: row.name,
        client: { id: Number(row.client_id), name: row.client_name },
        roles: [...access.roles],
        sources: access.sources.map((source) => ({
          source: source.team?.name ?? 'direct',
          ...(source.team ? { team: source.team } : {}),
          role: source.role,
          ...(source.expiresAt === null ? {} : { expires: new Date(source.expiresAt).toISOString() }),
        })),
      };
    });
}
