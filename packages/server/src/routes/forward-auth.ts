import { z } from '@tools-portal/core';
import { answerVerify, writeAnswer } from '../forward-auth-http.js';
import { route, type RouteSpec } from './route.js';

/** Below the API prefix. server.ts answers GET and HEAD here before Koa (verify-fast-path.ts). */
export const VERIFY_PATH = '/verify';

const verifyRoute: RouteSpec = route({
  method: 'GET',
  path: VERIFY_PATH,
  access: 'public',
  summary:
    'Forward auth for reverse proxies: may the caller use the app (?app=NAME, else the longest URL prefix of ' +
    'X-Original-URL or X-Forwarded-Proto/Host/Uri, normalized; ambiguous paths 400)? 200 with ' +
    'Remote-User/Email/Name/Groups, 401 or 302 to the login, 403',
  query: z.object({ app: z.string().optional().describe('the app to judge, instead of the original URL') }),
  response: { status: 200, empty: true, description: 'allowed: an empty body, the user in Remote-User, Remote-Email, Remote-Name, Remote-Groups' },
  readsRequest: "the fast path's reader (forward-auth-http.ts) judges the raw request: its query, headers and cookie",
  // Reached only by a spelling the fast path does not recognize: the same answer, written the same
  // way, byte for byte (what Koa's middleware set so far is dropped).
  async handler(_input, ctx, deps) {
    const requestId = String(ctx.state.requestId ?? '');
    const answer = await answerVerify(deps, ctx.req, requestId);
    for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
    ctx.status = answer.status;
    ctx.respond = false;
    writeAnswer({ request: ctx.req, response: ctx.res }, answer, requestId);
  },
});

export const forwardAuthRoutes: RouteSpec[] = [verifyRoute];
