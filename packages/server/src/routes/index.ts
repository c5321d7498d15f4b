import { accessRequestRoutes } from './access-requests.js';
import { accessTokenRoutes } from './access-tokens.js';
import { accountRoutes } from './account.js';
import { appRoutes } from './apps.js';
import { authRoutes } from './auth.js';
import { clientRoutes } from './clients.js';
import { forwardAuthRoutes } from './forward-auth.js';
import { inviteRoutes } from './invites.js';
import { logRoutes } from './logs.js';
import { openApiRoute } from './openapi.js';
import { mailRoutes } from './mail.js';
import { oidcRoutes } from './oidc.js';
import type { RouteSpec } from './route.js';
import { userRoutes } from './users.js';

/** Every call below /api/auth/v1, in one list: the router mounts it, the permission tests walk it. */
export const apiRoutes: readonly RouteSpec[] = [
  ...appRoutes,
  ...accountRoutes,
  ...oidcRoutes,
  ...userRoutes,
  ...clientRoutes,
  ...inviteRoutes,
  ...accessTokenRoutes,
  ...accessRequestRoutes,
  ...logRoutes,
  ...mailRoutes,
  ...authRoutes,
  ...forwardAuthRoutes,
  openApiRoute(() => apiRoutes),
];

export type { Deps, RouteSpec } from './route.js';
