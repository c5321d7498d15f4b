/**
 * The OpenID provider's names that the web shows as they are (docs/oidc.md). Apart from oidc.ts,
 * whose zod schemas the web bundle must not carry (packages/web/test/browser/bundle.test.ts).
 */
export const OIDC_SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type OidcSigningAlg = (typeof OIDC_SIGNING_ALGS)[number];

/** The scopes the provider supports, in the order its discovery document lists them. */
export const OIDC_SCOPES = ['openid', 'offline_access', 'email', 'profile', 'groups', 'roles'] as const;

/** Where the provider's endpoints live below PUBLIC_URL (the portal's own `/auth/` is the web portal). */
export const OIDC_PREFIX = '/oidc';
