/**
 * `toolsctl seed FILE`: makes the portal hold what the file describes, adding what is missing
 * and updating apps that differ. It plans every step first (so a bad reference fails before
 * any change), then runs them with progress on stderr. It never deletes or revokes.
 */
import {
  ApiError,
  foldName,
  randomString,
  type App,
  type AppOwners,
  type Client,
  type PortalClient,
  type RegistrationToken,
  type Team,
  type User,
} from '@tools-portal/core';
import { passwordProblem } from '@tools-portal/core/password-rules';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { readFixtures, type Fixtures } from '../fixtures.js';
import type { Result } from '../output.js';

interface State {
  clients: Map<string, Client>;
  apps: Map<string, App>;
  users: Map<string, User>;
  invites: Map<string, RegistrationToken>;
  /** PORTAL_NAME, which a password may not contain. */
  portalName: string;
  /** By folded name, as the portal compares team names. */
  teams: Map<string, Team>;
  /** Members (emails) and apps (names) of each existing team, by folded name. */
  teamContents: Map<string, { members: Set<string>; apps: Set<string> }>;
  /** The owners of existing apps the file names owners for, by app name. */
  owners: Map<string, AppOwners>;
}

interface Step {
  /** `create`, `update` or `grant`, and what: the failure message and the progress line. */
  verb: 'create' | 'update' | 'grant';
  what: string;
  run: () => Promise<void>;
}

const past = (step: Step) => `${step.verb === 'grant' ? 'granted' : `${step.verb}d`} ${step.what}`;

export interface SeedReport {
  file: string;
  changed: boolean;
  changes: string[];
  warnings: string[];
  passwords: Array<{ email: string; password: string }>;
  invites: Array<{ email: string; link: string }>;
}

const GENERATED_PASSWORD_LENGTH = 20;

async function loadState(api: PortalClient, fixtures: Fixtures): Promise<State> {
  const [clients, apps, users, invites, options, teams] = await Promise.all([
    api.clients.list(),
    api.apps.all(),
    api.users.list(),
    api.invites.list(),
    api.auth.options(),
    api.teams.list(),
  ]);
  const teamsByKey = new Map(teams.map((team) => [foldName(team.name), team]));
  const wanted = fixtures.teams.map((team) => teamsByKey.get(foldName(team.name))).filter((team): team is Team => team !== undefined);
  const contents = await Promise.all(
    wanted.map(async (team) => {
      const [members, granted] = await Promise.all([api.teams.users(team.id), api.teams.apps(team.id)]);
      return [foldName(team.name), { members: new Set(members.map((user) => user.email)), apps: new Set(granted.map((app) => app.name)) }] as const;
    }),
  );
  const appsByName = new Map(apps.map((app) => [app.name, app]));
  const owned = fixtures.apps.filter((app) => app.owners && appsByName.has(app.name));
  const owners = await Promise.all(owned.map(async (app) => [app.name, (await api.apps.get(appsByName.get(app.name)!.id)).owners] as const));
  return {
    portalName: options.portalName,
    clients: new Map(clients.map((client) => [client.name, client])),
    apps: appsByName,
    users: new Map(users.map((user) => [user.email.toLowerCase(), user])),
    invites: new Map(invites.map((invite) => [invite.email.toLowerCase(), invite])),
    teams: teamsByKey,
    teamContents: new Map(contents),
    owners: new Map(owners),
  };
}

