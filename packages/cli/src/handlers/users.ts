import type { Context } from '../context.js';
import type { Result } from '../output.js';
import { expiryFrom } from '@tools-portal/core';
import { UsageError } from '../exit-codes.js';
import { done, grantedAppList, userList, userRecord } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { findApps, findUser } from '../resolve.js';

export async function list(ctx: Context): Promise<Result> {
  return userList(await (await ctx.client()).users.list());
}

export async function show(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const user = await findUser(api, ref);
  return userRecord(user, await api.users.apps(user.id));
}

export async function remove(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const api = await ctx.client();
  const user = await findUser(api, ref);
  await confirmOrRefuse(`delete user ${user.email} (id ${user.id}) with their sessions, API keys and grants`, options.yes);
  await api.users.delete(user.id);
  return done(`deleted user ${user.email}`, { deleted: user }, [user.id]);
}

export async function apps(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const user = await findUser(api, ref);
  return grantedAppList(await api.users.apps(user.id));
}

/** `--expires 7d`, `12h`, `2026-12-01` or an ISO time, as the ISO time the API takes. */
export function expiryOption(text: string | undefined, now = Date.now()): string | undefined {
  if (text === undefined) return undefined;
  const expires = expiryFrom(text, now);
  if (!expires) throw new UsageError(`--expires: ${text} is neither a duration (7d, 12h, 30m, 2w) nor a date (2026-12-01)`);
  return expires;
}

export async function grant(ctx: Context, ref: string, { apps: appRefs, expires: expiresOption }: { apps: string[]; expires?: string }): Promise<Result> {
  const expires = expiryOption(expiresOption);
  const api = await ctx.client();
  const user = await findUser(api, ref);
  const targets = await findApps(api, appRefs);
  for (const app of targets) await api.users.grant(user.id, app.id, expires);
  const until = expires ? ` until ${expires}` : '';
  return done(
    targets.map((app) => `granted app ${app.name} to ${user.email}${until}`).join('\n'),
    { user, apps: targets },
    targets.map((app) => app.id),
  );
}

export async function revoke(ctx: Context, ref: string, appRefs: string[]): Promise<Result> {
  const api = await ctx.client();
  const user = await findUser(api, ref);
  const targets = await findApps(api, appRefs);
  for (const app of targets) await api.users.revoke(user.id, app.id);
  return done(
    targets.map((app) => `deleted user ${user.email} from app ${app.name}`).join('\n'),
    { user, apps: targets },
    targets.map((app) => app.id),
  );
}

export async function endSessions(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const user = await findUser(api, ref);
  await api.users.endSessions(user.id);
  return done(`ended every session of ${user.email} (API keys stay valid)`, { user }, [user.id]);
}

/** Deletes every API key of a user (the server refuses this to an API key: sign in with `toolsctl login`). */
export async function revokeKeys(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const api = await ctx.client();
  const user = await findUser(api, ref);
  await confirmOrRefuse(`delete every API key of ${user.email} (id ${user.id})`, options.yes);
  const { revoked } = await api.users.revokeKeys(user.id);
  return done(`revoked ${revoked} API key${revoked === 1 ? '' : 's'} of ${user.email}`, { user, revoked }, [revoked]);
}

export async function resetPassword(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const user = await findUser(api, ref);
  const { link, sent } = await api.users.passwordReset(user.id);
  const how = sent ? `sent by email to ${user.email}` : `not mailed (the server has no mail configured): pass it to ${user.email}`;
  return {
    json: { user, link, sent },
    quiet: [link],
    message: `password reset link for ${user.email}, valid once for 60 minutes, ${how}:\n${link}`,
  };
}

export async function resetMfa(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const api = await ctx.client();
  const user = await findUser(api, ref);
  await confirmOrRefuse(`remove every second factor of ${user.email} (id ${user.id}) and end their sessions`, options.yes);
  await api.users.resetMfa(user.id);
  return done(`removed the second factors of ${user.email} and ended their sessions`, { reset: user }, [user.id]);
}
