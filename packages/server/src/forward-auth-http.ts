/**
 * Forward auth over HTTP (docs/forward-auth.md): reads the proxy's question from its request,
 * asks services/access/forward-auth.ts for the decision, and presents it. This is the one
 * implementation of GET /api/auth/v1/verify: the fast path (verify-fast-path.ts) and the
 * declared Koa route (routes/forward-auth.ts) both answer with it, cached credential included.
 */
import type http from 'node:http';
import { forbidden, invalidInput, isPlainHost, unauthenticated, type CurrentUser } from '@tools-portal/core';
import { asApiError, errorAnswer, type HttpAnswer } from './error-answers.js';
import type { Logger } from './logger.js';
import { credentialFrom, sessionCookieIn } from './middleware/auth.js';
import type { Deps } from './routes/route.js';
import type { UserAccess } from './services/access/app-access.js';
import { decideVerify, type VerifyDecision } from './services/access/forward-auth.js';

/** What the proxy tells us about the request it asks about. Nothing else of the client is trusted. */
interface OriginalRequest {
  /** Absolute URL of the original request, when the proxy sent one we can use. */
  url: string | undefined;
  /** The header that carried it, named in a refusal. */
  header: 'X-Original-URL' | 'X-Forwarded-Uri';
  /** A top-level browser GET for a page, which is answered with a redirect rather than a 401. */
  browserNavigation: boolean;
  /**
   * The client asks for a page (`Accept: text/html`, not XHR), in either header style: a 403 then
   * carries the Location of the portal's denied page for the proxy to send the browser to.
   */
  wantsPage: boolean;
  /** Why the proxy's headers do not name one original URL. */
  contradiction?: string;
}

const MAX_URL_LENGTH = 2000;

/**
 * Reads the original request from the proxy's headers: `X-Original-URL` (nginx), or
 * `X-Forwarded-Proto` + `X-Forwarded-Host` + `X-Forwarded-Uri` (Caddy, Traefik). Proxies pass on
 * what a client sends under the other style's names (Caddy and Traefik a client's
 * X-Original-URL, nginx its X-Forwarded-*), so both at once is a contradiction, never a choice.
 */
function originalRequestOf(header: (name: string) => string): OriginalRequest {
  const method = (header('x-forwarded-method') || 'GET').toUpperCase();
  const wantsPage =
    (method === 'GET' || method === 'HEAD') && /\btext\/html\b/i.test(header('accept')) && header('x-requested-with').toLowerCase() !== 'xmlhttprequest';
  // Built as one object literal, not spread into a new one: that spread cost about a quarter of
  // a cached /verify's own work (docs/performance.md).
  return readOriginal(header, wantsPage);
}

function readOriginal(header: (name: string) => string, wantsPage: boolean): OriginalRequest {
  const originalUrl = header('x-original-url');
  if (originalUrl && header('x-forwarded-uri')) {
    return { url: undefined, header: 'X-Original-URL', browserNavigation: false, wantsPage, contradiction: 'X-Original-URL and X-Forwarded-Uri both sent' };
  }
  if (originalUrl)
    return { url: originalUrl.length <= MAX_URL_LENGTH ? originalUrl : undefined, header: 'X-Original-URL', browserNavigation: false, wantsPage };
  const host = header('x-forwarded-host').split(',')[0].trim();
  if (!host) return { url: undefined, header: 'X-Forwarded-Uri', browserNavigation: false, wantsPage };
  const proto = (header('x-forwarded-proto').split(',')[0].trim() || 'http').toLowerCase();
  const uri = header('x-forwarded-uri') || '/';
  const valid = isPlainHost(host) && (proto === 'http' || proto === 'https') && uri.startsWith('/');
  const url = valid ? `${proto}://${host}${uri}` : undefined;
  return {
    url: url && url.length <= MAX_URL_LENGTH ? url : undefined,
    header: 'X-Forwarded-Uri',
    browserNavigation: wantsPage,
    wantsPage,
  };
}

/**
 * The portal's page for a refused browser (docs/forward-auth.md): it names the app only when the
 * proxy named it (`?app=`) or when it is one the user may ask for (listed to them anyway).
 */
function deniedLocation(publicUrl: string, app: string | undefined): string {
  return app ? `${publicUrl}/auth/#/denied/${encodeURIComponent(app)}` : `${publicUrl}/auth/#/denied`;
}

const NO_STORE = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/** The login screen, coming back to `target` afterwards (the login checks it is safe to follow). */
export function loginLocation(publicUrl: string, target: string | undefined): string {
  return target ? `${publicUrl}/auth/#/login/${encodeURIComponent(target)}` : `${publicUrl}/auth/#/login`;
}

