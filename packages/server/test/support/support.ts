/**
 * Test support: a real portal on an ephemeral port over a real database file, and helpers to
 * call it the way clients do. One portal per test file; each test makes the data it needs.
 */
import net from 'node:net';
import { PortalClient, isMfaChallenge, type App, type Client, type CurrentUser, type LoginAnswer, type PasswordAnswer } from '@tools-portal/core';
import { loadConfig, startPortal, type Logger, type RunningPortal } from '@tools-portal/server';
import { afterAll, beforeAll, inject } from 'vitest';
import { createMigratedTestDatabase, createTestDatabase, TEST_SECRET_KEY, type DatabaseTemplate, type TestDatabase } from './database.js';
import { checkingFetch, violations } from './openapi-check.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'steady-kettle-4821';
export const USER_PASSWORD = 'user-password-123';

export interface TestPortal extends RunningPortal {
  /** An API client logged in as the bootstrapped admin (Bearer session token). */
  admin: PortalClient;
  /** An API client with no credentials. */
  anonymous: PortalClient;
  /** A fresh client, optionally with a token. */
  client(token?: string): PortalClient;
  /** Logs in by password; answers the session token. */
  login(email: string, password: string): Promise<string>;
  /** Creates a client, invites a user into it with the given apps, registers them; answers a logged-in API client. */
  createUser(options?: { email?: string; client?: Client; apps?: App[]; password?: string }): Promise<TestUser>;
  /** Raw HTTP against the portal, for what the typed client does not express. */
  fetch(pathname: string, init?: RequestInit): Promise<Response>;
  /**
   * Moves the clock of this portal's forward-auth cache (AuthCache) past CACHE_BOUND_MS, as
   * waiting that long would: what another instance changed must show here at once after it.
   */
  passCacheBound(): void;
  /** Moves that clock by `ms`, as waiting that long would (for what must hold within the bound, not just after it). */
  moveCacheClock(ms: number): void;
}

export interface TestUser {
  api: PortalClient;
  token: string;
  user: CurrentUser;
  email: string;
  password: string;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// docs/product.md, Forward auth: a revoked session may keep working on another instance for at most 5 seconds.
export const CACHE_BOUND_MS = 5000;

/** Polls until `check` answers true; answers whether it did within `limitMs` (bounded loop). */
export async function becomesTrue(check: () => Promise<boolean>, limitMs: number, stepMs = 200): Promise<boolean> {
  for (let waited = 0; waited <= limitMs; waited += stepMs) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return false;
}

/** Whether a call fails as unauthenticated (401). */
export const refuses = (call: Promise<unknown>) =>
  call.then(
    () => false,
    (error: { code?: string }) => error.code === 'unauthenticated',
  );

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;

declare module 'vitest' {
  export interface ProvidedContext {
    /** Given by global setup (./database-template.ts); none in projects whose setup makes none. */
    databaseTemplate: DatabaseTemplate | undefined;
  }
}

/**
 * A fresh database of the dialect under test, already migrated (a copy of the run's template,
 * see ./database-template.ts), for portals whose test is not about migrating. `secretKey`: the
 * SECRET_KEY of the portals that will use it, when not TEST_SECRET_KEY.
 */
export function createPortalDatabase(options: { secretKey?: string } = {}): Promise<TestDatabase> {
  return createMigratedTestDatabase(inject('databaseTemplate'), options);
}

/**
 * Starts a portal for one test file on a fresh database of the dialect under test (TEST_DATABASE,
 * see ./database.ts), migrated already, removed at close. Pass a `database` to share one between
 * several portals (createTestDatabase for an empty one); its owner drops it.
 */
export async function startTestPortal(
  env: Record<string, string> = {},
  options: { logger?: Logger; database?: TestDatabase; keepPublicUrl?: boolean } = {},
): Promise<TestPortal> {
  // A DATABASE_URL of the test's own (a proxy in front of the test PostgreSQL) reaches the test
  // database, not a copy: the portal gets a schema there and migrates it.
  const own = options.database
    ? undefined
    : env.DATABASE_URL
      ? createTestDatabase()
      : await createPortalDatabase({ secretKey: env.SECRET_KEY ?? TEST_SECRET_KEY });
  const db = options.database ?? own!;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    SCRYPT_LOGN: '10',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    WEB_ROOT: '',
    // Instances of one test share a database, so they share this key (SECRET_KEY: '' leaves it unset).
    SECRET_KEY: TEST_SECRET_KEY,
    ...env,
  });
  let running: RunningPortal;
  let cacheClockAhead = 0;
  try {
    running = await startPortal(config, {
      publicUrlFromAddress: !options.keepPublicUrl,
      logger: options.logger,
      schema: db.schema,
      authCacheNow: () => Date.now() + cacheClockAhead,
    });
  } catch (error) {
    await own?.drop();
    throw error;
  }
  // Every answer the tests receive is checked against the OpenAPI document (openapi-check.ts).
  const checked = checkingFetch();
  const client = (token?: string) => new PortalClient({ baseUrl: running.url, token, fetch: checked });
  const login = async (email: string, password: string) => (await client().auth.login({ Email: email, Password: password })).accesstoken;
  const admin = client(await login(ADMIN_EMAIL, ADMIN_PASSWORD));

  const portal: TestPortal = {
    ...running,
    admin,
    anonymous: client(),
    client,
    login,
    fetch: (pathname, init) => checked(`${running.url}${pathname}`, init),
    passCacheBound() {
      cacheClockAhead += CACHE_BOUND_MS;
    },
    moveCacheClock(ms) {
      cacheClockAhead += ms;
    },
    async createUser(options = {}) {
      const email = options.email ?? `${unique('user')}@example.com`;
      const password = options.password ?? USER_PASSWORD;
      const owner = options.client ?? (await admin.clients.create(unique('client')));
      const invite = await admin.invites.create({ email, clientid: owner.id, apps: (options.apps ?? []).map((app) => app.id) });
      const { accesstoken } = await client().auth.register({ Token: invite.token, Password: password });
      const api = client(accesstoken);
      return { api, token: accesstoken, user: await api.users.me(), email, password };
    },
    async close() {
      await running.close();
      await own?.drop();
    },
  };
  return portal;
}

