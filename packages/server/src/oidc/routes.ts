/**
 * Where the OpenID provider meets the portal's Koa app: discovery and everything below /oidc/.
 * The interaction route is ours (the portal's login screen signs the browser in, then the
 * provider resumes); every other path is handed to oidc-provider, with the portal session of the
 * request (cookie only) attached for it to follow.
 */
import { ApiError } from '@tools-portal/core';
import type { Context, Next } from 'koa';
import { SESSION_COOKIE } from '../middleware/auth.js';
import type { Deps } from '../routes/route.js';
import { loginLocation } from '../forward-auth-http.js';
import { secretKeyMissing } from '../services/secret-box.js';
import { principalFromToken, type Principal } from '../services/sessions.js';
import { interactionExpiredPage, PAGE_CSS, PAGE_CSS_PATH } from './pages.js';
import { INTERACTION_PATH, ROUTES, setPortalPrincipal } from './provider.js';

const DISCOVERY_PATH = '/.well-known/openid-configuration';

// Routes that act on the browser's sign-in: only these need the portal session looked up.
const BROWSER_ROUTES = [ROUTES.authorization, ROUTES.end_session];

async function portalPrincipal(ctx: Context, deps: Deps): Promise<Principal | null> {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) return null;
  const principal = await principalFromToken(deps.db, token, deps.config);
  // A session restricted by MFA_REQUIRED may only set up a second factor (docs/security.md).
  if (principal?.restricted) throw new ApiError('mfa_enrollment_required', 'this session may only set up a second factor: set up an authenticator app or a passkey first');
  return principal?.via === 'session' ? principal : null;
}

export function oidcMiddleware(deps: Deps) {
  return async function openIdProvider(ctx: Context, next: Next): Promise<void> {
    const path = ctx.path;
    if (path !== DISCOVERY_PATH && !path.startsWith('/oidc/')) return next();
    if (path === PAGE_CSS_PATH) {
      ctx.type = 'text/css';
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = PAGE_CSS;
      return;
    }
    if (!deps.secrets.available) throw secretKeyMissing();
    if (path.startsWith(INTERACTION_PATH)) return interaction(ctx, deps, path.slice(INTERACTION_PATH.length));
    const browser = BROWSER_ROUTES.some((route) => path === route || path.startsWith(`${route}/`));
    setPortalPrincipal(ctx.req, browser ? await portalPrincipal(ctx, deps) : null);
    const handle = await deps.oidc.callback();
    ctx.respond = false;
    await handle(ctx.req, ctx.res);
  };
}

/** The provider needs the user: sign the browser in on the portal's login screen, then resume. */
async function interaction(ctx: Context, deps: Deps, uid: string): Promise<void> {
  const provider = await deps.oidc.current();
  let details: Awaited<ReturnType<typeof provider.interactionDetails>>;
  try {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(uid) || ctx.method !== 'GET') throw new Error('not an interaction');
    details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid !== uid) throw new Error('another interaction');
  } catch {
    ctx.status = 400;
    ctx.type = 'html';
    ctx.body = interactionExpiredPage(deps.config.publicUrl);
    return;
  }
  const principal = await portalPrincipal(ctx, deps);
  if (!principal) {
    ctx.redirect(loginLocation(deps.config.publicUrl, `${INTERACTION_PATH}${uid}`));
    return;
  }
  const accountId = String(principal.user.id);
  const result =
    details.prompt.name === 'consent'
      ? { consent: details.grantId ? { grantId: details.grantId } : {} }
      : { login: { accountId } };
  ctx.respond = false;
  await provider.interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: true });
}
