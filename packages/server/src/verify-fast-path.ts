/**
 * Forward auth's hot path (docs/product.md, Forward auth; bench/): GET and HEAD /api/auth/v1/verify answered on
 * plain node:http, before Koa, by forward-auth-http.ts from the in-process auth cache. The Koa
 * route answers with the same implementation; only the framework's per-request cost is left out.
 */
import type http from 'node:http';
import { API_PREFIX } from '@tools-portal/core';
import { answerVerify, writeAnswer } from './forward-auth-http.js';
import { recordRequest, requestIdFor } from './middleware/request-log.js';
import { VERIFY_PATH } from './routes/forward-auth.js';
import type { Deps } from './routes/index.js';

const ROUTE = `${API_PREFIX}${VERIFY_PATH}`;
// Every spelling the router accepts: app.ts sends `/api/…` (that case only) to the API router,
// whose paths match ignoring case, with an optional trailing slash.
const SPELLINGS = new Set([ROUTE.toLowerCase(), `${ROUTE.toLowerCase()}/`]);

/** The path of a request target as Koa sees it: no query or fragment, no scheme and host. */
function pathOf(url: string): string {
  let end = url.indexOf('?');
  const hash = url.indexOf('#');
  if (hash !== -1 && (end === -1 || hash < end)) end = hash;
  let path = end === -1 ? url : url.slice(0, end);
  if (path.charCodeAt(0) !== 0x2f) {
    const authority = path.indexOf('://');
    const slash = authority === -1 ? -1 : path.indexOf('/', authority + 3);
    path = slash === -1 ? '/' : path.slice(slash);
  }
  return path;
}

/** Whether a request is one for forward auth, in any spelling the router would route there. */
export function isVerifyRequest(request: http.IncomingMessage): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = pathOf(request.url ?? '');
  return path.startsWith('/api/') && SPELLINGS.has(path.toLowerCase());
}

export function verifyFastPath(deps: Deps): (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void> {
  const { config, logger, metrics } = deps;
  return async function answerVerifyFast(request, response) {
    const started = performance.now();
    const requestId = requestIdFor(request.headers['x-request-id'], config.trustProxy);
    const answer = await answerVerify(deps, request, requestId);
    if (!writeAnswer({ request, response }, answer, requestId)) logger.warn('forward auth could not answer: the connection is gone', { reqId: requestId });
    recordRequest(logger, metrics, {
      method: request.method ?? 'GET',
      route: ROUTE,
      status: answer.status,
      durationMs: performance.now() - started,
      requestId,
    });
  };
}