async function checkReferences(file: string, fixtures: Fixtures, state: State): Promise<void> {
  const clients = new Set([...state.clients.keys(), ...fixtures.clients.map((client) => client.name)]);
  const apps = new Set([...state.apps.keys(), ...fixtures.apps.map((app) => app.name)]);
  for (const [kind, entries] of [
    ['users', fixtures.users],
    ['invites', fixtures.invites],
  ] as const) {
    entries.forEach((entry, index) => {
      if (!clients.has(entry.client)) throw new UsageError(`${file}: ${kind}.${index}.client: no client named ${entry.client} in the file or on the portal`);
      const unknown = entry.apps.find((app) => !apps.has(app));
      if (unknown !== undefined) throw new UsageError(`${file}: ${kind}.${index}.apps: no app named ${unknown} in the file or on the portal`);
    });
  }
  const emails = new Set([...state.users.keys(), ...fixtures.users.map((user) => user.email)]);
  const teams = new Set([...state.teams.keys(), ...fixtures.teams.map((team) => foldName(team.name))]);
  fixtures.teams.forEach((team, index) => {
    const stranger = team.members.find((member) => !emails.has(member));
    if (stranger !== undefined) throw new UsageError(`${file}: teams.${index}.members: no user ${stranger} in the file or on the portal`);
    const unknown = team.apps.find((app) => !apps.has(app));
    if (unknown !== undefined) throw new UsageError(`${file}: teams.${index}.apps: no app named ${unknown} in the file or on the portal`);
  });
  for (const [kind, entries] of [
    ['users', fixtures.users],
    ['teams', fixtures.teams],
  ] as const) {
    entries.forEach((entry, index) => {
      const stray = Object.keys(entry.roles ?? {}).find((app) => !entry.apps.includes(app));
      if (stray !== undefined) throw new UsageError(`${file}: ${kind}.${index}.roles: ${stray} is not among its apps`);
    });
  }
  fixtures.apps.forEach((app, index) => {
    const stranger = app.owners?.users.find((owner) => !emails.has(owner));
    if (stranger !== undefined) throw new UsageError(`${file}: apps.${index}.owners.users: no user ${stranger} in the file or on the portal`);
    const team = app.owners?.teams.find((owner) => !teams.has(foldName(owner)));
    if (team !== undefined) throw new UsageError(`${file}: apps.${index}.owners.teams: no team named ${team} in the file or on the portal`);
  });
  for (const [index, user] of fixtures.users.entries()) {
    const problem = user.password === undefined ? null : await passwordProblem(user.password, { email: user.email, portalName: state.portalName });
    if (problem) throw new UsageError(`${file}: users.${index}.password (${user.email}): ${problem}`);
  }
}

/** What the seed's steps work with: the CLI's context, the portal, what it holds, and the report under way. */
interface Seeding {
  ctx: Context;
  api: PortalClient;
  state: State;
  report: SeedReport;
}

