/**
 * An app's owners (docs/product.md, Teams, app roles and owners): users, and teams whose unexpired
 * members all own it. Owners manage that app's access (grants, team grants, access requests) and
 * nothing else; admins manage every app.
 */
import { ApiError, invalidInput, mayManageApp, type AppOwners } from '@tools-portal/core';
import type { Knex } from 'knex';
import { isLive } from '../access/app-access.js';
import { logEvent } from '../log/audit.js';
import type { ServiceContext, ActorContext } from '../support/context.js';
import { usersQuery, type UserRow } from '../users/users.js';

/** Ids of the apps a user owns now: directly, or through a team they are an unexpired member of. */
export async function ownedAppIds(db: Knex, userId: number, now = Date.now()): Promise<number[]> {
  const [direct, throughTeams] = await Promise.all([
    db('app_owner_users').where('user_id', userId).select('app_id') as Promise<{ app_id: number }[]>,
    isLive(
      db('app_owner_teams').join('team_members', 'team_members.team_id', 'app_owner_teams.team_id').where('team_members.user_id', userId),
      'team_members.expires_at',
      now,
    ).select('app_owner_teams.app_id') as Promise<{ app_id: number }[]>,
  ]);
  return [...new Set([...direct, ...throughTeams].map((row) => Number(row.app_id)))].sort((a, b) => a - b);
}

const NOT_OWNER = "admins and the app's owners only";

/**
 * Refuses (403) a caller who may not manage an app: before anything else is read, so that a
 * caller who is neither admin nor owner cannot tell an app that exists from one that does not.
 */
export async function assertManagesApp(ctx: ActorContext, appId: number): Promise<void> {
  if (ctx.actor.admin) return;
  const owned = new Set(await ownedAppIds(ctx.db, ctx.actor.id, ctx.now()));
  if (!mayManageApp(ctx.actor, owned, appId)) throw new ApiError('forbidden', NOT_OWNER);
}

/** The apps a caller may manage: every app for admins (undefined), else the owned ones. */
export async function managedAppIds(ctx: ActorContext): Promise<ReadonlySet<number> | undefined> {
  if (ctx.actor.admin) return undefined;
  return new Set(await ownedAppIds(ctx.db, ctx.actor.id, ctx.now()));
}

export async function ownersOf(db: Knex, appId: number): Promise<AppOwners> {
  const [users, teams] = await Promise.all([
    db('app_owner_users').where('app_id', appId).orderBy('user_id').select('user_id') as Promise<{ user_id: number }[]>,
    db('app_owner_teams').where('app_id', appId).orderBy('team_id').select('team_id') as Promise<{ team_id: number }[]>,
  ]);
  return { users: users.map((row) => Number(row.user_id)), teams: teams.map((row) => Number(row.team_id)) };
}

/** Makes an app's owners exactly `owners`, logging each owner added or removed (in the caller's transaction). */
export async function setOwners(ctx: ServiceContext, { app, owners }: { app: { id: number; name: string }; owners: AppOwners }): Promise<void> {
  const before = await ownersOf(ctx.db, app.id);
  await changeOwners(ctx, { app, kind: 'user', before: before.users, after: owners.users });
  await changeOwners(ctx, { app, kind: 'team', before: before.teams, after: owners.teams });
}

async function changeOwners(
  ctx: ServiceContext,
  { app, kind, before, after }: { app: { id: number; name: string }; kind: 'user' | 'team'; before: number[]; after: number[] },
): Promise<void> {
  const trx = ctx.db;
  const table = kind === 'user' ? 'app_owner_users' : 'app_owner_teams';
  const column = kind === 'user' ? 'user_id' : 'team_id';
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  const owners = await ownersNamed(trx, kind, [...added, ...removed]);
  for (const id of added) {
    const owner = owners.get(id);
    if (owner === undefined) throw invalidInput(`owners.${kind}s`, `no ${kind} with id ${id}`);
    await trx(table).insert({ app_id: app.id, [column]: id });
    await logEvent(trx, ctx, { type: 'app.owner_add', event: `${kind} ${owner.name} now owns app ${app.name}`, ...subjectOf(kind, owner) });
  }
  if (removed.length > 0) await trx(table).where('app_id', app.id).whereIn(column, removed).delete();
  for (const id of removed) {
    const owner = owners.get(id) ?? { name: `#${id}`, client: '' };
    await logEvent(trx, ctx, { type: 'app.owner_remove', event: `${kind} ${owner.name} no longer owns app ${app.name}`, ...subjectOf(kind, owner) });
  }
}

type NamedOwner = { name: string; client: string };

// A user owner is what the entry is about, with their client (docs/event-log.md); a team has neither.
const subjectOf = (kind: 'user' | 'team', owner: NamedOwner) => (kind === 'user' ? { subject: { user: owner.name, client: owner.client } } : {});

/** Users by email with their client's name, teams by name. */
async function ownersNamed(trx: Knex, kind: 'user' | 'team', ids: number[]): Promise<Map<number, NamedOwner>> {
  if (ids.length === 0) return new Map();
  if (kind === 'user') {
    const users: UserRow[] = await usersQuery(trx).whereIn('users.id', ids);
    return new Map(users.map((user) => [Number(user.id), { name: user.email, client: user.client_name }]));
  }
  const teams: { id: number; name: string }[] = await trx('teams').whereIn('id', ids).select('id', 'name');
  return new Map(teams.map((team) => [Number(team.id), { name: team.name, client: '' }]));
}
