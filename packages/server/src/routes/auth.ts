import { loginInput, registerInput } from '@tools-portal/core';
import type { Context } from 'koa';
import { clearSessionCookie, setSessionCookie } from '../cookies.js';
import { logout, passwordLogin, registerWithPassword, type SignedIn } from '../services/login.js';
import { resolveRedirect } from '../services/redirects.js';
import { auditOf, bodyOf, clientInfo, noContent, principalOf, type Deps, type RouteSpec } from './route.js';

async function answerSignedIn(ctx: Context, deps: Deps, signedIn: SignedIn, redirect: string | undefined): Promise<void> {
  setSessionCookie(ctx, deps.config, signedIn.token);
  ctx.body = { accesstoken: signedIn.token, redirect: await resolveRedirect(deps.db, deps.config.publicOrigin, redirect) };
}

const loginDeps = ({ db, hasher, config }: Deps) => ({ db, hasher, policy: config });

export const authRoutes: RouteSpec[] = [
  {
    method: 'POST',
    path: '/validatepassword',
    access: 'public',
    summary: 'Log in: {Email, Password, redirect?} answers {accesstoken, redirect} and sets the cookie',
    async handler(ctx, deps) {
      const input = bodyOf(ctx, loginInput);
      const signedIn = await passwordLogin(loginDeps(deps), clientInfo(ctx), input.Email, input.Password);
      await answerSignedIn(ctx, deps, signedIn, input.redirect);
    },
  },
  {
    method: 'POST',
    path: '/register',
    access: 'public',
    summary: 'Register from an invite: {Token, Password, redirect?} answers {accesstoken, redirect}',
    async handler(ctx, deps) {
      const input = bodyOf(ctx, registerInput);
      const signedIn = await registerWithPassword(loginDeps(deps), clientInfo(ctx), input.Token, input.Password);
      await answerSignedIn(ctx, deps, signedIn, input.redirect);
    },
  },
  {
    method: 'GET',
    path: '/loginoptions',
    access: 'public',
    summary: 'Which ways to log in the portal offers: {google}',
    async handler(ctx, { config }) {
      ctx.body = { google: config.google !== undefined };
    },
  },
  {
    method: 'POST',
    path: '/logout',
    access: 'public',
    summary: 'End the current session and clear the cookie',
    async handler(ctx, { db, config }) {
      const principal = principalOf(ctx);
      if (principal) await logout(db, auditOf(ctx), principal.sessionId);
      clearSessionCookie(ctx, config);
      noContent(ctx);
    },
  },
];