function plan({ ctx, api, state, report }: Seeding, fixtures: Fixtures): Step[] {
  const steps: Step[] = [];
  const clientId = (name: string) => state.clients.get(name)!.id;
  const appIds = (names: string[]) => names.map((name) => state.apps.get(name)!.id);

  for (const { name } of fixtures.clients) {
    if (state.clients.has(name)) continue;
    steps.push({
      verb: 'create',
      what: `client ${name}`,
      run: async () => void state.clients.set(name, await api.clients.create(name)),
    });
  }

  for (const { owners: _owners, ...app } of fixtures.apps) {
    const existing = state.apps.get(app.name);
    if (!existing) {
      steps.push({ verb: 'create', what: `app ${app.name}`, run: async () => void state.apps.set(app.name, await api.apps.create(app)) });
    } else if (
      existing.url !== app.url ||
      existing.description !== app.description ||
      (app.descriptionDe !== undefined && existing.descriptionDe !== app.descriptionDe) ||
      existing.doclink !== app.doclink ||
      existing.category !== app.category ||
      existing.requestable !== app.requestable ||
      existing.roles.join(',') !== app.roles.join(',')
    ) {
      steps.push({
        verb: 'update',
        what: `app ${app.name}`,
        run: async () => void state.apps.set(app.name, await api.apps.update({ ...app, id: existing.id })),
      });
    }
  }

  for (const user of fixtures.users) {
    const existing = state.users.get(user.email);
    if (existing) {
      if (existing.client.name !== user.client) {
        report.warnings.push(`user ${user.email} is in client ${existing.client.name}, not ${user.client}; a user's client cannot change`);
      }
      steps.push(...grantSteps({ api, state }, existing, user));
      continue;
    }
    steps.push({
      verb: 'create',
      what: `user ${user.email} in client ${user.client}${user.apps.length ? ` with ${user.apps.join(', ')}` : ''}`,
      run: async () => {
        const stale = state.invites.get(user.email);
        if (stale) await api.invites.delete(stale.id);
        const invite = await api.invites.create({ email: user.email, clientid: clientId(user.client), apps: appIds(user.apps) });
        const password = user.password ?? randomString(GENERATED_PASSWORD_LENGTH);
        const anonymous = await ctx.client(false);
        const { accesstoken } = await anonymous.auth.register({ Token: invite.token, Password: password });
        // Registering signs the new user in: that session says who the user is, then ends.
        anonymous.token = accesstoken;
        const { id, email, name, client } = await anonymous.users.me();
        await anonymous.auth.logout();
        state.users.set(user.email, { id, email, name, client });
        if (user.password === undefined) report.passwords.push({ email: user.email, password });
        // The invite granted each app's default role; the file's other roles follow.
        for (const [app, role] of Object.entries(user.roles ?? {})) {
          if (state.apps.get(app)!.roles[0] !== role) await api.users.updateGrant(id, state.apps.get(app)!.id, { role });
        }
      },
    });
  }

  for (const invite of fixtures.invites) {
    if (state.users.has(invite.email)) {
      report.warnings.push(`invite for ${invite.email} skipped: that user is already registered`);
      continue;
    }
    if (state.invites.has(invite.email)) continue;
    steps.push({
      verb: 'create',
      what: `invite for ${invite.email} in client ${invite.client}`,
      run: async () => {
        const created = await api.invites.create({ email: invite.email, clientid: clientId(invite.client), apps: appIds(invite.apps) });
        report.invites.push({ email: created.email, link: created.link });
      },
    });
  }
  steps.push(...teamSteps(api, fixtures, state), ...ownerSteps(api, fixtures, state));
  return steps;
}

const roleNote = (role: string | undefined) => (role ? ` as ${role}` : '');

function grantSteps(
  { api, state }: Pick<Seeding, 'api' | 'state'>,
  user: User,
  { apps, roles = {} }: { apps: string[]; roles?: Record<string, string> },
): Step[] {
  return apps.map((name) => ({
    verb: 'grant',
    what: `app ${name} to ${user.email}${roleNote(roles[name])}`,
    run: () => api.users.grant(user.id, state.apps.get(name)!.id, { role: roles[name] }),
  }));
}

/** Teams missing, then their missing members and apps (seed never removes either). */
function teamSteps(api: PortalClient, fixtures: Fixtures, state: State): Step[] {
  const steps: Step[] = [];
  for (const team of fixtures.teams) {
    const key = foldName(team.name);
    if (!state.teams.has(key)) {
      steps.push({
        verb: 'create',
        what: `team ${team.name}`,
        run: async () => void state.teams.set(key, await api.teams.create({ name: team.name, description: team.description })),
      });
    }
    const held = state.teamContents.get(key) ?? { members: new Set<string>(), apps: new Set<string>() };
    for (const member of team.members.filter((email) => !held.members.has(email))) {
      steps.push({
        verb: 'update',
        what: `team ${team.name}: add ${member}`,
        run: () => api.teams.addUser(state.teams.get(key)!.id, { userid: state.users.get(member)!.id }),
      });
    }
    for (const app of team.apps.filter((name) => !held.apps.has(name))) {
      const role = team.roles?.[app];
      steps.push({
        verb: 'grant',
        what: `app ${app} to team ${team.name}${roleNote(role)}`,
        run: () => api.teams.grant(state.teams.get(key)!.id, { appid: state.apps.get(app)!.id, ...(role ? { role } : {}) }),
      });
    }
  }
  return steps;
}

