/**
 * Grants (oidc-provider's `loadExistingGrant`): apps are first-party, so a user who may use the app
 * gets a grant without a consent screen; one grant per app and portal session, widened when a
 * later request asks for more scopes, and never outliving that session.
 */
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { logRepeated } from '../services/log/audit.js';
import { userMayUseApp } from '../services/access/forward-auth.js';
import { bindGrantToSession, grantMadeUnder } from '../services/openid/openid-grants.js';
import type { OidcDeps } from './deps.js';
import { restoreOfflineAccess } from './interaction-policy.js';
import { TTL } from './lifetimes.js';
import { portalPrincipalOf } from './portal-session.js';

export async function loadExistingGrant(deps: OidcDeps, ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const principal = portalPrincipalOf(ctx);
  const client = oidc.client!;
  const accountId = oidc.session!.accountId;
  if (!principal || !accountId || accountId !== String(principal.user.id)) return undefined;
  const user = principal.user;
  const appId = Number((client as unknown as Record<string, unknown>)['urn:tools-portal:app_id']);
  if (!(await userMayUseApp(deps.authCache, user, appId))) {
    // One row a minute per user and app, with a count: a refused user can repeat this at will.
    await logRepeated(
      deps.db,
      { actor: user, ip: ctx.ip, userAgent: ctx.get('user-agent') },
      { type: 'oidc.denied', event: `${user.email} may not use app ${client.clientId} (OpenID Connect): access denied` },
    );
    throw new errors.AccessDenied(`you may not use app ${client.clientId}`);
  }
  restoreOfflineAccess(ctx);

  const existingId = oidc.session!.grantIdFor(client.clientId);
  let grant = existingId ? await oidc.provider.Grant.find(existingId) : undefined;
  if (grant && !(await grantMadeUnder(deps.db, existingId!, principal.sessionId!))) {
    grant = undefined;
  }
  const isNew = !grant;
  grant ??= new oidc.provider.Grant({ accountId, clientId: client.clientId });
  const scopes = [...(oidc as unknown as { requestParamOIDCScopes: Set<string> }).requestParamOIDCScopes].join(' ');
  if (scopes) grant.addOIDCScope(scopes);
  const grantId = await grant.save();
  if (isNew) {
    const bound = await bindGrantToSession(deps.db, {
      grantId,
      sessionId: principal.sessionId!,
      userId: user.id,
      appId,
      latestEnd: Date.now() + TTL.Grant * 1000,
    });
    if (!bound) return undefined;
  }
  return grant;
}
