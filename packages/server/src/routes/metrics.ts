/**
 * GET /metrics in Prometheus' text format, for a scraper on the same host (a loopback caller whose
 * request carries no X-Forwarded-For or Forwarded: behind a proxy on the same host every caller
 * looks like loopback) or one presenting `Authorization: Bearer $METRICS_TOKEN`. Everyone else
 * gets the same 404 as for a path that does not exist.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Deps } from './route.js';

const METRICS_PATH = '/metrics';

function isLoopback(address: string | undefined): boolean {
  return address !== undefined && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function presentsToken(authorization: string | undefined, token: string | undefined): boolean {
  if (!token || !authorization?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(authorization.slice('Bearer '.length).trim()), digest(token));
}

function mayReadMetrics(ctx: Context, token: string | undefined): boolean {
  const headers = ctx.req.headers;
  if (presentsToken(headers.authorization, token)) return true;
  return isLoopback(ctx.req.socket.remoteAddress) && headers['x-forwarded-for'] === undefined && headers.forwarded === undefined;
}

export function metricsEndpoint(deps: Deps) {
  return async function serveMetrics(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== METRICS_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (!mayReadMetrics(ctx, deps.config.metricsToken)) return next();
    ctx.state.route = METRICS_PATH;
    ctx.set('Cache-Control', 'no-store');
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.text();
  };
}
