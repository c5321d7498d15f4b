/**
 * Forward auth (DESIGN.md): a reverse proxy asks whether the user of a request may use an app.
 * Everything comes from the in-process cache, so an allowed request costs no query once warm.
 * Denials are written to the event log; allowed requests are not (they would flood it).
 */
import { mayUseApp, type App, type CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import type { Logger } from '../logger.js';
import { logEvent } from './audit.js';
import type { AuthCache } from './auth-cache.js';
import type { ClientInfo, Principal } from './sessions.js';

/** What the proxy tells us about the request it is asking about. */
export interface OriginalRequest {
  /** Absolute URL of the original request, when the proxy sent one we can use. */
  url: string | undefined;
  /** `nginx`: X-Original-URL; `forwarded`: X-Forwarded-Proto/Host/Uri (Traefik, Caddy). */
  style: 'nginx' | 'forwarded' | 'none';
  /** A top-level browser GET for a page, which is answered with a redirect rather than a 401. */
  browserNavigation: boolean;
}

export interface VerifyInput {
  principal: Principal | null;
  /** `?app=NAME`; wins over the URL. */
  appName: string | undefined;
  original: OriginalRequest;
  client: ClientInfo;
}

export type VerifyAnswer =
  | { status: 200; headers: Record<string, string> }
  | { status: 401 | 302; location: string }
  | { status: 403; message: string };

export interface ForwardAuthDeps {
  db: Knex;
  cache: AuthCache;
  logger: Logger;
  publicUrl: string;
}

const MAX_URL_LENGTH = 2000;
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Reads the original request from the proxy's headers. Nothing else of the client is trusted. */
export function originalRequestOf(header: (name: string) => string): OriginalRequest {
  const method = (header('x-forwarded-method') || 'GET').toUpperCase();
  const wantsPage = /\btext\/html\b/i.test(header('accept')) && header('x-requested-with').toLowerCase() !== 'xmlhttprequest';
  const originalUrl = header('x-original-url');
  if (originalUrl) {
    return { url: originalUrl.length <= MAX_URL_LENGTH ? originalUrl : undefined, style: 'nginx', browserNavigation: false };
  }
  const host = header('x-forwarded-host').split(',')[0].trim();
  if (!host) return { url: undefined, style: 'none', browserNavigation: false };
  const proto = (header('x-forwarded-proto').split(',')[0].trim() || 'http').toLowerCase();
  const uri = header('x-forwarded-uri') || '/';
  const valid = HOST.test(host) && (proto === 'http' || proto === 'https') && uri.startsWith('/') && !uri.startsWith('//');
  const url = valid ? `${proto}://${host}${uri}` : undefined;
  return {
    url: url && url.length <= MAX_URL_LENGTH ? url : undefined,
    style: 'forwarded',
    browserNavigation: (method === 'GET' || method === 'HEAD') && wantsPage,
  };
}

/** The login screen, coming back to `target` afterwards (the login checks it is safe to follow). */
export function loginLocation(publicUrl: string, target: string | undefined): string {
  return target ? `${publicUrl}/auth/#/login/${encodeURIComponent(target)}` : `${publicUrl}/auth/#/login`;
}

// Header values must be visible ASCII; anything else (and `%` itself) is percent-encoded as UTF-8.
// Buffer (not encodeURIComponent) so that a lone surrogate becomes U+FFFD instead of throwing.
export function headerValue(value: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(value)) return value;
  return value.replace(/[^\x20-\x24\x26-\x7e]+/g, (run) =>
    Array.from(Buffer.from(run, 'utf8'), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

export function identityHeaders(user: CurrentUser): Record<string, string> {
  return {
    'Remote-User': headerValue(user.email),
    'Remote-Email': headerValue(user.email),
    'Remote-Name': headerValue(user.name || user.email),
    'Remote-Groups': headerValue(user.client.name),
  };
}

export async function verifyRequest(deps: ForwardAuthDeps, input: VerifyInput): Promise<VerifyAnswer> {
  const { principal, original } = input;
  const apps = await deps.cache.apps();
  const app: App | undefined =
    input.appName !== undefined ? apps.named(input.appName) : original.url ? apps.forUrl(original.url) : undefined;
  const what = input.appName !== undefined ? `app ${input.appName}` : app ? `app ${app.name}` : (original.url ?? 'an unnamed app');

  if (!principal) {
    await logDenial(deps, input, null, `not logged in, for ${what}`);
    const location = loginLocation(deps.publicUrl, original.url ?? app?.url);
    return { status: original.browserNavigation ? 302 : 401, location };
  }
  if (principal.restricted) return { status: 403, message: 'enrol a second factor first (mfa_enrollment_required)' };
  const user = principal.user;
  if (!app) {
    await logDenial(deps, input, user, `no registered app for ${what}`);
    return { status: 403, message: `no registered app for ${what}` };
  }
  const granted = user.admin ? new Set<number>() : await deps.cache.grantsOf(user.id);
  if (!mayUseApp(user, granted, app.id)) {
    await logDenial(deps, input, user, `${user.email} may not use app ${app.name}`);
    return { status: 403, message: `you may not use app ${app.name}` };
  }
  return { status: 200, headers: identityHeaders(user) };
}

// A failed log write must not turn a denial into an error the proxy would pass on as a 500.
async function logDenial(deps: ForwardAuthDeps, input: VerifyInput, actor: CurrentUser | null, reason: string): Promise<void> {
  try {
    await logEvent(deps.db, { actor, ...input.client }, `forward auth denied: ${reason}`);
  } catch (error) {
    deps.logger.warn(`could not log a forward-auth denial (${reason})`, error);
  }
}
