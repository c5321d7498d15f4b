/**
 * Assembles the Koa application from its parts; no I/O happens here until a request arrives.
 * (server.ts answers forward auth's GET /verify before Koa: see verify-fast-path.ts.)
 */
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import { allows, API_PREFIX, ApiError, forbidden, sessionRequired, unauthenticated } from '@tools-portal/core';
import Koa, { type Context, type Next } from 'koa';
import compose from 'koa-compose';
import { authenticate } from './middleware/auth.js';
import { apiDocs } from './api-docs.js';
import { compressJson } from './middleware/compress-json.js';
import { checkOrigin } from './middleware/csrf.js';
import { errorHandler } from './middleware/errors.js';
import { forgetOnWrite } from './middleware/forget-on-write.js';
import { requestLog } from './middleware/request-log.js';
import { securityHeaders } from './middleware/security-headers.js';
import { oidcMiddleware } from './oidc/routes.js';
import { googleRouter } from './routes/google.js';
import { VERIFY_PATH } from './routes/forward-auth.js';
import { apiRoutes, type Deps } from './routes/index.js';
import { inputOf, type RouteSpec } from './routes/route.js';
import { metricsEndpoint } from './routes/metrics.js';
import { portalRouter } from './routes/portal.js';
import { principalFromToken, type Principal } from './services/sign-in/sessions.js';

const BODY_LIMIT = '1mb';

const VERIFY_PATHS = new Set([`${API_PREFIX}${VERIFY_PATH}`.toLowerCase(), `${API_PREFIX}${VERIFY_PATH}/`.toLowerCase()]);
/** Forward auth's answer, in every spelling the router accepts: never compressed. */
const isVerify = (ctx: Context) => VERIFY_PATHS.has(ctx.path.toLowerCase());

function guard(route: RouteSpec) {
  return async function checkAccess(ctx: Context, next: Next): Promise<void> {
    const principal: Principal | null = ctx.state.principal ?? null;
    if (!allows(route.access, principal?.user ?? null)) throw principal ? forbidden() : unauthenticated();
    if (principal && route.access !== 'public') {
      if (principal.restricted && !route.duringEnrolment) {
        throw new ApiError('mfa_enrollment_required', 'this session may only set up a second factor: set up an authenticator app or a passkey first');
      }
      if (route.sessionOnly && principal.via === 'apikey') throw sessionRequired();
    }
    await next();
  };
}

/** Parses the route's declared input (after the guard: 401 and 403 come before 400), runs it, sends its answer. */
async function answer(route: RouteSpec, ctx: Context, deps: Deps): Promise<void> {
  const body = await route.handler(await inputOf(route, ctx), ctx, deps);
  if (ctx.respond === false) return;
  const status = route.response.status ?? 200;
  if (status === 204) ctx.status = 204;
  else if (body !== undefined) {
    ctx.status = status;
    ctx.body = body;
  }
}

const METHOD_ERRORS = {
  throw: true,
  notImplemented: () => new ApiError('invalid_input', 'method not implemented'),
  methodNotAllowed: () => new ApiError('invalid_input', 'method not allowed on this path'),
};

/** `app` of `/app/:id`, and of `/api/auth/v1/APP/3` (paths match ignoring case, as the router's do). */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return path.slice(1, end === -1 ? undefined : end).toLowerCase();
}

/**
 * The API's routes, one router per first path segment below the prefix: a request is tested
 * against the patterns of its segment (at most 26) instead of all of them, in the same order.
 */
function apiRouter(deps: Deps): Koa.Middleware {
  const routers = new Map<string, Router>();
  for (const route of apiRoutes) {
    const segment = firstSegment(route.path);
    let router = routers.get(segment);
    if (!router) routers.set(segment, (router = new Router({ prefix: API_PREFIX })));
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](route.path, guard(route), (ctx: Context) => answer(route, ctx, deps));
  }
  const stacks = new Map(
    [...routers].map(([segment, router]) => [segment, compose([router.routes(), router.allowedMethods(METHOD_ERRORS)] as Koa.Middleware[])]),
  );
  const prefix = `${API_PREFIX.toLowerCase()}/`;
  return function routeApiCall(ctx, next) {
    const stack = ctx.path.toLowerCase().startsWith(prefix) ? stacks.get(firstSegment(ctx.path.slice(prefix.length - 1))) : undefined;
    return stack ? stack(ctx, next) : next();
  };
}

export function createApp(deps: Deps): Koa {
  const { config, logger, db } = deps;
  const app = new Koa({ proxy: config.trustProxy });

  // Body parsing, credentials and the origin check concern the API only, not static files.
  // Typed loosely: the router's middleware types are narrower than Koa's.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as said above
  const stack: Koa.Middleware<any, any>[] = [
    compressJson(isVerify),
    // DELETE too: some calls take a JSON body on DELETE (DELETE /user/me/totp).
    bodyParser({ enableTypes: ['json'], jsonLimit: BODY_LIMIT, encoding: 'utf-8', parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] }),
    authenticate((token) => principalFromToken(db, token, config)),
    forgetOnWrite(deps.authCache),
    checkOrigin(config.trustedOrigins),
    apiRouter(deps),
    async (ctx: Context) => {
      throw new ApiError('not_found', `no such call: ${ctx.method} ${ctx.path}`);
    },
  ];
  const apiStack = compose(stack);

  app.use(requestLog(logger, deps.metrics, config.trustProxy));
  app.use(errorHandler(logger));
  app.use(securityHeaders(config.secureCookies));
  app.use(apiDocs());
  // Everything under /api/ answers JSON, including calls that do not exist.
  app.use((ctx, next) => (ctx.path === '/api' || ctx.path.startsWith('/api/') ? apiStack(ctx, next) : next()));
  app.use(metricsEndpoint(deps));
  app.use(oidcMiddleware(deps));
  app.use(googleRouter(deps).routes());
  app.use(portalRouter(deps).routes());
  app.on('error', (error: Error) => logger.debug(`connection error: ${error.message}`));
  return app;
}
