import type { Context } from 'koa';
import { originalRequestOf, verifyRequest, type VerifyAnswer } from '../services/forward-auth.js';
import { clientInfo, principalOf, type RouteSpec } from './route.js';

/** Below the API prefix. app.ts serves GET on this path through a short stack of its own. */
export const VERIFY_PATH = '/verify';

function present(ctx: Context, answer: VerifyAnswer): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.status = answer.status;
  switch (answer.status) {
    case 200:
      ctx.set(answer.headers);
      ctx.body = '';
      return;
    case 401:
    case 302:
      ctx.set('Location', answer.location);
      ctx.body = answer.status === 401 ? { error: { code: 'unauthenticated', message: 'not logged in', details: {} } } : '';
      return;
    case 403:
      ctx.body = { error: { code: 'forbidden', message: answer.message, details: {} } };
  }
}

export const verifyRoute: RouteSpec = {
  method: 'GET',
  path: VERIFY_PATH,
  access: 'public',
  summary:
    'Forward auth for reverse proxies: may the caller use the app (?app=NAME, else the longest URL prefix of ' +
    'X-Original-URL or X-Forwarded-Proto/Host/Uri)? 200 with Remote-User/Email/Name/Groups, 401 or 302 to the login, 403',
  async handler(ctx, { db, logger, config, authCache }) {
    const app = ctx.query.app;
    const answer = await verifyRequest(
      { db, cache: authCache, logger, publicUrl: config.publicUrl },
      {
        principal: principalOf(ctx),
        appName: typeof app === 'string' ? app : Array.isArray(app) ? app[0] : undefined,
        original: originalRequestOf((name) => ctx.get(name)),
        client: clientInfo(ctx),
      },
    );
    present(ctx, answer);
  },
};

export const forwardAuthRoutes: RouteSpec[] = [verifyRoute];
