/**
 * Whom an app's owners may name when they grant it (docs/product.md, Teams, app roles and
 * owners): a user by exact email, and the teams. Admins and the app's owners only, refused (403)
 * before anything is read; the answers carry ids and names, nothing else of a user or a team.
 */
import { notFound, type GrantableTeam, type GrantableUser } from '@tools-portal/core';
import { assertManagesApp } from './app-owners.js';
import { getAppSummary } from './apps.js';
import type { ActorContext } from '../support/context.js';

/** The user whose email is exactly `email` (core's `email`: a whole address, lower-cased), else 404. */
export async function grantableUser(ctx: ActorContext, { appId, email }: { appId: number; email: string }): Promise<GrantableUser> {
  await assertManagesApp(ctx, appId);
  await getAppSummary(ctx.db, appId);
  const row: { id: number; email: string } | undefined = await ctx.db('users').where({ email }).first('id', 'email');
  if (!row) throw notFound('user', email);
  return { id: Number(row.id), email: row.email };
}

/** Every team, by name: an owner may grant their app to any team. */
export async function grantableTeams(ctx: ActorContext, appId: number): Promise<GrantableTeam[]> {
  await assertManagesApp(ctx, appId);
  await getAppSummary(ctx.db, appId);
  const rows: { id: number; name: string }[] = await ctx.db('teams').select('id', 'name').orderBy('name');
  return rows.map((row) => ({ id: Number(row.id), name: row.name }));
}
