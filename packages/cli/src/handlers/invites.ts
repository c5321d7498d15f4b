import { registrationLink, type App, type RegistrationToken } from '@tools-portal/core';
import type { Context } from '../context.js';
import type { Result } from '../output.js';
import { done, inviteList } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { findApps, findClient, findInvite } from '../resolve.js';

/** The link goes through the invite's first app (the user lands there after setting a password), else the portal. */
export const linkOf = (baseUrl: string, invite: RegistrationToken, apps: App[], linkApp?: string) =>
  registrationLink(baseUrl, invite.token, linkApp ?? apps[0]?.name);

export async function list(ctx: Context): Promise<Result> {
  const api = await ctx.client();
  const [invites, apps] = await Promise.all([api.invites.list(), api.apps.all()]);
  return inviteList(invites, apps);
}

export async function create(ctx: Context, email: string, options: { client: string; app?: string[]; linkApp?: string }): Promise<Result> {
  const api = await ctx.client();
  const client = await findClient(api, options.client);
  const apps = await findApps(api, options.app ?? []);
  const invite = await api.invites.create({ email, clientid: client.id, apps: apps.map((app) => app.id) });
  const link = linkOf(ctx.url, invite, apps, options.linkApp);
  return {
    json: { ...invite, link },
    quiet: [link],
    message: `created invite ${invite.id} for ${invite.email} (client ${client.name}; expires ${invite.expires_timestamp})\nPlease copy the registration link and send it to ${invite.email}:\n${link}`,
  };
}

export async function remove(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const api = await ctx.client();
  const invite = await findInvite(api, ref);
  await confirmOrRefuse(`delete the invite for ${invite.email} (id ${invite.id})`, options.yes);
  await api.invites.delete(invite.id);
  return done(`deleted registration token ${invite.email}`, { deleted: { id: invite.id, email: invite.email } }, [invite.id]);
}
