/**
 * Teams (docs/product.md, Teams, app roles and owners): named sets of users of any client, whose
 * grants reach every unexpired member. Admins manage teams and memberships; an app's owners grant
 * and revoke their app to teams. Every change writes its event in the change's transaction.
 */
import { ApiError, foldName, notFound, type Team, type TeamApp, type TeamMember } from '@tools-portal/core';
import type { Knex } from 'knex';
import { isLive } from '../access/app-access.js';
import { assertManagesApp, managedAppIds } from '../apps/app-owners.js';
import { grantRole } from '../apps/app-roles.js';
import { checkFutureExpiry, expirySuffix, getAppSummary, grantChange, roleSuffix } from '../apps/apps.js';
import { logEvent } from '../log/audit.js';
import type { ServiceContext, ActorContext } from '../support/context.js';
import { getUser, usersQuery, type UserRow } from '../users/users.js';

const TEAM_COLUMNS = ['teams.id', 'teams.name', 'teams.description'];

const toTeam = (row: Team): Team => ({ id: Number(row.id), name: row.name, description: row.description });
const isoOf = (ms: number | string | null) => (ms === null ? undefined : new Date(Number(ms)).toISOString());

/** The teams a user is an unexpired member of, by name. */
export async function teamsOfUser(db: Knex, userId: number, now = Date.now()): Promise<{ id: number; name: string }[]> {
  const rows: { id: number; name: string }[] = await isLive(
    db('teams').join('team_members', 'team_members.team_id', 'teams.id').where('team_members.user_id', userId),
    'team_members.expires_at',
    now,
  )
    .select('teams.id', 'teams.name')
    .orderBy('teams.name');
  return rows.map((row) => ({ id: Number(row.id), name: row.name }));
}

/** `GET /team`: every team for admins, else the caller's own. */
export async function listTeams(ctx: ActorContext): Promise<Team[]> {
  const query = ctx.db('teams').select(TEAM_COLUMNS).orderBy('teams.name');
  if (!ctx.actor.admin) {
    isLive(query.join('team_members', 'team_members.team_id', 'teams.id').where('team_members.user_id', ctx.actor.id), 'team_members.expires_at', ctx.now());
  }
  return ((await query) as Team[]).map(toTeam);
}

async function getTeam(db: Knex, id: number): Promise<Team> {
  const row: Team | undefined = await db('teams').select(TEAM_COLUMNS).where('teams.id', id).first();
  if (!row) throw notFound('team', id);
  return toTeam(row);
}

const NOT_MEMBER = 'admins and the members of the team only';

/** `GET /team/{id}`: admins, or an unexpired member (others cannot tell a team that exists from one that does not). */
export async function getVisibleTeam(ctx: ActorContext, id: number): Promise<Team> {
  if (!ctx.actor.admin) {
    const member = await isLive(ctx.db('team_members').where({ team_id: id, user_id: ctx.actor.id }), 'team_members.expires_at', ctx.now()).first('team_id');
    if (!member) throw new ApiError('forbidden', NOT_MEMBER);
  }
  return getTeam(ctx.db, id);
}

/** `name` is trimmed and checked by core's `teamName`; unique as people compare names (`name_key`). */
export async function createTeam(ctx: ServiceContext, { name, description }: { name: string; description: string }): Promise<Team> {
  return await ctx.db.transaction(async (trx) => {
    const [row] = await trx('teams')
      .insert({ name, name_key: foldName(name), description, created_at: ctx.now() })
      .returning('id');
    await logEvent(trx, ctx, { type: 'team.create', event: `created team ${name}` });
    return getTeam(trx, Number(row.id));
  });
}

export async function updateTeam(ctx: ServiceContext, { id, name, description }: { id: number; name: string; description?: string }): Promise<Team> {
  return await ctx.db.transaction(async (trx) => {
    const before = await getTeam(trx, id);
    await trx('teams')
      .where({ id })
      .update({ name, name_key: foldName(name), description: description ?? before.description });
    const what = before.name === name ? `changed team ${name}` : `renamed team ${before.name} to ${name}`;
    await logEvent(trx, ctx, { type: 'team.update', event: what });
    return getTeam(trx, id);
  });
}

