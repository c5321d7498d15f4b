/**
 * Resolves who is calling: `Authorization: Bearer <session token | API key>`, else the
 * `accesstoken` cookie. The answer lands in `ctx.state.principal` (null for anonymous).
 */
import type { Context, Next } from 'koa';
import type { Principal } from '../services/sign-in/sessions.js';

export const SESSION_COOKIE = 'accesstoken';

export type Credential = { token: string; source: 'bearer' | 'cookie' } | null;

export function credentialOf(ctx: Context): Credential {
  return credentialFrom(ctx.get('authorization'), ctx.cookies.get(SESSION_COOKIE));
}

/** The same rule over raw header values, for the forward-auth fast path outside Koa. */
export function credentialFrom(authorization: string | undefined, sessionCookie: string | undefined): Credential {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (bearer) return { token: bearer[1], source: 'bearer' };
  return sessionCookie ? { token: sessionCookie, source: 'cookie' } : null;
}

/** The session cookie's value in a raw `Cookie` header. */
export function sessionCookieIn(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const pair = part.trim();
    if (pair.startsWith(`${SESSION_COOKIE}=`)) return pair.slice(SESSION_COOKIE.length + 1) || undefined;
  }
  return undefined;
}

export function authenticate(resolve: (token: string) => Promise<Principal | null>) {
  return async function resolvePrincipal(ctx: Context, next: Next): Promise<void> {
    const credential = credentialOf(ctx);
    ctx.state.credential = credential;
    ctx.state.principal = credential ? await resolve(credential.token) : null;
    await next();
  };
}
