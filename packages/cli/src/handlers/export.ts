/**
 * `toolsctl export`: the portal's clients, apps (with roles and owners), users (with client,
 * direct grants and their roles), open invites and teams (members, apps, roles) in the format
 * `seed` reads; memberships and grants by natural key, without their expiry. Passwords are stored as hashes and cannot leave the portal, so users
 * carry none: seeding the file elsewhere gives each user a generated password, printed once.
 */
import fs from 'node:fs';
import { byName, type App } from '@tools-portal/core';
import type { Context } from '../context.js';
import type { FixturesInput } from '../fixtures.js';
import type { Result } from '../output.js';

/** A grant's role for the file: only where it is not the app's default. */
type Grants = Map<string, { apps: string[]; roles: Record<string, string> }>;

function addGrant(grants: Grants, key: string, { app, role }: { app: App; role: string | null }): void {
  const entry = grants.get(key) ?? { apps: [], roles: {} };
  entry.apps.push(app.name);
  if (role !== null && role !== app.roles[0]) entry.roles[app.name] = role;
  grants.set(key, entry);
}

const withRoles = (entry: { apps: string[]; roles: Record<string, string> } | undefined) =>
  entry ? { apps: [...entry.apps].sort(), ...(Object.keys(entry.roles).length > 0 ? { roles: entry.roles } : {}) } : { apps: [] };

export async function exportFixtures(ctx: Context, options: { output?: string }): Promise<Result> {
  const api = await ctx.client();
  const [clients, apps, users, invites, teams] = await Promise.all([
    api.clients.list(),
    api.apps.all(),
    api.users.list(),
    api.invites.list(),
    api.teams.list(),
  ]);
  const appName = new Map(apps.map((app) => [app.id, app.name]));
  const names = (list: number[]) => list.map((entry) => appName.get(entry) ?? String(entry)).sort();
  const [managed, access, members, teamApps] = await Promise.all([
    Promise.all(apps.map((app) => api.apps.get(app.id))),
    Promise.all(apps.map((app) => api.apps.access(app.id))),
    Promise.all(teams.map((team) => api.teams.users(team.id))),
    Promise.all(teams.map((team) => api.teams.apps(team.id))),
  ]);
  const userGrants: Grants = new Map();
  apps.forEach((app, index) => {
    for (const user of access[index])
      for (const source of user.sources) if (source.source === 'direct') addGrant(userGrants, user.email, { app, role: source.role });
  });
  const teamGrants: Grants = new Map();
  teams.forEach((team, index) => {
    for (const granted of teamApps[index]) addGrant(teamGrants, team.name, { app: apps.find((app) => app.id === granted.id)!, role: granted.role });
  });
  const emailOf = new Map(users.map((user) => [user.id, user.email]));
  const teamOf = new Map(teams.map((team) => [team.id, team.name]));
  const ownersOf = (index: number) => {
    const { users: ownerUsers, teams: ownerTeams } = managed[index].owners;
    if (ownerUsers.length + ownerTeams.length === 0) return {};
    return { owners: { users: ownerUsers.map((id) => emailOf.get(id)!).sort(), teams: ownerTeams.map((id) => teamOf.get(id)!).sort() } };
  };
  const fixtures: FixturesInput = {
    clients: [...clients].sort(byName).map((client) => ({ name: client.name })),
    apps: apps
      .map(({ name, url, description, descriptionDe, doclink, category, requestable, roles }, index) => ({
        name,
        url,
        description,
        descriptionDe,
        doclink,
        category,
        requestable,
        ...(roles.length > 0 ? { roles } : {}),
        ...ownersOf(index),
      }))
      .sort(byName),
    users: users
      .map((user) => ({ email: user.email, client: user.client.name, ...withRoles(userGrants.get(user.email)) }))
      .sort((a, b) => a.email.localeCompare(b.email)),
    invites: invites
      .map((invite) => ({ email: invite.email, client: invite.client.name, apps: names(invite.apps) }))
      .sort((a, b) => a.email.localeCompare(b.email)),
    teams: teams
      .map((team, index) => ({
        name: team.name,
        description: team.description,
        members: members[index].map((member) => member.email).sort(),
        ...withRoles(teamGrants.get(team.name)),
      }))
      .sort(byName),
  };
  const text = `${JSON.stringify(fixtures, null, 2)}\n`;
  if (!options.output) return { json: fixtures, quiet: [text.trimEnd()], message: text.trimEnd() };
  fs.writeFileSync(options.output, text);
  const counts = `${clients.length} client(s), ${apps.length} app(s), ${users.length} user(s), ${invites.length} invite(s), ${teams.length} team(s)`;
  return { json: { file: options.output, fixtures }, quiet: [options.output], message: `exported ${counts} to ${options.output}` };
}
