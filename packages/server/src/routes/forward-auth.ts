import { z } from '@tools-portal/core';
import type { Context } from 'koa';
import { originalRequestOf, verifyRequest, type VerifyAnswer } from '../services/forward-auth.js';
import { clientInfo, principalOf, type RouteSpec } from './route.js';

/** Below the API prefix. app.ts serves GET on this path through a short stack of its own. */
export const VERIFY_PATH = '/verify';

export interface VerifyResponse {
  status: number;
  /**
   * Header names and values in turn (`[name, value, name, value, …]`): what node:http's writeHead
   * takes as is. Spreading header objects cost more than the rest of a cached /verify
   * (docs/performance.md).
   */
  headers: string[];
  body: string;
}

const json = (code: string, message: string) => JSON.stringify({ error: { code, message, details: {} } });

/** The HTTP answer to a verify decision: empty for 200 and 302, the error shape for 401 and 403. */
export function verifyResponse(answer: VerifyAnswer): VerifyResponse {
  const headers = ['Cache-Control', 'no-store', 'X-Content-Type-Options', 'nosniff'];
  switch (answer.status) {
    case 200:
      for (const name in answer.headers) headers.push(name, answer.headers[name]);
      return { status: 200, headers, body: '' };
    case 302:
      headers.push('Location', answer.location);
      return { status: 302, headers, body: '' };
    case 401:
      headers.push('Location', answer.location, 'Content-Type', 'application/json; charset=utf-8');
      return { status: 401, headers, body: json('unauthenticated', 'not logged in') };
    case 403:
      headers.push('Content-Type', 'application/json; charset=utf-8');
      return { status: 403, headers, body: json('forbidden', answer.message) };
  }
}

function present(ctx: Context, answer: VerifyAnswer): void {
  const response = verifyResponse(answer);
  ctx.status = response.status;
  for (let i = 0; i < response.headers.length; i += 2) ctx.set(response.headers[i], response.headers[i + 1]);
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
