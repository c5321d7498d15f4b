/**
 * The permission matrix: every API route against every kind of caller. The expected access of
 * each route is written here by hand, independently of the route's own declaration; a route the
 * server has that this table lacks (or the other way round) fails the test.
 */
import { generateApiKey, type Access, type Client } from '@tools-portal/core';
import { apiRoutes, type RouteSpec } from '@tools-portal/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedApp, seedClient, seedUser } from './support/seed.js';
import { unique, useTestPortal } from './support/support.js';

// Forward auth is public (a proxy calls it for anyone) but answers for the caller itself: 401
// without a valid credential, 403 without the app, 200 for admins (who may use every app).
// `…-session`: that access, but never with an API key (API keys, factors, sessions, password:
// 403 `session_required`).
// `owner`: admins and the app's owners (permissions-owners.test.ts tries owners of this and of
// another app); `member`: any user gets past the guard, but only admins and the team's members
// get an answer. For the callers here, both are admin-only.
type Expectation = Access | 'forward-auth' | 'user-session' | 'admin-session' | 'member';

const EXPECTED: Record<string, Expectation> = {
  'GET /app': 'user',
  'GET /app/:id': 'owner',
  'POST /app': 'admin',
  'PUT /app': 'admin',
  'DELETE /app/:id': 'admin',
  'GET /app/:id/user': 'owner',
  'GET /app/:id/access': 'owner',
  'GET /app/:id/grantable/user': 'owner',
  'GET /app/:id/grantable/team': 'owner',
  'DELETE /app/:appid/user/:userid': 'owner',
  'POST /app/:id/oidc': 'admin',
  'GET /app/:id/oidc': 'admin',
  'DELETE /app/:id/oidc': 'admin',
  'POST /oidc/keys/rotate': 'admin',
  'POST /device/lookup': 'user-session',
  'POST /device/approve': 'user-session',
  'POST /device/deny': 'user-session',
  'PUT /app/:id/icon': 'admin',
  'DELETE /app/:id/icon': 'admin',
  'GET /app/:id/icon': 'user',
  'GET /user': 'admin',
  'GET /user/me': 'user',
  'PUT /user/me': 'user',
  'GET /user/me/accesstoken': 'user',
  'POST /user/me/totp': 'user-session',
  'POST /user/me/totp/confirm': 'user-session',
  'DELETE /user/me/totp': 'user-session',
  'POST /user/me/recoverycodes': 'user-session',
  'POST /user/me/passkey/options': 'user-session',
  'POST /user/me/passkey': 'user-session',
  'GET /user/me/passkey': 'user-session',
  'PUT /user/me/passkey/:id': 'user-session',
  'DELETE /user/me/passkey/:id': 'user-session',
  'GET /user/me/session': 'user-session',
  'DELETE /user/me/session/:id': 'user-session',
  'DELETE /user/me/session': 'user-session',
  'POST /user/me/password': 'user-session',
  'DELETE /user/:id/mfa': 'admin-session',
  'GET /user/me/requestable': 'user',
  'PUT /user/me/favourite/:appid': 'user',
  'DELETE /user/me/favourite/:appid': 'user',
  'GET /user/:id': 'admin',
  'DELETE /user/:id': 'admin',
  'GET /user/:id/app': 'admin',
  'POST /user/:id/app': 'owner',
  'DELETE /user/:id/app/:appid': 'owner',
  'PUT /user/:id/app/:appid': 'owner',
  'GET /user/:id/security': 'admin',
  'DELETE /user/:id/session': 'admin',
  'DELETE /user/:id/accesstoken': 'admin-session',
  'POST /user/:id/passwordreset': 'admin',
  'GET /client': 'admin',
  'GET /client/:id': 'admin',
  'GET /client/:id/user': 'admin',
  'POST /client': 'admin',
  'PUT /client': 'admin',
  'DELETE /client/:id': 'admin',
  'GET /team': 'user',
  'POST /team': 'admin',
  'PUT /team': 'admin',
  'GET /team/:id': 'member',
  'DELETE /team/:id': 'admin',
  'GET /team/:id/user': 'admin',
  'POST /team/:id/user': 'admin',
  'PUT /team/:id/user/:userid': 'admin',
  'DELETE /team/:id/user/:userid': 'admin',
  'GET /team/:id/app': 'owner',
  'POST /team/:id/app': 'owner',
  'PUT /team/:id/app/:appid': 'owner',
  'DELETE /team/:id/app/:appid': 'owner',
  'GET /registrationtoken': 'admin',
  'POST /registrationtoken': 'admin',
  'POST /registrationtoken/:tokenid/send': 'admin',
  'DELETE /registrationtoken/:tokenid': 'admin',
  'POST /registrationtoken/status': 'public',
  'POST /accesstoken/:token': 'user-session',
  'DELETE /accesstoken/:token': 'user-session',
  'GET /log/:currentPage/:perPage': 'admin',
  'GET /log/count': 'admin',
  'GET /log/export': 'admin',
  'GET /mail': 'admin',
  'GET /webhook': 'admin',
  'POST /webhook': 'admin',
  'GET /webhook/:id': 'admin',
  'PUT /webhook/:id': 'admin',
  'DELETE /webhook/:id': 'admin',
  'POST /webhook/:id/secret': 'admin',
  'POST /webhook/:id/test': 'admin',
  'GET /webhook/:id/delivery': 'admin',
  'GET /accessrequest': 'user',
  'POST /accessrequest': 'user',
  'POST /accessrequest/:id/approve': 'owner',
  'POST /accessrequest/:id/deny': 'owner',
  'GET /review': 'owner',
  'POST /review': 'owner',
  'GET /review/:id': 'owner',
  'GET /review/:id/item': 'owner',
  'POST /review/:id/item/:itemid': 'owner',
  'POST /review/:id/decide': 'owner',
  'POST /review/:id/close': 'owner',
  'GET /review/:id/export': 'owner',
  'POST /validatepassword': 'public',
  'POST /validatemfa': 'public',
  'POST /stepup': 'user-session',
  'POST /passkey/options': 'public',
  'POST /validatepasskey': 'public',
  'POST /register': 'public',
  'POST /forgotpassword': 'public',
  'POST /resetpassword': 'public',
  'GET /loginoptions': 'public',
  'GET /logo': 'public',
  'GET /openapi.json': 'public',
  'GET /config.schema.json': 'public',
  'GET /config': 'admin',
  'POST /config/plan': 'admin',
  'POST /config/apply': 'admin',
  'POST /logout': 'public',
  'GET /verify': 'forward-auth',
};

