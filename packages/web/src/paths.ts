/** The hash routes (docs/product.md §2), and links built from them. */
export const paths = {
  home: '/',
  appList: '/applist',
  apps: '/apps',
  clients: '/clients',
  client: (id: number) => `/client/${id}`,
  userApps: '/userapps',
  app: (id: number) => `/app/${id}`,
  users: '/users',
  user: (id: number) => `/user/${id}`,
  invites: '/registrationtokens',
  accessTokens: '/accesstokens',
  logs: '/logs',
  login: '/login',
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
  /** Where a proxy sends a browser that forward auth refused (docs/forward-auth.md). */
  denied: (app: string) => `/denied/${encodeURIComponent(app)}`,
} as const;

/** A link to the login screen that returns to `redirect` afterwards. */
export function loginPath(redirect?: string, token?: string): string {
  if (!redirect) return paths.login;
  const base = `${paths.login}/${encodeURIComponent(redirect)}`;
  return token ? `${base}/${encodeURIComponent(token)}` : base;
}

/** Google sign-in is a plain browser navigation to the server. */
export function googleLoginUrl(redirect: string, token?: string): string {
  const query = new URLSearchParams({ redirect });
  if (token) query.set('token', token);
  return `/auth/google?${query.toString()}`;
}
