import { byName, type Team } from '@tools-portal/core';
import type { Context } from '../context.js';
import type { Result } from '../output.js';
import { done, teamList, teamRecord } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { findApps, findTeam, findUsers } from '../resolve.js';
import { expiryOption } from './users.js';

export async function list(ctx: Context): Promise<Result> {
  return teamList([...(await (await ctx.client()).teams.list())].sort(byName));
}

async function record(ctx: Context, team: Team, message?: string): Promise<Result> {
  const api = await ctx.client();
  const [members, apps] = await Promise.all([api.teams.users(team.id), api.teams.apps(team.id)]);
  return teamRecord({ team, members, apps }, message);
}

export async function show(ctx: Context, ref: string): Promise<Result> {
  return record(ctx, await findTeam(await ctx.client(), ref));
}

export async function create(ctx: Context, name: string, options: { description?: string }): Promise<Result> {
  const team = await (await ctx.client()).teams.create({ name, description: options.description ?? '' });
  return record(ctx, team, `created new team ${team.name} (id ${team.id})`);
}

export async function rename(ctx: Context, { team: ref, name }: { team: string; name: string }): Promise<Result> {
  const api = await ctx.client();
  const team = await findTeam(api, ref);
  const renamed = await api.teams.update({ id: team.id, name });
  return record(ctx, renamed, `renamed team ${team.name} to ${renamed.name}`);
}

export async function remove(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const api = await ctx.client();
  const team = await findTeam(api, ref);
  await confirmOrRefuse(`delete team ${team.name} (id ${team.id}) with its memberships and grants`, options.yes);
  await api.teams.delete(team.id);
  return done(`deleted team ${team.name}`, { deleted: team }, [team.id]);
}

export async function addUsers(ctx: Context, { team: ref, users: userRefs, ...options }: { team: string; users: string[]; expires?: string }): Promise<Result> {
  const expires = expiryOption(options.expires);
  const api = await ctx.client();
  const team = await findTeam(api, ref);
  const targets = await findUsers(api, userRefs);
  for (const user of targets) await api.teams.addUser(team.id, { userid: user.id, ...(expires ? { expires } : {}) });
  const until = expires ? ` until ${expires}` : '';
  return done(
    targets.map((user) => `added ${user.email} to team ${team.name}${until}`).join('\n'),
    { team, users: targets, ...(expires ? { expires } : {}) },
    targets.map((user) => user.id),
  );
}

export async function removeUsers(ctx: Context, { team: ref, users: userRefs }: { team: string; users: string[] }): Promise<Result> {
  const api = await ctx.client();
  const team = await findTeam(api, ref);
  const targets = await findUsers(api, userRefs);
  for (const user of targets) await api.teams.removeUser(team.id, user.id);
  return done(
    targets.map((user) => `removed ${user.email} from team ${team.name}`).join('\n'),
    { team, users: targets },
    targets.map((user) => user.id),
  );
}

export async function grant(
  ctx: Context,
  { team: ref, apps: appRefs, ...options }: { team: string; apps: string[]; role?: string; expires?: string },
): Promise<Result> {
  const expires = expiryOption(options.expires);
  const api = await ctx.client();
  const team = await findTeam(api, ref);
  const targets = await findApps(api, appRefs);
  for (const app of targets)
    await api.teams.grant(team.id, { appid: app.id, ...(options.role ? { role: options.role } : {}), ...(expires ? { expires } : {}) });
  const role = options.role ? ` as ${options.role}` : '';
  return done(
    targets.map((app) => `granted app ${app.name} to team ${team.name}${role}${expires ? ` until ${expires}` : ''}`).join('\n'),
    { team, apps: targets, ...(options.role ? { role: options.role } : {}), ...(expires ? { expires } : {}) },
    targets.map((app) => app.id),
  );
}

export async function revoke(ctx: Context, { team: ref, apps: appRefs }: { team: string; apps: string[] }): Promise<Result> {
  const api = await ctx.client();
  const team = await findTeam(api, ref);
  const targets = await findApps(api, appRefs);
  for (const app of targets) await api.teams.revoke(team.id, app.id);
  return done(
    targets.map((app) => `revoked app ${app.name} from team ${team.name}`).join('\n'),
    { team, apps: targets },
    targets.map((app) => app.id),
  );
}