type Caller =
  'anonymous' | 'client user' | 'admin' | "client user's API key" | "admin's API key" | 'expired session' | 'revoked session' | "deleted user's token";
const CALLERS: Caller[] = [
  'anonymous',
  'client user',
  'admin',
  "client user's API key",
  "admin's API key",
  'expired session',
  'revoked session',
  "deleted user's token",
];

/** What a caller gets from a route of some access: 'ok' means neither 401 nor 403 (nor 5xx). */
function expectedOutcome(access: Expectation, caller: Caller): 401 | 403 | 'ok' {
  if (access === 'public') return 'ok';
  // The guard lets any user through to owner and member routes; the service refuses the others.
  if (access === 'forward-auth' || access === 'owner' || access === 'member') return expectedOutcome('admin', caller);
  if (access === 'user-session' || access === 'admin-session') {
    const plain = expectedOutcome(access === 'user-session' ? 'user' : 'admin', caller);
    return plain === 'ok' && caller.endsWith('API key') ? 403 : plain;
  }
  if (caller === 'anonymous' || caller === 'expired session' || caller === 'revoked session' || caller === "deleted user's token") return 401;
  if (access === 'user') return 'ok';
  return caller === 'admin' || caller === "admin's API key" ? 'ok' : 403;
}

const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '100000' });
let adminClient: Client;
// The client of the callers that are no admins (each caller is a user of its own).
let callersClient: Client;
beforeAll(async () => {
  adminClient = (await portal.admin.clients.list()).find((client) => client.name === 'Admin')!;
  callersClient = await portal.admin.clients.create(unique('callers'));
});

