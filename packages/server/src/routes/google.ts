/**
 * Browser routes of Google sign-in (not under the API): `/auth/google?redirect=…&token=…` starts
 * it (`&confirm=1`: Confirm it's you for the signed-in session, docs/oidc.md),
 * `/auth/google/callback` finishes it. A browser never sees a JSON error here: every failure
 * is logged and sends it to the Failed Login screen.
 */
import Router from '@koa/router';
import { ApiError } from '@tools-portal/core';
import type { Context } from 'koa';
import { serializeCookie, setSessionCookie } from '../cookies.js';
import { translateDatabaseError } from '../db/errors.js';
import { GoogleRelyingParty } from '../google-relying-party.js';
import { SESSION_COOKIE } from '../middleware/auth.js';
import { inWindow, logEvent, logRepeated, type RepeatGroup } from '../services/log/audit.js';
import { GOOGLE_LOGIN_TTL_SECONDS } from '../services/sign-in/google-pending-logins.js';
import { hitRateLimit, type RateLimit } from '../services/support/rate-limits.js';
import { finishGoogleSignIn, startGoogleSignIn } from '../services/sign-in/google-sign-in.js';
import { principalFromToken } from '../services/sign-in/sessions.js';
import { requestOrigin, type Deps } from './route.js';

const GOOGLE_START_PATH = '/auth/google';
const GOOGLE_CALLBACK_PATH = '/auth/google/callback';
const FAILED_LOGIN = '/auth/#/failedlogin';
/** Binds a sign-in under way to the browser; sent only to the Google routes. */
const GOOGLE_LOGIN_COOKIE = 'google_login';

const queryText = (ctx: Context, name: string): string | undefined => {
  const value = ctx.query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function googleRouter(deps: Deps): Router {
  const { db, config, logger } = deps;
  const client = config.google ? new GoogleRelyingParty(config.google, `${config.publicUrl}${GOOGLE_CALLBACK_PATH}`) : undefined;
  const loginCookie = (value: string, maxAgeSeconds: number) =>
    serializeCookie(GOOGLE_LOGIN_COOKIE, value, { path: GOOGLE_START_PATH, maxAgeSeconds, secure: config.secureCookies });

  const failed = (ctx: Context, error: unknown) => {
    if (!(error instanceof ApiError)) logger.error(`${ctx.path}: Google sign-in failed`, error);
    else if (error.code === 'unavailable') logger.warn(`${ctx.path}: ${error.message}`);
    ctx.redirect(FAILED_LOGIN);
  };

  // For failures the sign-in service did not log itself; the browser moves on even if the log cannot be written.
  const logFailure = (ctx: Context, event: string) =>
    logEvent(db, { actor: null, ...requestOrigin(ctx) }, { type: 'google.failure', event: event }).catch((error: unknown) =>
      logger.warn(`cannot log "${event}"`, error),
    );

  // Anyone can repeat these at will: one row a minute (or a window) per address, with a count.
  const logRepeatedFailure = (ctx: Context, event: string, group?: RepeatGroup) =>
    logRepeated(db, { actor: null, ...requestOrigin(ctx) }, { type: 'google.failure', event: event, group: group }).catch((error: unknown) =>
      logger.warn(`cannot log "${event}"`, error),
    );

  const notConfigured = async (ctx: Context) => {
    await logRepeatedFailure(ctx, 'Google sign-in refused: Google sign-in is not configured');
    ctx.redirect(FAILED_LOGIN);
  };

  // Each start stores a sign-in under way for GOOGLE_LOGIN_TTL_SECONDS: an address may start only so many.
  const startLimit: RateLimit = { kind: 'google-start', limit: config.googleStartsPerAddress, windowMs: GOOGLE_LOGIN_TTL_SECONDS * 1000 };
  /** False (and the browser sent to Failed Login, one row logged per window) past the limit. */
  const withinStartLimit = async (ctx: Context): Promise<boolean> => {
    const { ip } = requestOrigin(ctx);
    const hit = await hitRateLimit(db, startLimit, { subject: ip });
    if (hit.allowed) return true;
    await logRepeatedFailure(ctx, 'Google sign-in refused: too many sign-ins started from this address', inWindow(hit.windowStart, startLimit.windowMs));
    ctx.redirect(FAILED_LOGIN);
    return false;
  };

  const router = new Router();
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  });

  router.get(GOOGLE_START_PATH, async (ctx) => {
    if (!client) return notConfigured(ctx);
    try {
      if (!(await withinStartLimit(ctx))) return;
      // Confirm it's you: only a browser's signed-in session (the cookie) can be confirmed.
      const token = queryText(ctx, 'confirm') === '1' ? ctx.cookies.get(SESSION_COOKIE) : undefined;
      const principal = token ? await principalFromToken(db, token, config) : null;
      const confirms = principal?.via === 'session' ? principal.sessionId : undefined;
      const started = await startGoogleSignIn(
        { db, client, policy: config },
        { redirect: queryText(ctx, 'redirect'), inviteToken: queryText(ctx, 'token'), confirms },
      );
      ctx.append('Set-Cookie', loginCookie(started.binding, GOOGLE_LOGIN_TTL_SECONDS));
      ctx.redirect(started.authorizationUrl.href);
    } catch (error) {
      const known = translateDatabaseError(error);
      await logFailure(ctx, `Google sign-in could not start: ${known ? known.message : 'internal error'}`);
      failed(ctx, known ?? error);
    }
  });

  router.get(GOOGLE_CALLBACK_PATH, async (ctx) => {
    if (!client) return notConfigured(ctx);
    ctx.append('Set-Cookie', loginCookie('', 0));
    try {
      // Built from PUBLIC_URL, not the Host header: it must equal the redirect URI registered at Google.
      const callbackUrl = new URL(`${config.publicUrl}${GOOGLE_CALLBACK_PATH}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
      const signedIn = await finishGoogleSignIn(
        { db, client, policy: config, origin: requestOrigin(ctx) },
        { binding: ctx.cookies.get(GOOGLE_LOGIN_COOKIE), callbackUrl },
      );
      if (!signedIn.confirmed) setSessionCookie(ctx, config, signedIn.token);
      ctx.redirect(signedIn.redirect);
    } catch (error) {
      failed(ctx, error);
    }
  });

  return router;
}
