/**
 * After a provider route: the event-log row of a sign-in, RP-initiated logout ending the portal
 * session, and the device authorization answer naming the portal's verification page.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import { logEvent } from '../services/log/audit.js';
import { logout } from '../services/sign-in/login.js';
import type { OidcDeps } from './deps.js';
import { presentDeviceAuthorization } from './device-flow.js';
import { withFormAction } from './pages.js';
import { portalPrincipalOf } from './portal-session.js';

export async function afterProviderRoute(deps: OidcDeps, ctx: KoaContextWithOIDC): Promise<void> {
  const route = ctx.oidc?.route;
  if (!route) return;
  if (route === 'device_authorization') return presentDeviceAuthorization(ctx, deps.config.publicUrl);
  // The rest concerns the browser's routes only (not userinfo or the token endpoint, the hot ones).
  if (route !== 'authorization' && route !== 'resume' && route !== 'end_session_confirm') return;
  const principal = portalPrincipalOf(ctx);
  const audit = { actor: principal?.user ?? null, ip: ctx.ip, userAgent: ctx.get('user-agent') };
  if ((route === 'authorization' || route === 'resume') && principal && ctx.oidc.client) {
    const location = ctx.response.get('location');
    const issued = ctx.status === 303 && location && new URL(location, deps.config.publicUrl).searchParams.has('code');
    const formPost = ctx.status === 200 && ctx.oidc.params?.response_mode === 'form_post';
    if (issued || formPost) {
      const appId = Number((ctx.oidc.client as unknown as Record<string, unknown>)['urn:tools-portal:app_id']);
      if (Number.isInteger(appId)) deps.lastUse.note(principal.user.id, appId);
      await logEvent(deps.db, audit, { type: 'oidc.signin', event: `signed in to app ${ctx.oidc.client.clientId} (OpenID Connect)` });
    }
    if (formPost) withFormAction(ctx, String(ctx.oidc.params?.redirect_uri ?? ''));
  }
  if (route === 'end_session_confirm' && ctx.oidc.params?.logout && principal && ctx.status === 303) {
    const app = ctx.oidc.client ? ` from app ${ctx.oidc.client.clientId}` : '';
    await logout(
      { ...audit, db: deps.db, policy: deps.config, now: Date.now, actor: principal.user },
      { sessionId: principal.sessionId, event: { type: 'oidc.logout', text: `logged out (OpenID Connect logout${app})` } },
    );
    deps.authCache.clear();
    ctx.append('Set-Cookie', clearPortalCookie(deps.config.secureCookies));
  }
}

function clearPortalCookie(secure: boolean): string {
  return `accesstoken=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
