/**
 * Every request gets an id (X-Request-Id on the answer; a proxy's own is kept when TRUST_PROXY is
 * on) and, once answered, one log line and one metrics observation: method, route template,
 * status, duration, request id. Never the URL's query or any header: they may carry secrets.
 * A successful forward-auth answer is logged at `debug` (a proxy asks on every sub-request);
 * its refusals and errors, like every other request, at `info` (docs/operations.md).
 */
import { randomUUID } from 'node:crypto';
import { API_PREFIX } from '@tools-portal/core';
import type { Context, Next } from 'koa';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';

/** What a proxy may pass as a request id: short, and nothing that could forge a log line. */
const PROXY_REQUEST_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

export function requestIdFor(fromProxy: string | string[] | undefined, trustProxy: boolean): string {
  return trustProxy && typeof fromProxy === 'string' && PROXY_REQUEST_ID.test(fromProxy) ? fromProxy : randomUUID();
}

/** Requests no declared route matched share one label, so that scans cannot grow the metrics. */
const UNMATCHED_ROUTE = '(unmatched)';

export interface Finished {
  method: string;
  route: string;
  status: number;
  /** Milliseconds from arrival to the answer. */
  durationMs: number;
  requestId: string;
}

/** The route of forward auth (routes/forward-auth.ts), whose allowed answers are access lines. */
const VERIFY_ROUTE = `${API_PREFIX}/verify`;

/** The level of a request's line: `debug` for forward auth's answers that let a request through. */
function requestLogLevel(route: string, status: number): 'debug' | 'info' {
  return status < 300 && route === VERIFY_ROUTE ? 'debug' : 'info';
}

export function recordRequest(logger: Logger, metrics: Metrics, finished: Finished): void {
  metrics.observeRequest(finished);
  const level = requestLogLevel(finished.route, finished.status);
  if (logger.enabled(level)) {
    logger[level]('request', {
      reqId: finished.requestId,
      method: finished.method,
      route: finished.route,
      status: finished.status,
      durationMs: Math.round(finished.durationMs * 1000) / 1000,
    });
  }
}

/** The route template Koa's router matched (`/api/auth/v1/app/:id`), or UNMATCHED_ROUTE. */
function routeOf(ctx: Context): string {
  return (ctx as { _matchedRoute?: string })._matchedRoute ?? (ctx.state.route as string | undefined) ?? UNMATCHED_ROUTE;
}

export function requestLog(logger: Logger, metrics: Metrics, trustProxy: boolean) {
  return async function logRequest(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    const requestId = requestIdFor(ctx.req.headers['x-request-id'], trustProxy);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      recordRequest(logger, metrics, { method: ctx.method, route: routeOf(ctx), status: ctx.status, durationMs: performance.now() - started, requestId });
    }
  };
}
