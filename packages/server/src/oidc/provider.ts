/**
 * The portal as an OpenID Connect provider (docs/oidc.md): oidc-provider configured for this
 * contract. Its defaults differ from it in places, each set here on purpose:
 * - offline_access is kept without `prompt=consent` (apps are first-party: no consent screen);
 * - PKCE is required from public clients only, so confidential relying parties without it work;
 * - client secrets are compared as SHA-256 hashes (compareClientSecret), never stored in plain;
 * - its own sign-in session is bound to the portal session (Session.get below): it never outlives
 *   the portal's, and a browser with a portal session needs no screen of the provider's;
 * - every route lives below /oidc/ (the portal owns /auth/), discovery at the issuer's
 *   /.well-known/openid-configuration;
 * - its pages are ours, within the portal's Content-Security-Policy (oidc/pages.ts);
 * - CORS on token, userinfo and revocation only for a public client's redirect URIs' origins
 *   (corsAllowed), where oidc-provider's default refuses every origin.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { mayUseApp, OIDC_PREFIX, type CurrentUser } from '@tools-portal/core';
import type { Knex } from 'knex';
import Provider, { errors, interactionPolicy, type Account, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { IncomingMessage } from 'node:http';
import { LITERAL, preparedSelect, readPrepared } from '../db/direct-reads.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { logEvent, logRepeated } from '../services/audit.js';
import type { AuthCache } from '../services/auth-cache.js';
import { logout } from '../services/login.js';
import type { SecretBox } from '../services/secret-box.js';
import type { Principal } from '../services/sessions.js';
import { acrOf } from '../services/sign-in.js';
import { usersQuery, toCurrentUser, type UserRow } from '../services/users.js';
import { knexAdapter } from './adapter.js';
import { clientMetadata, secretMatches } from './clients.js';
import { errorPage, logoutPage, signedOutPage, withFormAction } from './pages.js';
import { ensureSigningKeys, JWKS_MAX_AGE_SECONDS, keySetVersion, loadKeySet } from './signing-keys.js';

export interface OidcDeps {
  db: Knex;
  config: Config;
  logger: Logger;
  secrets: SecretBox;
  authCache: AuthCache;
}

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

/** Token lifetimes, in seconds. */
const TTL = {
  AccessToken: 60 * 60,
  AuthorizationCode: 60,
  IdToken: 60 * 60,
  Interaction: 10 * 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Grant: 30 * 24 * 60 * 60,
  Session: 14 * 24 * 60 * 60,
} as const;

// How often an instance checks whether another one rotated the signing keys.
const KEY_CHECK_MS = 5000;

/** The portal session of a request to the provider, set by the Koa layer (oidc/routes.ts). */
const portalPrincipals = new WeakMap<IncomingMessage, Principal | null>();

export function setPortalPrincipal(request: IncomingMessage, principal: Principal | null): void {
  portalPrincipals.set(request, principal);
}

function portalPrincipalOf(ctx: { req: IncomingMessage }): Principal | null {
  return portalPrincipals.get(ctx.req) ?? null;
}

/**
 * The prefix of a provider session's uid under a portal session: what binds the two. Each
 * provider session still gets a uid of its own (codes find their session by it: two sign-ins
 * in two tabs must not share one).
 */
const boundPrefix = (principal: Principal) => `portal-${principal.sessionId}-${principal.user.id}-`;

// Read on every code exchange, refresh and userinfo call: compiled once, run on SQLite's direct
// connection (db/direct-reads.ts).
const USER_BY_ID = preparedSelect((db, id: number) => usersQuery(db).where('users.id', id).select('users.email_verified_at').limit(1, LITERAL));
const USER_OF_GRANT = preparedSelect((db, grantId: string, userId: number) =>
  usersQuery(db)
    .join('oidc_grant_sessions', 'oidc_grant_sessions.user_id', 'users.id')
    .join('sessions', 'sessions.id', 'oidc_grant_sessions.session_id')
    .join('apps', 'apps.id', 'oidc_grant_sessions.app_id')
    .where('oidc_grant_sessions.grant_id', grantId)
    .andWhere('users.id', userId)
    .select('oidc_grant_sessions.app_id', 'apps.name as app_name', 'sessions.expires_at', 'sessions.last_seen_at', 'users.email_verified_at')
    .limit(1, LITERAL),
);

