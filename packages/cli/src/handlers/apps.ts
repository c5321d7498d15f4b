import fs from 'node:fs';
import { appsInView, byName, isExternApp, type AppInput } from '@tools-portal/core';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { appAccessList, appList, appRecord, done, userList } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { findApp, findGrantableTeams, findGrantees, findManagedApp } from '../resolve.js';
import { expiryOption } from './users.js';

export interface AppFields {
  name?: string;
  url?: string;
  description?: string;
  descriptionDe?: string;
  doclink?: string;
  category?: string;
  requestable?: boolean;
}

const ICON_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp' };

export type AppListView = 'all' | 'prod' | 'dev' | 'extern';

/** The app list, by name; a view filters it the way the portal's prod/dev toggle and Other Tools do. */
export async function list(ctx: Context, options: { view?: AppListView } = {}): Promise<Result> {
  const api = await ctx.client();
  const apps = [...(await api.apps.list())].sort(byName);
  const view = options.view ?? 'all';
  return appList(view === 'all' ? apps : view === 'extern' ? apps.filter(isExternApp) : appsInView(apps, view));
}

export async function show(ctx: Context, ref: string): Promise<Result> {
  return appRecord(await findApp(await ctx.client(), ref));
}

export async function create(ctx: Context, { name, url, ...fields }: AppFields & { name: string; url: string }): Promise<Result> {
  const api = await ctx.client();
  const input: AppInput = {
    name,
    url,
    description: fields.description ?? '',
    descriptionDe: fields.descriptionDe ?? '',
    doclink: fields.doclink ?? '',
    category: fields.category ?? '',
    requestable: fields.requestable ?? false,
  };
  const app = await api.apps.create(input);
  return appRecord(app, `created new app ${app.name} (id ${app.id})`);
}

export async function update(ctx: Context, ref: string, fields: AppFields): Promise<Result> {
  const changes = Object.fromEntries(
    Object.entries(fields).filter(
      ([key, value]) => ['name', 'url', 'description', 'descriptionDe', 'doclink', 'category', 'requestable'].includes(key) && value !== undefined,
    ),
  );
  if (Object.keys(changes).length === 0) {
    throw new UsageError('nothing to change: pass --name, --app-url, --description, --description-de, --doclink, --category or --requestable/--no-requestable');
  }
  const api = await ctx.client();
  const app = await findApp(api, ref);
  const updated = await api.apps.update({ ...app, ...changes });
  return appRecord(updated, `updated app ${updated.name} (id ${updated.id})`);
}

export async function remove(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const api = await ctx.client();
  const app = await findApp(api, ref);
  await confirmOrRefuse(`delete app ${app.name} (id ${app.id}) and every grant of it`, options.yes);
  await api.apps.delete(app.id);
  return done(`deleted app ${app.name}`, { deleted: app }, [app.id]);
}

export async function users(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const app = await findManagedApp(api, ref);
  return userList(await api.apps.users(app.id));
}

export async function access(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const app = await findManagedApp(api, ref);
  return appAccessList(await api.apps.access(app.id));
}

const needsSomeone = (userRefs: string[], teamRefs: string[]) => {
  if (userRefs.length + teamRefs.length === 0) throw new UsageError('name at least one USER or --team');
};

export async function grant(
  ctx: Context,
  ref: string,
  { users: userRefs, ...options }: { users: string[]; team?: string[]; role?: string; expires?: string },
): Promise<Result> {
  const teamRefs = options.team ?? [];
  needsSomeone(userRefs, teamRefs);
  const expires = expiryOption(options.expires);
  const api = await ctx.client();
  const app = await findManagedApp(api, ref);
  const [targets, teams] = await Promise.all([findGrantees(api, app.id, userRefs), teamRefs.length ? findGrantableTeams(api, app.id, teamRefs) : []]);
  const grantOptions = { ...(options.role ? { role: options.role } : {}), ...(expires ? { expires } : {}) };
  for (const user of targets) await api.users.grant(user.id, app.id, grantOptions);
  for (const team of teams) await api.teams.grant(team.id, { appid: app.id, ...grantOptions });
  const suffix = `${options.role ? ` as ${options.role}` : ''}${expires ? ` until ${expires}` : ''}`;
  return done(
    [
      ...targets.map((user) => `granted app ${app.name} to ${user.email}${suffix}`),
      ...teams.map((team) => `granted app ${app.name} to team ${team.name}${suffix}`),
    ].join('\n'),
    { app, users: targets, teams, ...grantOptions },
    targets.map((user) => user.id),
  );
}

export async function revoke(ctx: Context, ref: string, { users: userRefs, team: teamRefs = [] }: { users: string[]; team?: string[] }): Promise<Result> {
  needsSomeone(userRefs, teamRefs);
  const api = await ctx.client();
  const app = await findManagedApp(api, ref);
  const [targets, teams] = await Promise.all([findGrantees(api, app.id, userRefs), teamRefs.length ? findGrantableTeams(api, app.id, teamRefs) : []]);
  for (const user of targets) await api.apps.removeUser(app.id, user.id);
  for (const team of teams) await api.teams.revoke(team.id, app.id);
  return done(
    [
      ...targets.map((user) => `deleted user ${user.email} from app ${app.name}`),
      ...teams.map((team) => `revoked app ${app.name} from team ${team.name}`),
    ].join('\n'),
    { app, users: targets, teams },
    targets.map((user) => user.id),
  );
}

/** `apps owners add|remove`: changes the app's owners by the users and teams named. */
export async function owners(ctx: Context, ref: string, change: { action: 'add' | 'remove'; users: string[]; teams?: string[] }): Promise<Result> {
  const teamRefs = change.teams ?? [];
  needsSomeone(change.users, teamRefs);
  const api = await ctx.client();
  const found = await findManagedApp(api, ref);
  const app = await api.apps.get(found.id);
  const [users, teams] = await Promise.all([findGrantees(api, app.id, change.users), teamRefs.length ? findGrantableTeams(api, app.id, teamRefs) : []]);
  const apply = (held: number[], named: number[]) => (change.action === 'add' ? [...new Set([...held, ...named])] : held.filter((id) => !named.includes(id)));
  const updated = await api.apps.update({
    ...app,
    owners: {
      users: apply(
        app.owners.users,
        users.map((user) => user.id),
      ),
      teams: apply(
        app.owners.teams,
        teams.map((team) => team.id),
      ),
    },
  });
  const named = [...users.map((user) => user.email), ...teams.map((team) => `team ${team.name}`)].join(', ');
  return appRecord(updated, `${change.action === 'add' ? 'added' : 'removed'} owners of app ${updated.name}: ${named}`);
}

/** Sets an app's icon from a PNG, JPEG or WebP file (the server checks the content), or removes it. */
export async function icon(ctx: Context, ref: string, { file, remove }: { file: string | undefined; remove?: boolean }): Promise<Result> {
  if (Boolean(file) === Boolean(remove)) throw new UsageError('give either an image FILE or --remove');
  const api = await ctx.client();
  const app = await findApp(api, ref);
  if (remove) {
    await api.apps.removeIcon(app.id);
    return done(`removed the icon of app ${app.name}`, { app: { ...app, icon: null } }, [app.id]);
  }
  const type = ICON_TYPES[(file!.match(/\.[^.]+$/)?.[0] ?? '').toLowerCase()];
  if (!type) throw new UsageError(`${file}: the icon must be a .png, .jpg, .jpeg or .webp file`);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file!);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const updated = await api.apps.setIcon(app.id, new Uint8Array(bytes), type);
  return appRecord(updated, `set the icon of app ${updated.name}`);
}
