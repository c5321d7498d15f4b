/**
 * Userinfo answered from memory (docs/oidc.md, Sessions and revocation; docs/performance.md). An
 * API that checks bearer tokens asks userinfo on every request it serves, with the same token.
 * The first call of a token goes through oidc-provider whole; its answer (200, JSON) is then kept
 * for that token while everything it was made of is remembered anyway: the token's row, that its
 * provider session held, that its grant stood, the user's access (services/access/auth-cache.ts,
 * at most AUTH_CACHE_SECONDS after the oldest of them was read), and never past the token's
 * expiry. A plain repeat of the call (GET /oidc/userinfo with the token as `Authorization: Bearer`
 * and nothing else: no query, body, Origin or DPoP proof) is answered with it before Koa; any other
 * call goes to the provider. A change through this instance empties the auth cache and these
 * answers with it, so a revocation or logout holds here at once and elsewhere within the bound.
 */
import type http from 'node:http';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { recordRequest, requestIdFor } from '../middleware/request-log.js';
import type { AuthCache } from '../services/access/auth-cache.js';
import { standingKey } from './account.js';
import { ROUTES } from './paths.js';

interface Answer {
  /** The provider's headers but those of one exchange (request id, length, date, connection). */
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
}

/** Headers that belong to one answer or connection, never to the answer kept. */
const OWN_HEADERS = new Set(['x-request-id', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

// RFC 6750's b64token.
const TOKEN = /^[A-Za-z0-9._~+/-]+=*$/;

/** The bearer token of a call that asks nothing but userinfo for it, else undefined. */
function plainCallToken(request: http.IncomingMessage): string | undefined {
  if (request.method !== 'GET' || request.url !== ROUTES.userinfo) return undefined;
  const { headers } = request;
  if (headers.origin !== undefined || headers.dpop !== undefined || headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) {
    return undefined;
  }
  const authorization = headers.authorization;
  if (authorization === undefined || authorization.length <= 7 || authorization.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const token = authorization.slice(7);
  return TOKEN.test(token) ? token : undefined;
}

type Token = { jti: string; exp?: number; grantId?: string; accountId: string; clientId: string; jkt?: string; 'x5t#S256'?: string };

/** Until when the entries a token's answer was made of are all remembered (0: not all are). */
function madeOfUntil(memory: AuthCache, token: Token): number {
  const { grantId, accountId: sub, clientId } = token;
  const userId = Number(sub);
  if (!grantId || !Number.isInteger(userId) || token.exp === undefined) return 0;
  // The ingredients of oidc/account.ts's claims and of the provider's checks of the token.
  const until = [
    memory.accessTokens.expiryOf(token.jti),
    memory.boundAccessTokens.expiryOf(token.jti),
    memory.standingGrants.expiryOf(standingKey({ grantId, sub, clientId })),
    memory.accessExpiry(userId),
    token.exp * 1000,
  ];
  return until.some((time) => time === undefined) ? 0 : Math.min(...(until as number[]));
}

/** oidc-provider middleware: keeps the answer of a plain userinfo call for its token. */
export function rememberUserinfoAnswers(memory: AuthCache) {
  return async function rememberUserinfoAnswer(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    if (ctx.oidc?.route !== 'userinfo' || ctx.status !== 200 || !ctx.response.is('json')) return;
    const token = ctx.oidc.accessToken as unknown as Token | undefined;
    const body: unknown = ctx.body;
    if (!token || token.jkt || token['x5t#S256'] || plainCallToken(ctx.req) !== token.jti || typeof body !== 'object' || body === null) return;
    // An answer that sets a cookie is one browser's, never a token's.
    if (ctx.response.get('set-cookie')) return;
    const until = madeOfUntil(memory, token);
    if (until === 0) return;
    const headers: http.OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(ctx.response.headers)) if (!OWN_HEADERS.has(name) && value !== undefined) headers[name] = value;
    const text = Buffer.from(JSON.stringify(body));
    headers['content-length'] = text.length;
    memory.userinfoAnswers.set(token.jti, { headers, body: text } satisfies Answer, until);
  };
}

/**
 * Answers a plain userinfo call whose answer is remembered, before Koa, and says whether it did.
 * The request is logged and counted as the provider's route would be.
 */
export function userinfoFromMemory(deps: { authCache: AuthCache; logger: Logger; metrics: Metrics; config: { trustProxy: boolean } }) {
  const { authCache, logger, metrics, config } = deps;
  return function answerFromMemory(request: http.IncomingMessage, response: http.ServerResponse): boolean {
    const token = plainCallToken(request);
    const answer = token === undefined ? undefined : (authCache.userinfoAnswers.get(token) as Answer | undefined);
    if (!answer) return false;
    const started = performance.now();
    const requestId = requestIdFor(request.headers['x-request-id'], config.trustProxy);
    response.setHeader('x-request-id', requestId);
    response.writeHead(200, answer.headers).end(answer.body);
    recordRequest(logger, metrics, { method: 'GET', route: ROUTES.userinfo, status: 200, durationMs: performance.now() - started, requestId });
    return true;
  };
}
