/**
 * Forward auth's hot path (DESIGN.md, bench/): GET and HEAD /api/auth/v1/verify answered on
 * plain node:http, before Koa, from the in-process auth cache. The decision is the same service
 * the declared route uses (services/forward-auth.ts), and so is the answer (verifyResponse);
 * only the framework's per-request cost is left out.
 */
import type http from 'node:http';
import { API_PREFIX, ApiError, httpStatus } from '@tools-portal/core';
import { translateDatabaseError } from './db/errors.js';
import { credentialFrom, sessionCookieIn } from './middleware/auth.js';
import { recordRequest, requestIdFor } from './middleware/request-log.js';
import { VERIFY_PATH, verifyResponse } from './routes/forward-auth.js';
import type { Deps } from './routes/index.js';
import { originalRequestOf, verifyRequest } from './services/forward-auth.js';

const ROUTE = `${API_PREFIX}${VERIFY_PATH}`;
const PATHS = new Set([ROUTE, `${ROUTE}/`]);

/** Whether a request is one for the fast path. */
export function isVerifyRequest(request: http.IncomingMessage): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return PATHS.has(query === -1 ? url : url.slice(0, query));
}

function headerOf(request: http.IncomingMessage, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

function clientAddress(request: http.IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? headerOf(request, 'x-forwarded-for').split(',')[0].trim() : '';
  return forwarded || request.socket.remoteAddress || '';
}

function appParameter(url: string): string | undefined {
  const query = url.indexOf('?');
  if (query === -1) return undefined;
  return new URLSearchParams(url.slice(query + 1)).get('app') ?? undefined;
}

export function verifyFastPath(deps: Deps): (request: http.IncomingMessage, response: http.ServerResponse) => Promise<void> {
  const { config, logger, authCache, db, metrics } = deps;
  return async function answerVerify(request, response) {
    const started = performance.now();
    const requestId = requestIdFor(request.headers['x-request-id'], config.trustProxy);
    let answer;
    try {
      const credential = credentialFrom(headerOf(request, 'authorization'), sessionCookieIn(headerOf(request, 'cookie')));
      const decision = await verifyRequest(
        { db, cache: authCache, logger, publicUrl: config.publicUrl },
        {
          principal: credential ? await authCache.principal(credential.token) : null,
          appName: appParameter(request.url ?? ''),
          original: originalRequestOf((name) => headerOf(request, name)),
          client: { ip: clientAddress(request, config.trustProxy), userAgent: headerOf(request, 'user-agent') },
        },
      );
      answer = verifyResponse(decision);
    } catch (caught) {
      const error = translateDatabaseError(caught) ?? new ApiError('internal', 'internal error');
      if (error.code === 'internal') {
        error.details.requestId = requestId;
        logger.error('forward auth failed', { reqId: requestId, err: caught });
      }
      answer = { status: httpStatus[error.code], headers: ['Content-Type', 'application/json; charset=utf-8', 'Cache-Control', 'no-store'], body: JSON.stringify(error.toJSON()) };
    }
    try {
      answer.headers.push('Content-Length', String(Buffer.byteLength(answer.body)), 'X-Request-Id', requestId);
      response.writeHead(answer.status, answer.headers);
      response.end(request.method === 'HEAD' ? undefined : answer.body);
    } catch (error) {
      logger.error('forward auth could not answer', { reqId: requestId, err: error });
      response.destroy();
    }
    recordRequest(logger, metrics, { method: request.method ?? 'GET', route: ROUTE, status: answer.status, durationMs: performance.now() - started, requestId });
  };
}
