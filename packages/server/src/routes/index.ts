import { accessRequestRoutes } from './access-requests.js';
import { accessTokenRoutes } from './access-tokens.js';
import { accountRoutes } from './account.js';
import { appRoutes } from './apps.js';
import { authRoutes } from './auth.js';
import { clientRoutes } from './clients.js';
import { deviceRoutes } from './device.js';
import { forwardAuthRoutes } from './forward-auth.js';
import { inviteRoutes } from './invites.js';
import { logRoutes } from './logs.js';
import { openApiRoute } from './openapi.js';
import { mailRoutes } from './mail.js';
import { oidcRoutes } from './oidc.js';
import type { RouteSpec } from './route.js';
import { setupRoutes } from './setup.js';
import { reviewRoutes } from './reviews.js';
import { teamRoutes } from './teams.js';
import { userRoutes } from './users.js';
import { webhookRoutes } from './webhooks.js';

/**
 * Every call below /api/auth/v1, in one list: the router mounts it, parsing each one's declared
 * input; the permission tests, the OpenAPI document and its contract check walk it. Not here, and
 * not JSON APIs: the OpenID provider's routes (oidc/routes.ts, oidc-provider parses its own input),
 * Google's browser routes (google.ts), health, the portal's files and invitation links
 * (portal.ts), /metrics and /api/docs; forward auth's GET and HEAD /verify are answered before Koa
 * (verify-fast-path.ts), and its declared route here reads the raw request the same way.
 */
export const apiRoutes: readonly RouteSpec[] = [
  ...appRoutes,
  ...accountRoutes,
  ...oidcRoutes,
  ...deviceRoutes,
  ...userRoutes,
  ...clientRoutes,
  ...teamRoutes,
  ...inviteRoutes,
  ...accessTokenRoutes,
  ...accessRequestRoutes,
  ...reviewRoutes,
  ...logRoutes,
  ...mailRoutes,
  ...webhookRoutes,
  ...setupRoutes,
  ...authRoutes,
  ...forwardAuthRoutes,
  openApiRoute(() => apiRoutes),
];

export type { Deps, RouteSpec } from './route.js';
