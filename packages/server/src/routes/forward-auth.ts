import { z } from '@tools-portal/core';
import type { Context } from 'koa';
import { originalRequestOf, verifyRequest, type VerifyAnswer } from '../services/forward-auth.js';
import { clientInfo, principalOf, type RouteSpec } from './route.js';

/** Below the API prefix. app.ts serves GET on this path through a short stack of its own. */
export const VERIFY_PATH = '/verify';

export interface VerifyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const json = (code: string, message: string) => JSON.stringify({ error: { code, message, details: {} } });

/** The HTTP answer to a verify decision: empty for 200 and 302, the error shape for 401 and 403. */
export function verifyResponse(answer: VerifyAnswer): VerifyResponse {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  switch (answer.status) {
    case 200:
      return { status: 200, headers: { ...headers, ...answer.headers }, body: '' };
    case 302:
      return { status: 302, headers: { ...headers, Location: answer.location }, body: '' };
    case 401:
      return { status: 401, headers: { ...headers, Location: answer.location, 'Content-Type': 'application/json; charset=utf-8' }, body: json('unauthenticated', 'not logged in') };
    case 403:
      return { status: 403, headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' }, body: json('forbidden', answer.message) };
  }
}

function present(ctx: Context, answer: VerifyAnswer): void {
  const response = verifyResponse(answer);
  ctx.status = response.status;
  ctx.set(response.headers);
  ctx.body = response.body;
}

export const verifyRoute: RouteSpec = {
  method: 'GET',
  path: VERIFY_PATH,
  access: 'public',
  summary:
    'Forward auth for reverse proxies: may the caller use the app (?app=NAME, else the longest URL prefix of ' +
    'X-Original-URL or X-Forwarded-Proto/Host/Uri)? 200 with Remote-User/Email/Name/Groups, 401 or 302 to the login, 403',
  query: z.object({ app: z.string().optional().describe('the app to judge, instead of the original URL') }),
  response: { status: 200, description: 'allowed: an empty body, the user in Remote-User, Remote-Email, Remote-Name, Remote-Groups' },
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
