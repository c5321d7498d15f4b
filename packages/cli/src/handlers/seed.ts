/**
 * `toolsctl seed FILE`: makes the portal hold what the file describes, adding what is missing
 * and updating apps that differ. It plans every step first (so a bad reference fails before
 * any change), then runs them with progress on stderr. It never deletes or revokes.
 */
import { ApiError, randomString, type App, type Client, type PortalClient, type RegistrationToken, type User } from '@tools-portal/core';
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

async function loadState(api: PortalClient): Promise<State> {
  const [clients, apps, users, invites, options] = await Promise.all([
    api.clients.list(),
    api.apps.all(),
    api.users.list(),
    api.invites.list(),
    api.auth.options(),
  ]);
  return {
    portalName: options.portalName,
    clients: new Map(clients.map((client) => [client.name, client])),
    apps: new Map(apps.map((app) => [app.name, app])),
    users: new Map(users.map((user) => [user.email.toLowerCase(), user])),
    invites: new Map(invites.map((invite) => [invite.email.toLowerCase(), invite])),
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
  for (const [index, user] of fixtures.users.entries()) {
    const problem = user.password === undefined ? null : await passwordProblem(user.password, { email: user.email, portalName: state.portalName });
    if (problem) throw new UsageError(`${file}: users.${index}.password (${user.email}): ${problem}`);
  }
}

function plan(ctx: Context, api: PortalClient, fixtures: Fixtures, state: State, report: SeedReport): Step[] {
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

  for (const app of fixtures.apps) {
    const existing = state.apps.get(app.name);
    if (!existing) {
      steps.push({ verb: 'create', what: `app ${app.name}`, run: async () => void state.apps.set(app.name, await api.apps.create(app)) });
    } else if (
      existing.url !== app.url ||
      existing.description !== app.description ||
      (app.descriptionDe !== undefined && existing.descriptionDe !== app.descriptionDe) ||
      existing.doclink !== app.doclink ||
      existing.category !== app.category ||
      existing.requestable !== app.requestable
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
      steps.push(...grantSteps(api, existing, user.apps, state));
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
        // Registering signs the new user in; seed needs no session of theirs.
        anonymous.token = accesstoken;
        await anonymous.auth.logout();
        if (user.password === undefined) report.passwords.push({ email: user.email, password });
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
  return steps;
}

function grantSteps(api: PortalClient, user: User, missing: string[], state: State): Step[] {
  return missing.map((name) => ({
    verb: 'grant',
    what: `app ${name} to ${user.email}`,
    run: () => api.users.grant(user.id, state.apps.get(name)!.id),
  }));
}

/** Keeps, of each existing user's apps in the file, those the user lacks: only they are changes. */
async function withoutHeldGrants(api: PortalClient, fixtures: Fixtures, state: State): Promise<Fixtures> {
  const users = await Promise.all(
    fixtures.users.map(async (user) => {
      const existing = state.users.get(user.email);
      if (!existing || user.apps.length === 0) return user;
      const held = new Set((await api.users.apps(existing.id)).map((app) => app.name));
      return { ...user, apps: user.apps.filter((name) => !held.has(name)) };
    }),
  );
  return { ...fixtures, users };
}

export async function seed(ctx: Context, file: string): Promise<Result> {
  const fixtures = readFixtures(file);
  const api = await ctx.client();
  const state = await loadState(api);
  await checkReferences(file, fixtures, state);
  const report: SeedReport = { file, changed: false, changes: [], warnings: [], passwords: [], invites: [] };
  const steps = plan(ctx, api, await withoutHeldGrants(api, fixtures, state), state, report);
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
