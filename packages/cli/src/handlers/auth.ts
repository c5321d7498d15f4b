import type { Context } from '../context.js';
import { configPath, writeConfig } from '../config-file.js';
import { UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { ask, askSecret, canPrompt, readStdinSecret } from '../prompts.js';

export async function login(ctx: Context, options: { email?: string; passwordStdin?: boolean }): Promise<Result> {
  const url = ctx.url;
  let email = options.email;
  let password: string | undefined;
  if (options.passwordStdin) password = await readStdinSecret();
  if (!email || password === undefined) {
    if (!canPrompt()) throw new UsageError('stdin is not a terminal: pass --email and pipe the password with --password-stdin');
    email ??= await ask('Email');
    password ??= await askSecret('Password');
  }
  const api = await ctx.client(false);
  const { accesstoken } = await api.auth.login({ Email: email, Password: password });
  api.token = accesstoken;
  const me = await api.users.me();
  const file = writeConfig({ ...ctx.config, url, token: accesstoken, email: me.email });
  return {
    json: { url, user: me, config: file },
    quiet: [me.id],
    message: `logged in to ${url} as ${me.email}${me.admin ? ' (admin)' : ''}; session saved in ${file}`,
  };
}

export async function logout(ctx: Context): Promise<Result> {
  const url = ctx.url;
  const stored = ctx.config;
  if (!stored.token || stored.url !== url) return { json: { url, loggedOut: false }, message: `not logged in to ${url}` };
  const api = await ctx.client(false);
  api.token = stored.token;
  try {
    await api.auth.logout();
  } catch (error) {
    // A session the server already ended is as good as logged out; anything else is reported.
    if ((error as { code?: string }).code !== 'unauthenticated') throw error;
  }
  const { token: _token, email: _email, ...rest } = stored;
  writeConfig(rest);
  return { json: { url, loggedOut: true }, message: `logged out of ${url}; removed the session from ${configPath()}` };
}

export async function whoami(ctx: Context): Promise<Result> {
  const me = await (await ctx.client()).users.me();
  return {
    json: me,
    quiet: [me.id],
    record: [
      ['url', ctx.url],
      ['id', me.id],
      ['email', me.email],
      ['name', me.name],
      ['client', me.client.name],
      ['admin', me.admin ? 'yes' : 'no'],
    ],
  };
}
