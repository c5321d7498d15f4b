/**
 * Resolves who is calling: `Authorization: Bearer <session token | API key>`, else the
 * `accesstoken` cookie. The answer lands in `ctx.state.principal` (null for anonymous).
 */
import type { Context, Next } from 'koa';
import type { Principal } from '../services/sessions.js';

export const SESSION_COOKIE = 'accesstoken';

export type Credential = { token: string; source: 'bearer' | 'cookie' } | null;

export function credentialOf(ctx: Context): Credential {
  const header = ctx.get('authorization');
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return { token: bearer[1], source: 'bearer' };
  const cookie = ctx.cookies.get(SESSION_COOKIE);
  return cookie ? { token: cookie, source: 'cookie' } : null;
}

export function authenticate(resolve: (token: string) => Promise<Principal | null>) {
  return async function resolvePrincipal(ctx: Context, next: Next): Promise<void> {
    const credential = credentialOf(ctx);
    ctx.state.credential = credential;
    ctx.state.principal = credential ? await resolve(credential.token) : null;
    await next();
  };
}