/** Deletes a team: its memberships, grants and ownerships go with it (foreign keys). */
export async function deleteTeam(ctx: ServiceContext, id: number): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const team = await getTeam(trx, id);
    const { count } = (await trx('team_members').where({ team_id: id }).count({ count: '*' }).first()) as { count: number | string };
    await trx('teams').where({ id }).delete();
    await logEvent(trx, ctx, { type: 'team.delete', event: `deleted team ${team.name} with ${Number(count)} memberships` });
  });
}

/** The unexpired members of a team, by email. */
export async function membersOf(ctx: ServiceContext, teamId: number): Promise<TeamMember[]> {
  await getTeam(ctx.db, teamId);
  const rows: (UserRow & { expires_at: number | string | null })[] = await isLive(
    usersQuery(ctx.db).join('team_members', 'team_members.user_id', 'users.id').where('team_members.team_id', teamId),
    'team_members.expires_at',
    ctx.now(),
  )
    .select('team_members.expires_at')
    .orderBy('users.email');
  return rows.map((row) => {
    const member = { id: Number(row.id), email: row.email, name: row.name, client: { id: Number(row.client_id), name: row.client_name } };
    const expires = isoOf(row.expires_at);
    return expires ? { ...member, expires } : member;
  });
}

interface MembershipInput {
  teamId: number;
  userId: number;
  expiresAt?: number;
}