/** A user as the provider's claims need it: whether the mailbox is proven (`email_verified`) beside the rest. */
type ClaimsUser = CurrentUser & { emailVerified: boolean };
type VerifiedRow = UserRow & { email_verified_at: number | string | null };

const claimsUser = (row: VerifiedRow): ClaimsUser => ({ ...toCurrentUser(row), emailVerified: row.email_verified_at !== null });

/** Looks up a user by the `sub` the provider carries (the user id as a string). */
async function userOf(db: Knex, sub: string): Promise<ClaimsUser | undefined> {
  if (!/^[1-9][0-9]{0,9}$/.test(sub)) return undefined;
  const [row] = await readPrepared<VerifiedRow, [number]>(db, USER_BY_ID, [Number(sub)]);
  return row ? claimsUser(row) : undefined;
}

/**
 * The user of a token whose grant still stands: the portal session that made the grant is alive,
 * it is this user's, and the user may still use the app. One query, checked on every code
 * exchange, refresh and userinfo call, so deletion, a removed grant or the end of the session
 * stop them at once (the grant list comes from the forward-auth cache: at most
 * AUTH_CACHE_SECONDS old).
 */
async function userOfStandingGrant(deps: OidcDeps, grantId: string, sub: string, clientId: string): Promise<ClaimsUser | undefined> {
  if (!/^[1-9][0-9]{0,9}$/.test(sub)) return undefined;
  const [row] = await readPrepared<VerifiedRow & { app_id: number; app_name: string; expires_at: number | string; last_seen_at: number | string }, [string, number]>(
    deps.db,
    USER_OF_GRANT,
    [grantId, Number(sub)],
  );
  if (!row || row.app_name !== clientId) return undefined;
  const now = Date.now();
  if (Number(row.expires_at) <= now || Number(row.last_seen_at) + deps.config.sessionIdleDays * 86_400_000 <= now) return undefined;
  const user = claimsUser(row);
  const granted = user.admin ? new Set<number>() : await deps.authCache.grantsOf(user.id);
  return mayUseApp(user, granted, Number(row.app_id)) ? user : undefined;
}

function account(user: ClaimsUser): Account {
  const sub = String(user.id);
  return {
    accountId: sub,
    async claims() {
      // True only when the user proved the mailbox (docs/oidc.md, `email_verified`).
      return { sub, email: user.email, email_verified: user.emailVerified, name: user.name || user.email, groups: [user.client.name] };
    },
  };
}

/**
 * oidc-provider drops offline_access unless the request also says prompt=consent (check_scope).
 * Apps are first-party and get no consent screen, so the scope the request asked for is put back
 * when the client may use refresh tokens and the response type returns a code.
 */
function restoreOfflineAccess(ctx: KoaContextWithOIDC): void {
  const { oidc } = ctx;
  if (oidc.route !== 'authorization' || !oidc.client || !oidc.params) return;
  const raw = ctx.method === 'POST' ? (oidc.body as Record<string, unknown> | undefined)?.scope : ctx.query.scope;
  if (typeof raw !== 'string' || !raw.split(' ').includes('offline_access')) return;
  if (!String(oidc.params.response_type ?? '').split(' ').includes('code') || !oidc.client.grantTypeAllowed('refresh_token')) return;
  const scopes = new Set(String(oidc.params.scope ?? '').split(' ').filter(Boolean));
  scopes.add('offline_access');
  oidc.params.scope = [...scopes].join(' ');
}

