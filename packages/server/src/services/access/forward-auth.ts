/**
 * Forward auth (docs/product.md, Forward auth): a reverse proxy asks whether the user of a request may use an app.
 * This service decides (allow, not logged in, not allowed, or an original URL too ambiguous to
 * judge); forward-auth-http.ts reads the question from the proxy's request and presents the
 * decision. Everything comes from the in-process cache, so an allowed request costs no query once
 * warm. Denials are written to the event log; allowed requests are not (they would flood it).
 */
import { mayUseApp, parseOriginalUrl, type App, type CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import type { Logger } from '../../logger.js';
import { clipUrl, logRepeated, type RepeatedEvent } from '../log/audit.js';
import type { UserAccess } from './app-access.js';
import type { AuthCache } from './auth-cache.js';
import type { Origin } from '../support/context.js';
import type { Principal } from '../sign-in/sessions.js';

export interface VerifyQuestion {
  principal: Principal | null;
  /** `?app=NAME`; decides alone, whatever the original URL. */
  appName: string | undefined;
  /** The absolute URL of the original request, as the proxy reported it. */
  originalUrl: string | undefined;
  /** Why the proxy's headers do not name one original URL (both header styles at once). */
  contradiction: string | undefined;
  client: Origin;
}

export type VerifyDecision =
  /** `access`: the user's teams and roles, for the `Remote-Groups` and `Remote-Roles` headers. */
  | { outcome: 'allow'; user: CurrentUser; access: UserAccess; appId: number }
  /** `returnTo`: where the login comes back to; only ever a URL the proxy sent. */
  | { outcome: 'not_logged_in'; returnTo: string | undefined }
  /**
   * The same for an app that exists and one that does not (docs/product.md, Security rules).
   * `deniedApp`: the name the denied page may show: the proxy's `?app=`, or a requestable app's.
   */
  | { outcome: 'not_allowed'; user: CurrentUser; deniedApp?: string }
  /** The original URL could be read as more than one app's: refused, whoever asks. */
  | { outcome: 'ambiguous'; reason: string };

export interface ForwardAuthDeps {
  db: Knex;
  cache: AuthCache;
  logger: Logger;
}

type AppOf = { app?: App; ambiguous?: string };

/** The app a request is for: by name, else by the original URL's normalized path. */
async function appOf(deps: ForwardAuthDeps, question: VerifyQuestion): Promise<AppOf> {
  const apps = await deps.cache.apps();
  if (question.appName !== undefined) return { app: apps.named(question.appName) };
  if (question.contradiction) return { ambiguous: question.contradiction };
  if (!question.originalUrl) return {};
  const url = parseOriginalUrl(question.originalUrl);
  if (url.kind === 'invalid') return {};
  if (url.kind === 'ambiguous') return { ambiguous: `the path has ${url.reason}` };
  const match = apps.match(url.origin, url.path);
  if (match.kind === 'ambiguous') return { ambiguous: `the path has ${match.reason}` };
  return match.kind === 'app' ? { app: match.app } : {};
}

/** The original URL, when it is one the login may come back to. */
function returnTarget(originalUrl: string | undefined): string | undefined {
  return originalUrl && parseOriginalUrl(originalUrl).kind !== 'invalid' ? originalUrl : undefined;
}

export async function decideVerify(deps: ForwardAuthDeps, question: VerifyQuestion): Promise<VerifyDecision> {
  const { principal, originalUrl } = question;
  const { app, ambiguous } = await appOf(deps, question);
  const user = principal?.user ?? null;
  if (ambiguous) {
    // Denials are keyed on the app and reason, never the URL or name asked for: a caller varying
    // those must not grow the log (one row a minute per caller, app and reason, with a count).
    const reason = `ambiguous original URL (${ambiguous})`;
    await logDenial(deps, question, { actor: user, reason: user ? { text: `${reason}: ${clipUrl(originalUrl ?? '')}`, sameAs: reason } : reason });
    return { outcome: 'ambiguous', reason: ambiguous };
  }
  const what = question.appName !== undefined ? `app ${clipUrl(question.appName)}` : app ? `app ${app.name}` : clipUrl(originalUrl ?? 'an unnamed app');
  if (!user) {
    await logDenial(deps, question, { actor: null, reason: `not logged in, for ${app ? `app ${app.name}` : 'no registered app'}` });
    return { outcome: 'not_logged_in', returnTo: returnTarget(originalUrl) };
  }
  const deniedApp = question.appName ?? (app?.requestable ? app.name : undefined);
  if (principal?.restricted) {
    await logDenial(deps, question, { actor: user, reason: `${user.email} must set up a second factor first (mfa_enrollment_required)` });
    return { outcome: 'not_allowed', user };
  }
  if (!app) {
    await logDenial(deps, question, { actor: user, reason: { text: `no registered app for ${what}`, sameAs: 'no registered app' } });
    return { outcome: 'not_allowed', user, deniedApp };
  }
  const access = await deps.cache.accessOf(user.id);
  if (!mayUseApp(user, access.apps, app.id)) {
    await logDenial(deps, question, { actor: user, reason: `${user.email} may not use app ${app.name}` });
    return { outcome: 'not_allowed', user, deniedApp };
  }
  return { outcome: 'allow', user, access, appId: app.id };
}

/**
 * Whether a user may use an app now: core's rule (mayUseApp) over the user's grants, direct and
 * through teams, from the cache (at most AUTH_CACHE_SECONDS old). Forward auth and the OpenID
 * provider both ask it.
 */
export async function userMayUseApp(cache: Pick<AuthCache, 'accessOf'>, user: CurrentUser, appId: number): Promise<boolean> {
  return (await accessToApp(cache, user, appId)) !== undefined;
}

/** The user's access (from the auth cache) when it lets them use the app, else undefined. */
export async function accessToApp(cache: Pick<AuthCache, 'accessOf'>, user: CurrentUser, appId: number): Promise<UserAccess | undefined> {
  const access = await cache.accessOf(user.id);
  return mayUseApp(user, access.apps, appId) ? access : undefined;
}

// A failed log write must not turn a denial into an error the proxy would pass on as a 500.
// Denials are repeated at will, anonymous or signed in: identical ones (same caller, app and
// reason) collapse into one counted row a minute, the first written at once (docs/event-log.md).
async function logDenial(
  deps: ForwardAuthDeps,
  question: VerifyQuestion,
  { actor, reason }: { actor: CurrentUser | null; reason: string | RepeatedEvent },
): Promise<void> {
  const { text, sameAs } = typeof reason === 'string' ? { text: reason, sameAs: reason } : reason;
  try {
    const audit = { actor, ...question.client, apiKeyId: actor ? question.principal?.apiKeyId : undefined };
    await logRepeated(deps.db, audit, { type: 'verify.denied', event: { text: `forward auth denied: ${text}`, sameAs } });
  } catch (error) {
    deps.logger.warn(`could not log a forward-auth denial (${sameAs})`, error);
  }
}