/**
 * The usual portal of a test file (or of a describe block): started before its tests, closed
 * after them. The object answered is filled in when the portal has started, before the first test.
 */
export function useTestPortal(...args: Parameters<typeof startTestPortal>): TestPortal {
  const portal = {} as TestPortal;
  beforeAll(async () => {
    Object.assign(portal, await startTestPortal(...args));
  });
  afterAll(async () => {
    await portal.close?.();
    // Taken out when reported: the next file in this worker shares the module (vitest.config.ts).
    const found = violations.splice(0);
    if (found.length > 0) throw new Error(`answers that differ from the OpenAPI document:\n${found.join('\n')}`);
  });
  return portal;
}

/**
 * Two portals on one fresh database, as two instances behind a load balancer: started before the
 * tests of the describe block it is called in, closed after. With `samePublicUrl`, B takes A's
 * PUBLIC_URL, as instances behind one address do (passkeys need one origin).
 */
export function useTwoPortals(env: Record<string, string> = {}, options: { samePublicUrl?: boolean } = {}): { a: TestPortal; b: TestPortal } {
  const a = {} as TestPortal;
  const b = {} as TestPortal;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createPortalDatabase();
    Object.assign(a, await startTestPortal(env, { database }));
    const bEnv = options.samePublicUrl ? { ...env, PUBLIC_URL: a.url } : env;
    Object.assign(b, await startTestPortal(bEnv, { database, keepPublicUrl: options.samePublicUrl }));
  });
  afterAll(async () => {
    await Promise.all([a.close?.(), b.close?.()]);
    await database?.drop();
  });
  return { a, b };
}

/** Creates an app; answers it as lists show it (without its owners). */
export async function createApp(admin: PortalClient, overrides: Partial<App> = {}): Promise<App> {
  const name = overrides.name ?? unique('app');
  const { owners, ...app } = await admin.apps.create({
    name,
    url: overrides.url ?? `https://${name}.example.com/`,
    description: overrides.description ?? '',
    doclink: overrides.doclink ?? '',
    ...(overrides.roles ? { roles: overrides.roles } : {}),
  });
  return app;
}

/** The session a sign-in answered, for an account without a second factor (a pending sign-in fails the test). */
export async function signedIn(answer: Promise<PasswordAnswer>): Promise<LoginAnswer> {
  const answered = await answer;
  if (isMfaChallenge(answered)) throw new Error('a second factor was asked for');
  return answered;
}

/** Runs a call expected to fail; answers the ApiError's code and the HTTP status it came with. */
export async function failure(call: Promise<unknown>): Promise<{ code: string; message: string; field?: string }> {
  try {
    await call;
  } catch (error) {
    const apiError = error as { code: string; message: string; details: { field?: string } };
    return { code: apiError.code, message: apiError.message, field: apiError.details?.field };
  }
  throw new Error('expected the call to fail, but it succeeded');
}
