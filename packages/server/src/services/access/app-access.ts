/**
 * Who may use which app, and with which roles (docs/product.md, Teams, app roles and owners):
 * an unexpired direct grant, or an unexpired grant to a team the user is an unexpired member of.
 * A user's roles for an app are the union over those grants. Forward auth, the OpenID provider,
 * the app list and the console all read access through here.
 */
import type { Knex } from 'knex';

/** A row counts while it has no expiry or its expiry is still ahead. */
export function isLive(query: Knex.QueryBuilder, column: string, now: number): Knex.QueryBuilder {
  return query.where((where) => where.whereNull(column).orWhere(column, '>', now));
}

/** The earlier of two expiries (null: never). */
const earlierExpiry = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));
/** The later of two expiries (null: never). */
const laterExpiry = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : Math.max(a, b));

const numberOrNull = (value: number | string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

/** One grant through which a user reaches an app: direct, or through a team. */
export interface AccessSource {
  appId: number;
  /** null for a direct grant. */
  team: { id: number; name: string } | null;
  role: string | null;
  /** When this way in ends: the grant's expiry, or the earlier of the team grant's and the membership's. */
  expiresAt: number | null;
}

/** What a user may use: per app, the roles and the ways in; and the teams the user is in. */
export interface UserAccess {
  apps: ReadonlyMap<number, AppAccess>;
  /** The user's unexpired teams, by name (alphabetical, as `groups` and `Remote-Groups` list them). */
  teams: readonly { id: number; name: string }[];
}

export interface AppAccess {
  /** Sorted, without duplicates. */
  roles: readonly string[];
  sources: readonly AccessSource[];
  /** When access ends: the latest of its sources' expiries (null: never). */
  expiresAt: number | null;
}

interface SourceRow {
  app_id: number;
  team_id: number | null;
  team_name: string | null;
  role: string | null;
  expires_at: number | string | null;
  member_expires_at?: number | string | null;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The live team grants reaching users through live memberships, narrowed by `where`. */
function teamGrantsQuery(db: Knex, now: number): Knex.QueryBuilder {
  return isLive(
    isLive(
      db('team_members').join('team_apps', 'team_apps.team_id', 'team_members.team_id').join('teams', 'teams.id', 'team_members.team_id'),
      'team_members.expires_at',
      now,
    ),
    'team_apps.expires_at',
    now,
  );
}

function sourceOf(row: SourceRow): AccessSource {
  const expiresAt = earlierExpiry(numberOrNull(row.expires_at), numberOrNull(row.member_expires_at));
  return {
    appId: Number(row.app_id),
    team: row.team_id === null ? null : { id: Number(row.team_id), name: String(row.team_name) },
    role: row.role,
    expiresAt,
  };
}

/** Groups sources by app: roles (sorted union), sources (direct first, then teams by name), latest expiry. */
export function groupSources(sources: readonly AccessSource[]): Map<number, AppAccess> {
  const grouped = new Map<number, AccessSource[]>();
  for (const source of sources) {
    const list = grouped.get(source.appId);
    if (list) list.push(source);
    else grouped.set(source.appId, [source]);
  }
  const apps = new Map<number, AppAccess>();
  for (const [appId, list] of grouped) {
    list.sort((a, b) => (a.team === null ? -1 : b.team === null ? 1 : byName(a.team, b.team)));
    const roles = [...new Set(list.map((source) => source.role).filter((role): role is string => role !== null))].sort();
    const expiresAt = list.map((source) => source.expiresAt).reduce(laterExpiry);
    apps.set(appId, { roles, sources: list, expiresAt });
  }
  return apps;
}

/** Everything a user may use now, with roles and sources, and the user's teams: three indexed reads. */
export async function accessOf(db: Knex, userId: number, now = Date.now()): Promise<UserAccess> {
  const [direct, throughTeams, teams] = await Promise.all([
    isLive(db('user_apps').where('user_apps.user_id', userId), 'user_apps.expires_at', now).select(
      'user_apps.app_id',
      db.raw('NULL as team_id'),
      db.raw('NULL as team_name'),
      'user_apps.role',
      'user_apps.expires_at',
    ) as Promise<SourceRow[]>,
    teamGrantsQuery(db, now)
      .where('team_members.user_id', userId)
      .select(
        'team_apps.app_id',
        'teams.id as team_id',
        'teams.name as team_name',
        'team_apps.role',
        'team_apps.expires_at',
        'team_members.expires_at as member_expires_at',
      ) as Promise<SourceRow[]>,
    isLive(db('team_members').join('teams', 'teams.id', 'team_members.team_id').where('team_members.user_id', userId), 'team_members.expires_at', now).select(
      'teams.id',
      'teams.name',
    ) as Promise<{ id: number; name: string }[]>,
  ]);
  return {
    apps: groupSources([...direct, ...throughTeams].map(sourceOf)),
    teams: teams.map((team) => ({ id: Number(team.id), name: team.name })).sort(byName),
  };
}

/** Every way in to one app, of every user: direct grants and team grants through memberships. */
export async function sourcesOfApp(db: Knex, appId: number, now = Date.now()): Promise<(AccessSource & { userId: number })[]> {
  const [direct, throughTeams] = await Promise.all([
    isLive(db('user_apps').where('user_apps.app_id', appId), 'user_apps.expires_at', now).select(
      'user_apps.user_id',
      'user_apps.app_id',
      db.raw('NULL as team_id'),
      db.raw('NULL as team_name'),
      'user_apps.role',
      'user_apps.expires_at',
    ) as Promise<(SourceRow & { user_id: number })[]>,
    teamGrantsQuery(db, now)
      .where('team_apps.app_id', appId)
      .select(
        'team_members.user_id',
        'team_apps.app_id',
        'teams.id as team_id',
        'teams.name as team_name',
        'team_apps.role',
        'team_apps.expires_at',
        'team_members.expires_at as member_expires_at',
      ) as Promise<(SourceRow & { user_id: number })[]>,
  ]);
  return [...direct, ...throughTeams].map((row) => ({ ...sourceOf(row), userId: Number(row.user_id) }));
}

/** Whether a user may use one app now (not counting the admins' every app). */
export async function hasAccessNow(db: Knex, { userId, appId }: { userId: number; appId: number }, now: number): Promise<boolean> {
  const direct = await isLive(db('user_apps').where({ user_id: userId, app_id: appId }), 'user_apps.expires_at', now).first('app_id');
  if (direct) return true;
  const team = await teamGrantsQuery(db, now).where('team_members.user_id', userId).where('team_apps.app_id', appId).first('team_apps.app_id');
  return team !== undefined;
}