async function loadExistingGrant(deps: OidcDeps, ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const principal = portalPrincipalOf(ctx);
  const client = oidc.client!;
  const accountId = oidc.session!.accountId;
  if (!principal || !accountId || accountId !== String(principal.user.id)) return undefined;
  const user = principal.user;
  const appId = Number((client as unknown as Record<string, unknown>)['urn:tools-portal:app_id']);
  const granted = user.admin ? new Set<number>() : await deps.authCache.grantsOf(user.id);
  if (!mayUseApp(user, granted, appId)) {
    // One row a minute per user and app, with a count: a refused user can repeat this at will.
    await logRepeated(deps.db, { actor: user, ip: ctx.ip, userAgent: ctx.get('user-agent') }, { type: 'oidc.denied', event: `${user.email} may not use app ${client.clientId} (OpenID Connect): access denied` });
    throw new errors.AccessDenied(`you may not use app ${client.clientId}`);
  }
  restoreOfflineAccess(ctx);

  // One grant per app and portal session, widened when a later request asks for more scopes.
  const existingId = oidc.session!.grantIdFor(client.clientId);
  let grant = existingId ? await oidc.provider.Grant.find(existingId) : undefined;
  if (grant && !(await deps.db('oidc_grant_sessions').where({ grant_id: existingId, session_id: principal.sessionId }).first('grant_id'))) {
    grant = undefined;
  }
  const isNew = !grant;
  grant ??= new oidc.provider.Grant({ accountId, clientId: client.clientId });
  const scopes = [...(oidc as unknown as { requestParamOIDCScopes: Set<string> }).requestParamOIDCScopes].join(' ');
  if (scopes) grant.addOIDCScope(scopes);
  const grantId = await grant.save();
  if (isNew) {
    const session = await deps.db('sessions').where({ id: principal.sessionId }).first('expires_at');
    if (!session) return undefined;
    await deps.db('oidc_grant_sessions').insert({
      grant_id: grantId,
      session_id: principal.sessionId,
      user_id: user.id,
      app_id: appId,
      expires_at: Math.min(Number(session.expires_at), Date.now() + TTL.Grant * 1000),
    });
  }
  return grant;
}

/**
 * oidc-provider's `clientBasedCORS`: whether a browser at `origin` may call the token, userinfo or
 * revocation endpoint for `client` (docs/oidc.md, "Single-page apps"). Only public clients, which
 * run in the browser by design, and only from the origin of one of their registered redirect URIs;
 * a confidential client's secret never belongs in a browser, so it gets no CORS at all.
 */
function corsAllowed(origin: string, client: { clientAuthMethod?: string; redirectUris?: string[] }): boolean {
  if (client.clientAuthMethod !== 'none') return false;
  return (client.redirectUris ?? []).some((uri) => {
    try {
      return new URL(uri).origin === origin;
    } catch {
      return false;
    }
  });
}

/** The `acr_values` of a request (space-separated, in order of preference). */
export const requestedAcrs = (params: Record<string, unknown> | undefined): string[] => String(params?.acr_values ?? '').split(' ').filter(Boolean);

/** The interaction reason of a step-up to two factors. */
export const ACR_MFA_REASON = 'acr_mfa';

/**
 * The interaction policy: the default prompts, plus the offline_access repair before an interaction
 * is saved, and `acr_values=mfa`: a session signed in with one factor must step up (docs/oidc.md).
 */