/**
 * The caller's credential. A user's is fresh for each case, so that a call that deletes or logs
 * out harms no other case; the dead credentials (an expired or revoked session, a deleted user's)
 * are made once, as no call can change what they get.
 */
function tokenFor(caller: Caller): Promise<string | undefined> {
  if (caller === 'anonymous') return Promise.resolve(undefined);
  if (caller === 'expired session' || caller === 'revoked session' || caller === "deleted user's token") {
    let token = deadTokens.get(caller);
    if (!token) deadTokens.set(caller, (token = freshToken(caller)));
    return token;
  }
  return freshToken(caller);
}
const deadTokens = new Map<Caller, Promise<string | undefined>>();

async function freshToken(caller: Exclude<Caller, 'anonymous'>): Promise<string | undefined> {
  const admin = caller === 'admin' || caller === "admin's API key";
  const made = await seedUser(portal, { client: admin ? adminClient : callersClient });
  if (caller.endsWith('API key')) {
    const key = generateApiKey();
    await made.api.accessTokens.create(key);
    return key;
  }
  if (caller === 'expired session')
    await portal.deps
      .db('sessions')
      .where({ user_id: made.user.id })
      .update({ expires_at: Date.now() - 1 });
  if (caller === 'revoked session') await made.api.auth.logout();
  if (caller === "deleted user's token") await portal.admin.users.delete(made.user.id);
  return made.token;
}

/** A record made on first use only, then the same one. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * Fresh records for a route's path parameters, and a plausible body. Only the records that the
 * route's path and body use are made: the user in a client of their own with an app, the team
 * with that user and app. Users, clients and apps are seeded through the services (./support/seed.ts):
 * the routes that make them are under test here as the others are, not the making.
 */
async function requestFor(route: RouteSpec): Promise<{ path: string; body?: unknown }> {
  const app = once(() => seedApp(portal));
  const client = once(() => seedClient(portal));
  const user = once(async () => seedUser(portal, { client: await client(), apps: [await app()] }));
  const invite = once(async () => portal.admin.invites.create({ email: `${unique('inv')}@example.com`, clientid: (await client()).id, apps: [] }));
  const team = once(async () => {
    const made = await portal.admin.teams.create({ name: unique('team') });
    await portal.admin.teams.addUser(made.id, { userid: (await user()).user.id });
    await portal.admin.teams.grant(made.id, { appid: (await app()).id });
    return made;
  });
  const values: Record<string, () => Promise<number | string>> = {
    id: async () =>
      route.path.startsWith('/app')
        ? (await app()).id
        : route.path.startsWith('/client')
          ? (await client()).id
          : route.path.startsWith('/team')
            ? (await team()).id
            : (await user()).user.id,
    appid: async () => (await app()).id,
    userid: async () => (await user()).user.id,
    tokenid: async () => (await invite()).id,
    token: async () => generateApiKey(),
    currentPage: async () => '1',
    perPage: async () => '20',
    itemid: async () => '1',
  };
  const resolved: Record<string, string> = {};
  for (const [, name] of route.path.matchAll(/:(\w+)/g)) resolved[name!] = String(await values[name!]!());
  const queries: Record<string, () => Promise<string>> = {
    '/verify': async () => `?app=${encodeURIComponent((await app()).name)}`,
    '/app/:id/grantable/user': async () => `?email=${encodeURIComponent((await user()).email)}`,
  };
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => resolved[name]!) + ((await queries[route.path]?.()) ?? '');
  const bodies: Record<string, () => Promise<unknown>> = {
    'POST /app': async () => ({ name: unique('app'), url: 'https://new.example.com/' }),
    'PUT /app': async () => ({ ...(await app()), description: 'changed' }),
    'POST /user/:id/app': async () => ({ appid: (await seedApp(portal)).id }),
    'POST /client': async () => ({ name: unique('client') }),
    'POST /team': async () => ({ name: unique('team') }),
    'PUT /team': async () => ({ id: (await team()).id, name: unique('renamed') }),
    'POST /team/:id/user': async () => ({ userid: (await seedUser(portal, { client: await client() })).user.id }),
    'PUT /team/:id/user/:userid': async () => ({ expires: null }),
    'POST /team/:id/app': async () => ({ appid: (await seedApp(portal)).id }),
    'PUT /team/:id/app/:appid': async () => ({ expires: null }),
    'PUT /user/:id/app/:appid': async () => ({ expires: null }),
    'PUT /client': async () => ({ id: (await client()).id, name: unique('renamed') }),
    'POST /registrationtoken': async () => ({ email: `${unique('inv')}@example.com`, clientid: (await client()).id, apps: [(await app()).id] }),
    'POST /validatepassword': async () => ({ Email: (await user()).email, Password: (await user()).password }),
    'POST /register': async () => ({ Token: (await invite()).token, Password: 'long enough password' }),
    'POST /forgotpassword': async () => ({ Email: (await user()).email }),
    'POST /registrationtoken/status': async () => ({ Token: (await invite()).token }),
    'DELETE /user/me/totp': async () => ({ Password: 'long enough password' }),
    'POST /user/me/recoverycodes': async () => ({ Password: 'long enough password' }),
    'PUT /user/me': async () => ({ language: 'de' }),
    'POST /review': async () => ({
      name: unique('review'),
      apps: [(await app()).id],
      reviewers: 'admins',
      due: new Date(Date.now() + 86_400_000).toISOString(),
      whenMissed: 'keep',
    }),
    'POST /review/:id/item/:itemid': async () => ({ decision: 'keep' }),
    'POST /review/:id/decide': async () => ({ items: [1], decision: 'keep' }),
    'POST /resetpassword': async () => ({ Token: 'not a token', Password: 'long enough password' }),
  };
  return { path, body: await bodies[`${route.method} ${route.path}`]?.() };
}

