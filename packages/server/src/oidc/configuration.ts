/**
 * The portal as an OpenID Connect provider (docs/oidc.md): oidc-provider configured for this
 * contract, from the parts beside this file. Its defaults differ from it in places, each set on purpose:
 * - offline_access is kept without `prompt=consent` (apps are first-party: no consent screen;
 *   oidc/interaction-policy.ts);
 * - PKCE is required from public clients only, so confidential relying parties without it work;
 * - client secrets are compared as SHA-256 hashes (oidc/client-model.ts), never stored in plain;
 * - its own sign-in session is bound to the portal session (oidc/portal-session.ts): it never
 *   outlives the portal's, and a browser with a portal session needs no screen of the provider's;
 * - every route lives below /oidc/ (oidc/paths.ts; the portal owns /auth/), discovery at the
 *   issuer's /.well-known/openid-configuration;
 * - its pages are ours, within the portal's Content-Security-Policy (oidc/pages.ts, oidc/rendering.ts);
 * - the device grant (RFC 8628) for the built-in `toolsctl` client and apps that enable it, verified
 *   on the portal's own page (oidc/device-flow.ts, oidc/device-approval.ts);
 * - CORS on token, userinfo and revocation only for a public client's redirect URIs' origins
 *   (oidc/headers.ts), where oidc-provider's default refuses every origin;
 * - a userinfo call's session binding and standing grant are remembered as its token's row is, for
 *   at most AUTH_CACHE_SECONDS (oidc/remembered-lookups.ts).
 * The supported scopes and signing algorithms are core's (OIDC_SCOPES, OIDC_SIGNING_ALGS).
 */
import { createHmac } from 'node:crypto';
import { OIDC_SCOPES, OIDC_SIGNING_ALGS } from '@tools-portal/core';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { findAccount } from './account.js';
import { knexAdapter } from './adapter.js';
import { afterProviderRoute } from './after-route.js';
import { cacheClients, compareSecretsByHash } from './client-model.js';
import { rememberSessionBinding } from './remembered-lookups.js';
import type { OidcDeps } from './deps.js';
import { deviceInfo, limitPolling } from './device-flow.js';
import { loadExistingGrant } from './grants.js';
import { cacheHeaders, corsAllowed } from './headers.js';
import { policy } from './interaction-policy.js';
import { TTL } from './lifetimes.js';
import { INTERACTION_PATH, ROUTES } from './paths.js';
import { bindSessionToPortal } from './portal-session.js';
import { logoutPagesFor, renderErrorFor } from './rendering.js';
import { rememberUserinfoAnswers } from './userinfo-answers.js';

const CLIENT_AUTH_METHODS: ['client_secret_basic', 'client_secret_post', 'none'] = ['client_secret_basic', 'client_secret_post', 'none'];

export async function buildProvider(deps: OidcDeps, keys: Configuration['jwks']): Promise<Provider> {
  const { config, db } = deps;
  // Cookie signing keys shared by every instance: derived from SECRET_KEY, never stored.
  const cookieKey = createHmac('sha256', deps.secrets.requireKey()).update('oidc-provider cookies').digest('base64url');
  const configuration: Configuration = {
    adapter: knexAdapter({ db, memory: deps.authCache }),
    clients: [],
    jwks: keys,
    cookies: {
      keys: [cookieKey],
      names: { session: 'oidc_session', interaction: 'oidc_interaction', resume: 'oidc_resume' },
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    // `acr` and `amr` are in every ID token (docs/oidc.md): they come from the session, not the account.
    claims: { openid: ['sub', 'acr', 'amr'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'], roles: ['roles'] },
    // The values of `acr`: two factors, one (a password), or Google.
    acrValues: ['mfa', 'pwd', 'fed'],
    scopes: [...OIDC_SCOPES],
    // The ID token carries the claims of the granted scopes too, as most relying parties expect.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    clientAuthMethods: CLIENT_AUTH_METHODS,
    clientBasedCORS: (_ctx, origin, client) => corsAllowed(origin, client),
    // The revocation endpoint authenticates clients the way the token endpoint does.
    discovery: { revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS },
    pkce: { methods: ['S256'], required: (_ctx, client) => client.clientAuthMethod === 'none' },
    enabledJWA: {
      idTokenSigningAlgValues: [...OIDC_SIGNING_ALGS],
      userinfoSigningAlgValues: [...OIDC_SIGNING_ALGS],
    },
    allowOmittingSingleRegisteredRedirectUri: false,
    routes: ROUTES,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: false },
      userinfo: { enabled: true },
      registration: { enabled: false },
      claimsParameter: { enabled: false },
      clientCredentials: { enabled: false },
      // The device grant (oidc/device-flow.ts): codes like BCDF-GHJK, approved on the portal's page.
      deviceFlow: { enabled: true, charset: 'base-20', mask: '****-****', deviceInfo },
      pushedAuthorizationRequests: { enabled: false },
      requestObjects: { request: false, requestUri: false },
      rpInitiatedLogout: { enabled: true, ...logoutPagesFor({ publicUrl: config.publicUrl, portalName: config.branding.portalName }) },
    },
    extraClientMetadata: { properties: ['urn:tools-portal:app_id'] },
    // The device authorization request may name the device's host ("toolsctl on HOST").
    extraParams: ['host'],
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}`, policy: policy() },
    findAccount: findAccount(deps),
    loadExistingGrant: (ctx) => loadExistingGrant(deps, ctx),
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: TTL.AccessToken,
      AuthorizationCode: TTL.AuthorizationCode,
      DeviceCode: TTL.DeviceCode,
      IdToken: TTL.IdToken,
      Interaction: TTL.Interaction,
      RefreshToken: TTL.RefreshToken,
      Grant: TTL.Grant,
      Session: TTL.Session,
    },
    renderError: renderErrorFor({ publicUrl: config.publicUrl, portalName: config.branding.portalName }),
  };
  const provider = new Provider(config.publicUrl, configuration);
  provider.proxy = config.trustProxy;
  provider.on('server_error', (_ctx: unknown, error: Error) => deps.logger.error('OpenID provider error', error));

  compareSecretsByHash(provider);
  cacheClients(provider, db);
  rememberSessionBinding(provider, deps.authCache);
  bindSessionToPortal(provider);
  limitPolling(provider, db);
  provider.use(cacheHeaders);
  provider.use(rememberUserinfoAnswers(deps.authCache));
  provider.use(async (ctx, next) => {
    await next();
    await afterProviderRoute(deps, ctx as KoaContextWithOIDC);
  });
  return provider;
}
