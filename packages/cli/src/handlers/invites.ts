import { registrationLink, type App, type Language, type RegistrationToken } from '@tools-portal/core';
import type { Context } from '../context.js';
import type { Result } from '../output.js';
import { done, inviteList } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { findApps, findClient, findInvite } from '../resolve.js';

/**
 * The link the server built (through the invite's first app, else the portal). `--link-app` names
 * one of the apps to go first; naming another app, or `auth`, builds the link through it here.
 */
const linkOf = (invite: RegistrationToken, apps: App[], linkApp?: string) =>
  linkApp === undefined || apps[0]?.name === linkApp ? invite.link : registrationLink(new URL(invite.link).origin, invite.token, linkApp);

export async function list(ctx: Context): Promise<Result> {
  const api = await ctx.client();
  const [invites, apps] = await Promise.all([api.invites.list(), api.apps.all()]);
  return inviteList(invites, apps);
}

export async function create(
  ctx: Context,
  email: string,
  options: { client: string; app?: string[]; linkApp?: string; send?: boolean; language?: Language },
): Promise<Result> {
  const api = await ctx.client();
  const client = await findClient(api, options.client);
  const found = await findApps(api, options.app ?? []);
  // The server's link goes through the first app as sent: the one --link-app names, if granted.
  const apps = [...found.filter((app) => app.name === options.linkApp), ...found.filter((app) => app.name !== options.linkApp)];
  const invite = await api.invites.create({
    email,
    clientid: client.id,
    apps: apps.map((app) => app.id),
    ...(options.send ? { send: true } : {}),
    ...(options.language ? { language: options.language } : {}),
  });
  const link = linkOf(invite, apps, options.linkApp);
  const next = options.send ? `The link was sent by email to ${invite.email}:` : `Please copy the registration link and send it to ${invite.email}:`;
  return {
    json: { ...invite, link },
    quiet: [link],
    message: `created invite ${invite.id} for ${invite.email} (client ${client.name}; expires ${invite.expires_timestamp})\n${next}\n${link}`,
  };
}

/** The Invites screen's Resend, in the same words. */
export async function resend(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const invite = await api.invites.resend((await findInvite(api, ref)).id);
  return done(`sent the invitation to ${invite.email} again`, { resent: { id: invite.id, email: invite.email } }, [invite.id]);
}

export async function remove(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const api = await ctx.client();
  const invite = await findInvite(api, ref);
  await confirmOrRefuse(`delete the invite for ${invite.email} (id ${invite.id})`, options.yes);
  await api.invites.delete(invite.id);
  return done(`deleted registration token ${invite.email}`, { deleted: { id: invite.id, email: invite.email } }, [invite.id]);
}
