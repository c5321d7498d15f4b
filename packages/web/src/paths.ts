/** The hash routes (docs/product.md §2), and links built from them. */
export const paths = {
  home: '/',
  appList: '/applist',
  apps: '/apps',
  /** The admin console's Apps table: New App, Edit, Delete App (docs/product.md §2). */
  manageApps: '/manage/apps',
  clients: '/clients',
  client: (id: number) => `/client/${id}`,
  userApps: '/userapps',
  teams: '/teams',
  /** Apps you own: an owner's apps, their access and open requests. */
  ownedApps: '/owned',
  team: (id: number) => `/team/${id}`,
  app: (id: number) => `/app/${id}`,
  users: '/users',
  user: (id: number) => `/user/${id}`,
  invites: '/registrationtokens',
  accessTokens: '/accesstokens',
  logs: '/logs',
  /** Webhooks (docs/webhooks.md): event-log entries sent to receivers, signed. */
  webhooks: '/webhooks',
  /** Access reviews (docs/reviews.md): the console's list, and one review's items. */
  reviews: '/reviews',
  review: (id: number) => `/reviews/${id}`,
  /** Reviews waiting for you: a reviewer's open reviews in the portal. */
  reviewsWaiting: '/myreviews',
  login: '/login',
  /** Confirm it's you (docs/oidc.md): the signed-in user proves it again, then goes to `redirect`. */
  confirm: (redirect: string) => `/confirm/${encodeURIComponent(redirect)}`,
  /** The same screen when an app asks for two factors (acr_values=mfa). */
  stepUp: (redirect: string) => `/stepup/${encodeURIComponent(redirect)}`,
  /** The signed-in user's password, second factors and sessions. */
  account: '/account',
  failedLogin: '/failedlogin',
  resetPassword: '/reset',
  setNewPassword: (token: string) => `/reset/${encodeURIComponent(token)}`,
  docs: '/docs',
  /** Request access: every user's requests, and the apps they may ask for. */
  requests: '/requests',
  /** Access requests: the admins' screen for deciding them. */
  accessRequests: '/accessrequests',
  /** The device grant's verification page (docs/oidc.md, Device grant), with the code when the link carries it. */
  device: (code = '') => (code ? `/device/${encodeURIComponent(code)}` : '/device'),
  /** Where a proxy sends a browser that forward auth refused (docs/forward-auth.md). */
  denied: (app: string) => `/denied/${encodeURIComponent(app)}`,
} as const;

/** A link to the login screen that returns to `redirect` afterwards. */
export function loginPath(redirect?: string, token?: string): string {
  if (!redirect) return paths.login;
  const base = `${paths.login}/${encodeURIComponent(redirect)}`;
  return token ? `${base}/${encodeURIComponent(token)}` : base;
}

/** Google sign-in is a plain browser navigation to the server; `confirm` confirms the signed-in session. */
export function googleLoginUrl(redirect: string, token?: string, confirm?: boolean): string {
  const query = new URLSearchParams({ redirect });
  if (token) query.set('token', token);
  if (confirm) query.set('confirm', '1');
  return `/auth/google?${query.toString()}`;
}
