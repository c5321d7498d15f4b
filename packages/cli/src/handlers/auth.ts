import { ApiError, isMfaChallenge, type CurrentUser, type LoginAnswer, type MfaChallenge } from '@tools-portal/core';
import type { Context } from '../context.js';
import { configPath, writeConfig } from '../config-file.js';
import { NotLoggedInError, UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { ask, askSecret, canPrompt, readStdinSecret } from '../prompts.js';

export interface LoginOptions {
  email?: string;
  passwordStdin?: boolean;
  code?: string;
  /** `--password`: today's email and password (implied by --email, --password-stdin, --code). */
  password?: boolean;
  /** `--no-browser` makes it false. */
  browser?: boolean;
}

/** Signs in: in the browser (the device grant) unless asked for the password. */
export async function login(ctx: Context, options: LoginOptions): Promise<Result> {
  const byPassword = options.password || options.email !== undefined || options.passwordStdin || options.code !== undefined;
  return byPassword ? passwordLogin(ctx, options) : browserLogin(ctx, options.browser !== false);
}

/** The device grant: the user allows this machine on the portal's page; the session is "toolsctl on HOST". */
async function browserLogin(ctx: Context, openBrowser: boolean): Promise<Result> {
  const url = ctx.url;
  const { deviceLogin } = await import('../device-login.js');
  const tokens = await deviceLogin(url, { openBrowser, show: (message) => process.stderr.write(`${message}\n`) });
  const api = await ctx.client(false);
  api.token = tokens.accessToken;
  const me = await api.users.me();
  const file = writeConfig({ ...ctx.config, url, token: tokens.accessToken, refreshToken: tokens.refreshToken, tokenExpires: tokens.expires, email: me.email });
  return loggedIn({ url, me, file });
}

function loggedIn({ url, me, file }: { url: string; me: CurrentUser; file: string }): Result {
  return {
    json: { url, user: me, config: file },
    quiet: [me.id],
    message: `logged in to ${url} as ${me.email}${me.admin ? ' (admin)' : ''}; session saved in ${file}`,
  };
}

async function passwordLogin(ctx: Context, options: LoginOptions): Promise<Result> {
  const url = ctx.url;
  let email = options.email;
  let password: string | undefined;
  if (options.passwordStdin) password = await readStdinSecret();
  if (!email || password === undefined) {
    if (!canPrompt())
      throw new UsageError('stdin is not a terminal: pass --email and pipe the password with --password-stdin, or sign in in the browser (`toolsctl login`)');
    email ??= await ask('Email');
    password ??= await askSecret('Password');
  }
  const api = await ctx.client(false);
  const answer = await api.auth.signIn({ Email: email, Password: password });
  const { accesstoken } = isMfaChallenge(answer) ? await secondFactor(api, answer, options.code) : answer;
  api.token = accesstoken;
  const me = await api.users.me();
  const { refreshToken: _refresh, tokenExpires: _expires, ...kept } = ctx.config;
  const file = writeConfig({ ...kept, url, token: accesstoken, email: me.email });
  return loggedIn({ url, me, file });
}

/**
 * The account has a second factor: an authenticator or recovery code from --code, or asked on a
 * terminal. Without either it is an authentication error (exit 3), never a wait.
 */
async function secondFactor(api: Awaited<ReturnType<Context['client']>>, challenge: MfaChallenge, given: string | undefined): Promise<LoginAnswer> {
  const { token, methods } = challenge.mfa;
  if (!methods.includes('totp') && !methods.includes('recovery')) {
    throw new ApiError(
      'unauthenticated',
      'this account signs in with a passkey as its second factor, which toolsctl cannot use: use an API key (toolsctl keys) or the web portal',
    );
  }
  let code = given;
  if (code === undefined) {
    if (!canPrompt())
      throw new ApiError('unauthenticated', 'this account asks for a second factor: pass --code with a code from the authenticator app (or a recovery code)');
    code = await ask('Code from your authenticator app (or a recovery code)');
  }
  return api.auth.validateMfa(token, code.trim());
}

export async function logout(ctx: Context): Promise<Result> {
  const url = ctx.url;
  const stored = ctx.config;
  if (!stored.token || stored.url !== url) return { json: { url, loggedOut: false }, message: `not logged in to ${url}` };
  const api = await ctx.client(false);
  try {
    // A browser sign-in's access token may need renewing first (a spent one would leave the session alive).
    api.token = (await ctx.storedToken()) ?? stored.token;
    await api.auth.logout();
  } catch (error) {
    // A session the server already ended is as good as logged out; anything else is reported.
    if (!(error instanceof NotLoggedInError) && (error as { code?: string }).code !== 'unauthenticated') throw error;
  }
  const { token: _token, email: _email, refreshToken: _refresh, tokenExpires: _expires, ...rest } = stored;
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
