/** Where the provider's endpoints and pages live: every route below /oidc/ (the portal owns /auth/). */
import { OIDC_PREFIX } from '@tools-portal/core';

export const ROUTES = {
  authorization: `${OIDC_PREFIX}/auth`,
  token: `${OIDC_PREFIX}/token`,
  userinfo: `${OIDC_PREFIX}/userinfo`,
  jwks: `${OIDC_PREFIX}/jwks`,
  end_session: `${OIDC_PREFIX}/logout`,
  revocation: `${OIDC_PREFIX}/revoke`,
  introspection: `${OIDC_PREFIX}/introspect`,
  registration: `${OIDC_PREFIX}/register`,
  pushed_authorization_request: `${OIDC_PREFIX}/par`,
  code_verification: `${OIDC_PREFIX}/device`,
  device_authorization: `${OIDC_PREFIX}/device/auth`,
  backchannel_authentication: `${OIDC_PREFIX}/backchannel`,
} as const;

export const INTERACTION_PATH = `${OIDC_PREFIX}/interaction/`;