function policy() {
  const prompts = interactionPolicy.base();
  const login = prompts.get('login')!;
  login.checks.add(
    new interactionPolicy.Check('restore_offline_access', 'offline_access kept without a consent prompt', 'login_required', (ctx) => {
      restoreOfflineAccess(ctx);
      return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }),
    0,
  );
  login.checks.add(
    new interactionPolicy.Check(ACR_MFA_REASON, 'two factors are required (acr_values=mfa)', 'login_required', (ctx) => {
      const wanted = requestedAcrs(ctx.oidc.params);
      const acr = ctx.oidc.session?.acr;
      if (!wanted.includes('mfa') || !ctx.oidc.session?.accountId || (acr && wanted.includes(acr))) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  return prompts;
}

const CLIENT_AUTH_METHODS: ['client_secret_basic', 'client_secret_post', 'none'] = ['client_secret_basic', 'client_secret_post', 'none'];

/**
 * Headers oidc-provider leaves out: `Pragma: no-cache` beside its `Cache-Control: no-store` on
 * every token answer (RFC 6749 §5.1, for HTTP/1.0 caches), errors included; and a JWKS relying
 * parties may cache for JWKS_MAX_AGE_SECONDS, well inside the time a retired key stays published.
 */
async function cacheHeaders(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  if (ctx.path === ROUTES.token) ctx.set('Pragma', 'no-cache');
  await next();
  if (ctx.path === ROUTES.jwks && ctx.status === 200) ctx.set('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
}

async function buildProvider(deps: OidcDeps, keys: Configuration['jwks']): Promise<Provider> {
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
    claims: { openid: ['sub', 'acr', 'amr'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    // The values of `acr`: two factors, one (a password), or Google.
    acrValues: ['mfa', 'pwd', 'fed'],
    scopes: ['openid', 'offline_access', 'email', 'profile', 'groups'],
    // The ID token carries the claims of the granted scopes too, as most relying parties expect.
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    clientAuthMethods: CLIENT_AUTH_METHODS,
    clientBasedCORS: (_ctx, origin, client) => corsAllowed(origin, client),
    // The revocation endpoint authenticates clients the way the token endpoint does.
    discovery: { revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS },
    pkce: { methods: ['S256'], required: (_ctx, client) => client.clientAuthMethod === 'none' },
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256', 'ES256'],
      userinfoSigningAlgValues: ['RS256', 'ES256'],
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
      deviceFlow: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      requestObjects: { request: false, requestUri: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          const target = (ctx.oidc.session?.state as { postLogoutRedirectUri?: string } | undefined)?.postLogoutRedirectUri;
          withFormAction(ctx, target);
          ctx.type = 'html';
          ctx.body = logoutPage(form, ctx.oidc.client?.clientId);
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = signedOutPage(config.publicUrl);
        },
      },
    },
    extraClientMetadata: { properties: ['urn:tools-portal:app_id'] },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}`, policy: policy() },
    async findAccount(_ctx, sub, token) {
      const grantId = token && 'grantId' in token ? (token.grantId as string | undefined) : undefined;
      const user = grantId ? await userOfStandingGrant(deps, grantId, sub, String(token!.clientId)) : await userOf(db, sub);
      return user ? account(user) : undefined;
    },
    loadExistingGrant: (ctx) => loadExistingGrant(deps, ctx),
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: TTL.AccessToken,
      AuthorizationCode: TTL.AuthorizationCode,
      IdToken: TTL.IdToken,
      Interaction: TTL.Interaction,
      RefreshToken: TTL.RefreshToken,
      Grant: TTL.Grant,
      Session: TTL.Session,
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = errorPage(out as unknown as Record<string, string | undefined>, config.publicUrl);
    },
  };
  const provider = new Provider(config.publicUrl, configuration);
  provider.proxy = config.trustProxy;
  provider.on('server_error', (_ctx: unknown, error: Error) => deps.logger.error('OpenID provider error', error));

  // Secrets are stored as SHA-256 hashes: compare the presented one by its hash, in constant time.
  provider.Client.prototype.compareClientSecret = async function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    return secretMatches(this.clientSecret ?? '', actual);
  };

  cacheClients(provider, db);
  bindSessionToPortal(provider);
  provider.use(cacheHeaders);
  provider.use(async (ctx, next) => {
    await next();
    await afterProviderRoute(deps, ctx as KoaContextWithOIDC);
  });
  return provider;
}

/**
 * oidc-provider rebuilds a client from its metadata after hashing the metadata (object-hash, about
 * half a millisecond of CPU) on every request. The metadata is still read on every request (so a
 * new secret or a deleted client holds at once, on every instance); the built client is reused
 * while the metadata is the same text.
 */
function cacheClients(provider: Provider, db: Knex): void {
  const Client = provider.Client as unknown as { find(id: string): Promise<unknown> };
  const original = Client.find.bind(Client);
  const built = new Map<string, { text: string; client: unknown }>();
  Client.find = async function find(id: string) {
    if (typeof id !== 'string') return undefined;
    const metadata = await clientMetadata(db, id);
    if (!metadata) {
      built.delete(id);
      return undefined;
    }
    const text = JSON.stringify(metadata);
    const hit = built.get(id);
    if (hit?.text === text) return hit.client;
    const client = await original(id);
    if (client) built.set(id, { text, client });
    return client;
  };
}

/**
 * The provider's sign-in session follows the portal session: with one, the provider's session is
 * that user's (made on the spot, so `prompt=none` gets a code); without one, it is empty; a
 * provider session made under another portal session is never used.
 */
function bindSessionToPortal(provider: Provider): void {
  const Session = provider.Session as unknown as {
    get(ctx: KoaContextWithOIDC): Promise<SessionLike>;
    new (payload?: Record<string, unknown>): SessionLike;
  };
  const original = Session.get.bind(Session);
  Session.get = async function get(ctx: KoaContextWithOIDC) {
    const session = await original(ctx);
    const principal = portalPrincipalOf(ctx);
    if (!principal) {
      if (!session.accountId) return session;
      return register(ctx, new Session());
    }
    const prefix = boundPrefix(principal);
    if (session.uid?.startsWith(prefix) && session.accountId === String(principal.user.id)) return Object.assign(session, signInOf(principal));
    const uid = `${prefix}${randomBytes(12).toString('base64url')}`;
    return register(ctx, new Session({ uid, accountId: String(principal.user.id), ...signInOf(principal) }));
  };
  const register = (ctx: KoaContextWithOIDC, session: SessionLike) => {
    if (ctx.oidc) ctx.oidc.entity('Session', session as never);
    return session;
  };
}

interface SessionLike {
  uid: string;
  accountId?: string;
}

/**
 * What the provider's session tells apps of the sign-in (`auth_time`, `amr`, `acr`): always the
 * portal session's, when its user really signed in or last confirmed it, never the request's.
 */
export function signInOf(principal: Principal): { loginTs: number; amr?: string[]; acr: string } {
  const amr = principal.amr ?? [];
  return { loginTs: Math.floor((principal.signedInAt ?? Date.now()) / 1000), ...(amr.length > 0 ? { amr } : {}), acr: acrOf(amr) };
}

/** After a provider route: the event-log row of a sign-in, and RP-initiated logout ending the portal session. */
async function afterProviderRoute(deps: OidcDeps, ctx: KoaContextWithOIDC): Promise<void> {
  const route = ctx.oidc?.route;
  if (!route) return;
  const principal = portalPrincipalOf(ctx);
  const audit = { actor: principal?.user ?? null, ip: ctx.ip, userAgent: ctx.get('user-agent') };
  if ((route === 'authorization' || route === 'resume') && principal && ctx.oidc.client) {
    const location = ctx.response.get('location');
    const issued = ctx.status === 303 && location && new URL(location, deps.config.publicUrl).searchParams.has('code');
    const formPost = ctx.status === 200 && ctx.oidc.params?.response_mode === 'form_post';
    if (issued || formPost) await logEvent(deps.db, audit, { type: 'oidc.signin', event: `signed in to app ${ctx.oidc.client.clientId} (OpenID Connect)` });
    if (formPost) withFormAction(ctx, String(ctx.oidc.params?.redirect_uri ?? ''));
  }
  if (route === 'end_session_confirm' && ctx.oidc.params?.logout && principal && ctx.status === 303) {
    const app = ctx.oidc.client ? ` from app ${ctx.oidc.client.clientId}` : '';
    await logout(deps.db, { ...audit, actor: principal.user }, { sessionId: principal.sessionId, event: { type: 'oidc.logout', text: `logged out (OpenID Connect logout${app})` } });
    deps.authCache.clear();
    ctx.append('Set-Cookie', clearPortalCookie(deps.config.secureCookies));
  }
}

function clearPortalCookie(secure: boolean): string {
  return `accesstoken=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * The provider of this instance, rebuilt when the signing keys change (a rotation on any
 * instance is seen within KEY_CHECK_MS).
 */
export class OidcProvider {
  private provider: Provider | undefined;
  private handler: ((req: IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>) | undefined;
  private version = '';
  private checkedAt = 0;
  private building: Promise<void> | undefined;

  constructor(private readonly deps: OidcDeps) {}

  /** Makes the first signing keys when there are none (at start; needs SECRET_KEY). */
  async prepare(): Promise<void> {
    if (!this.deps.secrets.available) return;
    await ensureSigningKeys(this.deps.db, this.deps.secrets);
  }

  /** Forget the built provider: the next request rebuilds it (after a rotation on this instance). */
  invalidate(): void {
    this.checkedAt = 0;
  }

  async current(): Promise<Provider> {
    await this.refresh();
    return this.provider!;
  }

  async callback(): Promise<(req: IncomingMessage, res: import('node:http').ServerResponse) => Promise<void>> {
    await this.refresh();
    return this.handler!;
  }

  private async refresh(): Promise<void> {
    if (this.provider && Date.now() - this.checkedAt < KEY_CHECK_MS) return;
    this.building ??= (async () => {
      try {
        const version = await keySetVersion(this.deps.db);
        if (!this.provider || version !== this.version) {
          if (version === '') await this.prepare();
          const set = await loadKeySet(this.deps.db, this.deps.secrets);
          const provider = await buildProvider(this.deps, { keys: set.keys });
          this.provider = provider;
          this.handler = provider.callback() as never;
          this.version = set.version;
        }
        this.checkedAt = Date.now();
      } finally {
        this.building = undefined;
      }
    })();
    await this.building;
  }
}