/** Adds a user to a team; an expired membership awaiting removal is replaced, a live one is a conflict. */
export async function addMember(ctx: ServiceContext, { teamId, userId, expiresAt }: MembershipInput): Promise<void> {
  checkFutureExpiry(expiresAt, ctx.now());
  await ctx.db.transaction(async (trx) => {
    const team = await getTeam(trx, teamId);
    const user = await getUser(trx, userId);
    await trx('team_members').where({ team_id: teamId, user_id: userId }).where('expires_at', '<=', ctx.now()).delete();
    await trx('team_members').insert({ team_id: teamId, user_id: userId, expires_at: expiresAt ?? null });
    await logEvent(trx, ctx, {
      type: 'team.member_add',
      event: `added ${user.email} to team ${team.name}${expirySuffix(expiresAt)}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}

export async function setMemberExpiry(
  ctx: ServiceContext,
  { teamId, userId, expiresAt }: { teamId: number; userId: number; expiresAt: number | null },
): Promise<void> {
  const now = ctx.now();
  checkFutureExpiry(expiresAt, now);
  await ctx.db.transaction(async (trx) => {
    const team = await getTeam(trx, teamId);
    const user = await getUser(trx, userId);
    const changed = await isLive(trx('team_members').where({ team_id: teamId, user_id: userId }), 'expires_at', now).update({ expires_at: expiresAt });
    if (changed === 0) throw notFound(`member of team ${team.name}`, user.email);
    await logEvent(trx, ctx, {
      type: 'team.member_update',
      event: `membership of ${user.email} in team ${team.name} ${grantChange({ expiresAt })}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}

export async function removeMember(ctx: ServiceContext, { teamId, userId }: { teamId: number; userId: number }): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    const team = await getTeam(trx, teamId);
    const user = await getUser(trx, userId);
    const removed = await isLive(trx('team_members').where({ team_id: teamId, user_id: userId }), 'expires_at', ctx.now()).delete();
    if (removed === 0) throw notFound(`member of team ${team.name}`, user.email);
    await logEvent(trx, ctx, {
      type: 'team.member_remove',
      event: `removed ${user.email} from team ${team.name}`,
      subject: { client: user.client.name, user: user.email },
    });
  });
}

/**
 * `GET /team/{id}/app`: the team's live grants, for admins; an owner sees the grants of the apps
 * they own (403 when they own none).
 */
export async function appsOfTeam(ctx: ActorContext, teamId: number): Promise<TeamApp[]> {
  const managed = await managedAppIds(ctx);
  if (managed?.size === 0) throw new ApiError('forbidden', "admins and the app's owners only");
  await getTeam(ctx.db, teamId);
  const rows: { id: number; name: string; role: string | null; expires_at: number | string | null }[] = await isLive(
    ctx.db('team_apps').join('apps', 'apps.id', 'team_apps.app_id').where('team_apps.team_id', teamId),
    'team_apps.expires_at',
    ctx.now(),
  )
    .select('apps.id', 'apps.name', 'team_apps.role', 'team_apps.expires_at')
    .orderBy('apps.name');
  return rows
    .filter((row) => managed === undefined || managed.has(Number(row.id)))
    .map((row) => {
      const app = { id: Number(row.id), name: row.name, role: row.role };
      const expires = isoOf(row.expires_at);
      return expires ? { ...app, expires } : app;
    });
}

interface TeamGrantInput {
  teamId: number;
  appId: number;
  role?: string;
  expiresAt?: number;
}

/** Grants an app to a team: admins, or the app's owners. */
export async function grantTeam(ctx: ActorContext, { teamId, appId, role, expiresAt }: TeamGrantInput): Promise<void> {
  await assertManagesApp(ctx, appId);
  checkFutureExpiry(expiresAt, ctx.now());
  await ctx.db.transaction(async (trx) => {
    const team = await getTeam(trx, teamId);
    const app = await getAppSummary(trx, appId);
    const granted = grantRole(app.roles, role);
    await trx('team_apps').where({ team_id: teamId, app_id: appId }).where('expires_at', '<=', ctx.now()).delete();
    await trx('team_apps').insert({
      team_id: teamId,
      app_id: appId,
      role: granted,
      expires_at: expiresAt ?? null,
      granted_at: ctx.now(),
      granted_by: ctx.actor.email,
    });
    await logEvent(trx, ctx, {
      type: 'team.grant_add',
      event: `granted app ${app.name} to team ${team.name}${roleSuffix(granted)}${expirySuffix(expiresAt)}`,
    });
  });
}

export async function updateTeamGrant(
  ctx: ActorContext,
  { teamId, appId, role, expiresAt }: { teamId: number; appId: number; role?: string; expiresAt?: number | null },
): Promise<void> {
  await assertManagesApp(ctx, appId);
  const now = ctx.now();
  checkFutureExpiry(expiresAt, now);
  await ctx.db.transaction(async (trx) => {
    const team = await getTeam(trx, teamId);
    const app = await getAppSummary(trx, appId);
    const changes = {
      ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
      ...(role === undefined ? {} : { role: grantRole(app.roles, role) }),
    };
    const changed = await isLive(trx('team_apps').where({ team_id: teamId, app_id: appId }), 'expires_at', now).update(changes);
    if (changed === 0) throw notFound(`grant of app ${app.name} to team`, team.name);
    await logEvent(trx, ctx, { type: 'team.grant_update', event: `grant of app ${app.name} to team ${team.name} ${grantChange({ expiresAt, role })}` });
  });
}

export async function revokeTeam(ctx: ActorContext, { teamId, appId }: { teamId: number; appId: number }): Promise<void> {
  await assertManagesApp(ctx, appId);
  await ctx.db.transaction(async (trx) => {
    const team = await getTeam(trx, teamId);
    const app = await getAppSummary(trx, appId);
    const removed = await isLive(trx('team_apps').where({ team_id: teamId, app_id: appId }), 'expires_at', ctx.now()).delete();
    if (removed === 0) throw notFound(`grant of app ${app.name} to team`, team.name);
    await logEvent(trx, ctx, { type: 'team.grant_remove', event: `revoked app ${app.name} from team ${team.name}` });
  });
}
