/**
 * Where the OpenID provider meets the portal's Koa app: discovery and everything below /oidc/.
 * The interaction route is ours (the portal's login screen signs the browser in, then the
 * provider resumes); every other path is handed to oidc-provider, with the portal session of the
 * request (cookie only) attached for it to follow.
 */
import { ApiError } from '@tools-portal/core';
import type { Context, Next } from 'koa';
import type { InteractionResults } from 'oidc-provider';
import { SESSION_COOKIE } from '../middleware/auth.js';
import type { Deps } from '../routes/route.js';
import { loginLocation } from '../forward-auth-http.js';
import { secretKeyMissing } from '../services/support/secret-box.js';
import { secondFactorsOf } from '../services/sign-in/second-factors.js';
import { principalFromToken, type Principal } from '../services/sign-in/sessions.js';
import { interactionExpiredPage, PAGE_CSS, PAGE_CSS_PATH } from './pages.js';
import { ACR_MFA_REASON, requestedAcrs } from './interaction-policy.js';
import { verificationUris } from './device-flow.js';
import { INTERACTION_PATH, ROUTES } from './paths.js';
import { setPortalPrincipal, signInOf } from './portal-session.js';

const DISCOVERY_PATH = '/.well-known/openid-configuration';

/** The provider's endpoints, each its own route in the request log and metrics (others are unmatched). */
const PROVIDER_ROUTES = new Set<string>([DISCOVERY_PATH, ...Object.values(ROUTES)]);

// Routes that act on the browser's sign-in: only these need the portal session looked up.
const BROWSER_ROUTES = [ROUTES.authorization, ROUTES.end_session];

async function portalPrincipal(ctx: Context, deps: Deps): Promise<Principal | null> {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) return null;
  const principal = await principalFromToken(deps.db, token, deps.config);
  // A session restricted by MFA_REQUIRED may only set up a second factor (docs/security.md).
  if (principal?.restricted)
    throw new ApiError('mfa_enrollment_required', 'this session may only set up a second factor: set up an authenticator app or a passkey first');
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
    if (PROVIDER_ROUTES.has(path)) ctx.state.route = path;
    if (!deps.secrets.available) throw secretKeyMissing();
    if (path.startsWith(INTERACTION_PATH)) return interaction(ctx, deps, path.slice(INTERACTION_PATH.length));
    if (isProviderVerificationPage(path)) return toPortalVerificationPage(ctx, deps);
    const browser = BROWSER_ROUTES.some((route) => path === route || path.startsWith(`${route}/`));
    setPortalPrincipal(ctx.req, browser ? await portalPrincipal(ctx, deps) : null);
    const handle = await deps.oidc.callback();
    ctx.respond = false;
    await handle(ctx.req, ctx.res);
  };
}

/** The provider's own device verification pages (`/oidc/device`, `/oidc/device/{uid}`), never served. */
function isProviderVerificationPage(path: string): boolean {
  if (path === ROUTES.device_authorization) return false;
  return path === ROUTES.code_verification || path.startsWith(`${ROUTES.code_verification}/`);
}

/** The device grant is verified on the portal's page (oidc/device-flow.ts): a browser that comes here goes there. */
function toPortalVerificationPage(ctx: Context, deps: Deps): void {
  if (ctx.method !== 'GET') throw new ApiError('not_found', 'the device verification page is /auth/#/device');
  const code = typeof ctx.query.user_code === 'string' ? ctx.query.user_code : '';
  const uris = verificationUris(deps.config.publicUrl, code);
  ctx.redirect(code ? uris.verification_uri_complete : uris.verification_uri);
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
    ctx.body = interactionExpiredPage({ publicUrl: deps.config.publicUrl, portalName: deps.config.branding.portalName });
    return;
  }
  const principal = await portalPrincipal(ctx, deps);
  if (!principal) {
    ctx.redirect(loginLocation(deps.config.publicUrl, `${INTERACTION_PATH}${uid}`));
    return;
  }
  const accountId = String(principal.user.id);
  let result: InteractionResults;
  if (details.prompt.name === 'consent') result = { consent: details.grantId ? { grantId: details.grantId } : {} };
  else {
    const confirmation = await confirmationNeeded(deps, principal, details);
    if (confirmation === 'no-second-factor') {
      result = { error: 'unmet_authentication_requirements', error_description: 'two factors are required and this user has no second factor' };
    } else if (confirmation) {
      ctx.redirect(confirmLocation(deps.config.publicUrl, `${INTERACTION_PATH}${uid}`, confirmation));
      return;
    } else {
      const { loginTs, amr, acr } = signInOf(principal);
      result = { login: { accountId, ts: loginTs, amr, acr } };
    }
  }
  ctx.respond = false;
  await provider.interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: true });
}

/**
 * Whether the portal session satisfies the request, else how the user must confirm it is them
 * (docs/oidc.md): `prompt=login` wants a sign-in after the request began, `max_age` one recent
 * enough, `acr_values=mfa` one with two factors (a step-up; refused for a user without a second
 * factor). The session's sign-in time and methods are the truth the provider passes on.
 */
async function confirmationNeeded(
  deps: Deps,
  principal: Principal,
  details: { prompt: { reasons: string[] }; params: Record<string, unknown>; iat?: number },
): Promise<'confirm' | 'step-up' | 'no-second-factor' | undefined> {
  const { reasons } = details.prompt;
  const signedInAt = principal.signedInAt ?? 0;
  const wanted = requestedAcrs(details.params);
  const acr = signInOf(principal).acr;
  if (reasons.includes(ACR_MFA_REASON) && wanted.includes('mfa') && !wanted.includes(acr)) {
    return (await secondFactorsOf(deps.db, principal.user.id)).length > 0 ? 'step-up' : 'no-second-factor';
  }
  // A sign-in after the request began satisfies both (max_age=0 included).
  if (signedInAt >= (details.iat ?? 0) * 1000) return undefined;
  if (reasons.includes('login_prompt')) return 'confirm';
  const maxAge = Number(details.params.max_age);
  if (reasons.includes('max_age') && Number.isFinite(maxAge) && Date.now() - signedInAt > maxAge * 1000) return 'confirm';
  return undefined;
}

/** The portal's Confirm it's you screen (web: screens/login.tsx), then back to `target`. */
function confirmLocation(publicUrl: string, target: string, kind: 'confirm' | 'step-up'): string {
  return `${publicUrl}/auth/#/${kind === 'step-up' ? 'stepup' : 'confirm'}/${encodeURIComponent(target)}`;
}