// Header values must be visible ASCII; anything else (and `%` itself) is percent-encoded as UTF-8.
// Buffer (not encodeURIComponent) so that a lone surrogate becomes U+FFFD instead of throwing.
function headerValue(value: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(value)) return value;
  return value.replace(/[^\x20-\x24\x26-\x7e]+/g, (run) =>
    Array.from(Buffer.from(run, 'utf8'), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

// Per user object and access object (the auth cache hands out the same ones for as long as it
// keeps them), then per app: made once, not on every request.
const identities = new WeakMap<CurrentUser, WeakMap<UserAccess, Map<number, Record<string, string>>>>();

/**
 * The identity of an allowed request: `Remote-Groups` is the client, then the user's teams
 * (alphabetical); `Remote-Roles` the user's roles for this app (sorted). Both always present, empty
 * or not, so that a proxy copying them replaces whatever a client sent.
 */
function identityHeaders(user: CurrentUser, access: UserAccess, appId: number): Record<string, string> {
  let byAccess = identities.get(user);
  if (!byAccess) identities.set(user, (byAccess = new WeakMap()));
  let byApp = byAccess.get(access);
  if (!byApp) byAccess.set(access, (byApp = new Map()));
  let headers = byApp.get(appId);
  if (!headers) {
    headers = {
      ...NO_STORE,
      'Remote-User': headerValue(user.email),
      'Remote-Email': headerValue(user.email),
      'Remote-Name': headerValue(user.name || user.email),
      'Remote-Groups': headerValue([user.client.name, ...access.teams.map((team) => team.name)].join(',')),
      'Remote-Roles': headerValue((access.apps.get(appId)?.roles ?? []).join(',')),
    };
    Object.freeze(headers);
    byApp.set(appId, headers);
  }
  return headers;
}

const NOT_ALLOWED = 'you may not use this app';

const withHeaders = (answer: HttpAnswer, headers: Record<string, string>): HttpAnswer => ({
  ...answer,
  headers: { ...NO_STORE, ...answer.headers, ...headers },
});

/** The answer to a decision: empty for 200 and 302; errors through the one error presenter. */
function presentVerify(decision: VerifyDecision, original: OriginalRequest, publicUrl: string): HttpAnswer {
  switch (decision.outcome) {
    case 'allow':
      return { status: 200, headers: identityHeaders(decision.user, decision.access, decision.appId), body: '' };
    case 'not_logged_in': {
      const location = loginLocation(publicUrl, decision.returnTo);
      if (original.browserNavigation) return { status: 302, headers: { ...NO_STORE, Location: location }, body: '' };
      return withHeaders(errorAnswer(unauthenticated()), { Location: location });
    }
    case 'not_allowed':
      return withHeaders(errorAnswer(forbidden(NOT_ALLOWED)), original.wantsPage ? { Location: deniedLocation(publicUrl, decision.deniedApp) } : {});
    case 'ambiguous':
      return withHeaders(errorAnswer(invalidInput(original.header, decision.reason)), {});
  }
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
  const end = url.indexOf('#', query);
  return new URLSearchParams(url.slice(query + 1, end === -1 ? undefined : end)).get('app') ?? undefined;
}

/** Answers a forward-auth request; never throws (a bug answers 500 with the request id, logged). */
export async function answerVerify(
  deps: Pick<Deps, 'db' | 'config' | 'logger' | 'authCache' | 'lastUse'>,
  request: http.IncomingMessage,
  requestId: string,
): Promise<HttpAnswer> {
  const { db, config, authCache } = deps;
  const original = originalRequestOf((name) => headerOf(request, name));
  try {
    const credential = credentialFrom(headerOf(request, 'authorization'), sessionCookieIn(headerOf(request, 'cookie')));
    const decision = await decideVerify(
      { db, cache: authCache, logger: deps.logger },
      {
        principal: credential ? await authCache.principal(credential.token) : null,
        appName: appParameter(request.url ?? ''),
        originalUrl: original.url,
        contradiction: original.contradiction,
        client: { ip: clientAddress(request, config.trustProxy), userAgent: headerOf(request, 'user-agent') },
      },
    );
    if (decision.outcome === 'allow') deps.lastUse.note(decision.user.id, decision.appId);
    return presentVerify(decision, original, config.publicUrl);
  } catch (caught) {
    return withHeaders(errorAnswer(failure(deps.logger, caught, requestId)), {});
  }
}

function failure(logger: Logger, caught: unknown, requestId: string) {
  const { error, known } = asApiError(caught);
  if (!known) {
    error.details.requestId = requestId;
    logger.error('forward auth failed', { reqId: requestId, err: caught });
  }
  return error;
}

/** A request and the response to it. */
interface Exchange {
  request: http.IncomingMessage;
  response: http.ServerResponse;
}

/** Writes an answer the way every spelling of the route does; false when the connection is gone. */
export function writeAnswer({ request, response }: Exchange, answer: HttpAnswer, requestId: string): boolean {
  try {
    // Names and values in turn, as writeHead takes them: spreading the header object into a new
    // one cost more than the rest of a cached /verify (docs/performance.md).
    const raw: string[] = [];
    for (const name in answer.headers) raw.push(name, answer.headers[name]);
    raw.push('Content-Length', String(Buffer.byteLength(answer.body)), 'X-Request-Id', requestId);
    response.writeHead(answer.status, raw);
    response.end(request.method === 'HEAD' ? undefined : answer.body);
    return true;
  } catch {
    response.destroy();
    return false;
  }
}
