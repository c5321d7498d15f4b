/**
 * `toolsctl export`: the portal's clients, apps, users (with client and apps) and open invites in
 * the format `seed` reads. Passwords are stored as hashes and cannot leave the portal, so users
 * carry none: seeding the file elsewhere gives each user a generated password, printed once.
 */
import fs from 'node:fs';
import { byName, type App } from '@tools-portal/core';
import type { Context } from '../context.js';
import type { FixturesInput } from '../fixtures.js';
import type { Result } from '../output.js';

export async function exportFixtures(ctx: Context, options: { output?: string }): Promise<Result> {
  const api = await ctx.client();
  const [clients, apps, users, invites] = await Promise.all([api.clients.list(), api.apps.all(), api.users.list(), api.invites.list()]);
  const appName = new Map(apps.map((app) => [app.id, app.name]));
  const names = (list: App[] | number[]) => list.map((entry) => (typeof entry === 'number' ? (appName.get(entry) ?? String(entry)) : entry.name)).sort();
  const userApps = await Promise.all(users.map((user) => api.users.apps(user.id)));
  const fixtures: FixturesInput = {
    clients: [...clients].sort(byName).map((client) => ({ name: client.name })),
    apps: [...apps].sort(byName).map(({ name, url, description, descriptionDe, doclink, category, requestable }) => ({
      name,
      url,
      description,
      descriptionDe,
      doclink,
      category,
      requestable,
    })),
    users: users
      .map((user, index) => ({ email: user.email, client: user.client.name, apps: names(userApps[index]) }))
      .sort((a, b) => a.email.localeCompare(b.email)),
    invites: invites
      .map((invite) => ({ email: invite.email, client: invite.client.name, apps: names(invite.apps) }))
      .sort((a, b) => a.email.localeCompare(b.email)),
  };
  const text = `${JSON.stringify(fixtures, null, 2)}\n`;
  if (!options.output) return { json: fixtures, quiet: [text.trimEnd()], message: text.trimEnd() };
  fs.writeFileSync(options.output, text);
  const counts = `${clients.length} client(s), ${apps.length} app(s), ${users.length} user(s), ${invites.length} invite(s)`;
  return { json: { file: options.output, fixtures }, quiet: [options.output], message: `exported ${counts} to ${options.output}` };
}