/** Owners the file names and the app lacks are added (seed never removes an owner). */
function ownerSteps(api: PortalClient, fixtures: Fixtures, state: State): Step[] {
  const emailOf = new Map([...state.users.values()].map((user) => [user.id, user.email]));
  const teamKeyOf = new Map([...state.teams.values()].map((team) => [team.id, foldName(team.name)]));
  const steps: Step[] = [];
  for (const app of fixtures.apps) {
    if (!app.owners) continue;
    const held = state.owners.get(app.name) ?? { users: [], teams: [] };
    const heldUsers = new Set(held.users.map((id) => emailOf.get(id)));
    const heldTeams = new Set(held.teams.map((id) => teamKeyOf.get(id)));
    const users = app.owners.users.filter((email) => !heldUsers.has(email));
    const teams = app.owners.teams.filter((name) => !heldTeams.has(foldName(name)));
    if (users.length + teams.length === 0) continue;
    steps.push({
      verb: 'update',
      what: `owners of app ${app.name}: add ${[...users, ...teams].join(', ')}`,
      run: async () => {
        const owners = {
          users: [...new Set([...held.users, ...users.map((email) => state.users.get(email)!.id)])],
          teams: [...new Set([...held.teams, ...teams.map((name) => state.teams.get(foldName(name))!.id)])],
        };
        await api.apps.update({ ...state.apps.get(app.name)!, owners });
      },
    });
  }
  return steps;
}

/** Keeps, of each existing user's apps in the file, those the user lacks a direct grant of: only they are changes. */
async function withoutHeldGrants(api: PortalClient, fixtures: Fixtures, state: State): Promise<Fixtures> {
  const users = await Promise.all(
    fixtures.users.map(async (user) => {
      const existing = state.users.get(user.email);
      if (!existing || user.apps.length === 0) return user;
      const held = new Set((await api.users.apps(existing.id)).filter((app) => app.sources.includes('direct')).map((app) => app.name));
      return { ...user, apps: user.apps.filter((name) => !held.has(name)) };
    }),
  );
  return { ...fixtures, users };
}

export async function seed(ctx: Context, file: string): Promise<Result> {
  const fixtures = readFixtures(file);
  const api = await ctx.client();
  const state = await loadState(api, fixtures);
  await checkReferences(file, fixtures, state);
  const report: SeedReport = { file, changed: false, changes: [], warnings: [], passwords: [], invites: [] };
  const steps = plan({ ctx, api, state, report }, await withoutHeldGrants(api, fixtures, state));
  if (steps.length > 0) ctx.note(`seeding ${file}: ${steps.length} change(s)`);
  for (const [index, step] of steps.entries()) {
    try {
      await step.run();
    } catch (error) {
      if (error instanceof ApiError) throw new ApiError(error.code, `failed to ${step.verb} ${step.what}: ${error.message}`, error.details);
      throw error;
    }
    report.changes.push(past(step));
    ctx.note(`[${index + 1}/${steps.length}] ${past(step)}`);
  }
  report.changed = steps.length > 0;
  return {
    json: report,
    quiet: [...report.invites.map((invite) => invite.link), ...report.passwords.map((entry) => `${entry.email}\t${entry.password}`)],
    message: summary(report),
  };
}

function summary(report: SeedReport): string {
  const lines = report.warnings.map((warning) => `warning: ${warning}`);
  lines.push(
    report.changed ? `seeded ${report.file}: ${report.changes.length} change(s)` : `nothing to change: the portal already holds everything in ${report.file}`,
  );
  if (report.passwords.length > 0) {
    lines.push('Generated passwords (shown once; pass them on):');
    for (const { email, password } of report.passwords) lines.push(`  ${email}  ${password}`);
  }
  if (report.invites.length > 0) {
    lines.push('Registration links to send:');
    for (const { email, link } of report.invites) lines.push(`  ${email}  ${link}`);
  }
  return lines.join('\n');
}