describe('permission matrix', () => {
  it('has an expectation for every route and no more', () => {
    const routes = apiRoutes.map((route) => `${route.method} ${route.path}`);
    expect(routes.filter((route) => !(route in EXPECTED))).toEqual([]);
    expect(Object.keys(EXPECTED).filter((route) => !routes.includes(route))).toEqual([]);
  });

  it('declares each route with the expected access', () => {
    for (const route of apiRoutes) {
      const expected = EXPECTED[`${route.method} ${route.path}`];
      const access =
        expected === 'forward-auth'
          ? 'public'
          : expected === 'user-session' || expected === 'member'
            ? 'user'
            : expected === 'admin-session'
              ? 'admin'
              : expected;
      expect(route.access, `${route.method} ${route.path}`).toBe(access);
      expect(route.sessionOnly ?? false, `${route.method} ${route.path} refuses API keys`).toBe(expected === 'user-session' || expected === 'admin-session');
    }
  });

  for (const route of apiRoutes) {
    const name = `${route.method} ${route.path}`;
    it(`${name}: ${CALLERS.map((caller) => `${caller} -> ${expectedOutcome(EXPECTED[name] ?? 'admin', caller)}`).join(', ')}`, async () => {
      // A caller refused with 401 changes nothing, so those callers share one set of records.
      let refusedRequest: ReturnType<typeof requestFor> | undefined;
      for (const caller of CALLERS) {
        const expected = expectedOutcome(EXPECTED[name], caller);
        const token = await tokenFor(caller);
        const { path, body } = await (expected === 401 ? (refusedRequest ??= requestFor(route)) : requestFor(route));
        const response = await portal.fetch(`/api/auth/v1${path}`, {
          method: route.method,
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const text = await response.text();
        const label = `${name} as ${caller}: ${response.status} ${text}`;
        if (expected === 'ok') {
          expect([401, 403], label).not.toContain(response.status);
          expect(response.status, label).toBeLessThan(500);
        } else {
          expect(response.status, label).toBe(expected);
          // A key where a session is needed: the one code of every such refusal.
          const plain = EXPECTED[name] === 'user-session' ? 'user' : EXPECTED[name] === 'admin-session' ? 'admin' : undefined;
          if (plain && caller.endsWith('API key') && expectedOutcome(plain, caller) === 'ok')
            expect(JSON.parse(text).error.code, label).toBe('session_required');
        }
      }
    });
  }
});
