/**
 * Userinfo answered from memory (docs/oidc.md, Sessions and revocation; oidc/userinfo-answers.ts):
 * a plain repeat of a call is answered with the provider's own answer, reading nothing; any other
 * call still goes to the provider, whatever is remembered; a change made here shows at once.
 * (Other instances within the bound: openid-provider-instances.test.ts.)
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { testDialect } from './support/database.js';
import { oidc, relyingParty, signInThrough, type RelyingParty } from './support/openid-rp.js';
import { createApp, startTestPortal, unique, useTestPortal, type TestPortal, type TestUser } from './support/support.js';

const portal = useTestPortal();
const REDIRECT = 'http://127.0.0.1:9/callback';

async function signedIn(on: TestPortal = portal, scope = 'openid email groups'): Promise<{ rp: RelyingParty; user: TestUser; accessToken: string }> {
  const app = await createApp(on.admin);
  const created = await on.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
  const user = await on.createUser({ apps: [app] });
  const rp = await relyingParty(on.url, app.name, created.client_secret, REDIRECT);
  const tokens = await signInThrough(rp, on.url, user.token, { scope });
  return { rp, user, accessToken: tokens.access_token };
}

/** Every query the portal (this file's, unless another is named) makes while `call` runs. */
async function queriesOf<T>(call: () => Promise<T>, on: TestPortal = portal): Promise<{ result: T; queries: string[] }> {
  const queries: string[] = [];
  const listener = (query: { sql: string }) => queries.push(query.sql);
  on.deps.db.on('query', listener);
  try {
    return { result: await call(), queries };
  } finally {
    on.deps.db.removeListener('query', listener);
  }
}

const userinfo = (accessToken: string, init: RequestInit = {}, path = '/oidc/userinfo') =>
  fetch(`${portal.url}${path}`, { ...init, headers: { authorization: `Bearer ${accessToken}`, ...(init.headers as Record<string, string>) } });

/** The headers of an answer but those of one exchange. */
const headersOf = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => !['x-request-id', 'date', 'connection', 'keep-alive'].includes(name)));

/** How many userinfo answers of this status the metrics have counted. */
async function countedUserinfo(status: number): Promise<number> {
  const text = await portal.deps.metrics.text();
  const line = text
    .split('\n')
    .find((each) => each.startsWith('http_request_duration_seconds_count{') && each.includes(`route="/oidc/userinfo",status="${status}"`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('userinfo from memory', () => {
  it("answers a repeated plain call with the provider's answer, reading nothing, logged and counted as userinfo", async () => {
    const { accessToken, user } = await signedIn();
    const first = await queriesOf(() => userinfo(accessToken));
    expect(first.result.status).toBe(200);
    expect(first.queries.length).toBeGreaterThan(0);
    const firstBody = await first.result.text();
    expect(JSON.parse(firstBody)).toMatchObject({ sub: String(user.user.id), email: user.email });
    const counted = await countedUserinfo(200);
    const again = await queriesOf(() => userinfo(accessToken));
    expect(again.queries).toEqual([]);
    expect(again.result.status).toBe(200);
    expect(await again.result.text()).toBe(firstBody);
    expect(headersOf(again.result)).toEqual(headersOf(first.result));
    expect(again.result.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.result.headers.get('x-request-id')).not.toBe(first.result.headers.get('x-request-id'));
    expect(await countedUserinfo(200)).toBe(counted + 1);
    // The scheme's case is the client's (RFC 7235): the same answer.
    const lower = await queriesOf(() => fetch(`${portal.url}/oidc/userinfo`, { headers: { authorization: `bearer ${accessToken}` } }));
    expect(lower.queries).toEqual([]);
    expect(await lower.result.text()).toBe(firstBody);
  });

  it('sends every call that is not plain to the provider, which judges it as before', async () => {
    const { accessToken } = await signedIn();
    expect((await userinfo(accessToken)).status).toBe(200);
    // An origin the client did not register: refused (CORS is the provider's to judge).
    const foreign = await userinfo(accessToken, { headers: { origin: 'http://foreign.example' } });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // A scope the token does not carry.
    const scoped = await userinfo(accessToken, {}, '/oidc/userinfo?scope=openid%20phone');
    expect(scoped.status).toBe(403);
    expect(scoped.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    // A DPoP proof (DPoP is off: the provider ignores it, but it is the provider's to judge).
    const proved = await queriesOf(() => userinfo(accessToken, { headers: { dpop: 'not-a-proof' } }));
    expect(proved.queries.length).toBeGreaterThan(0);
    // The token in a form body: the provider's answer, read anew.
    const posted = await queriesOf(() =>
      fetch(`${portal.url}/oidc/userinfo`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `access_token=${encodeURIComponent(accessToken)}`,
      }),
    );
    expect(posted.result.status).toBe(200);
    expect(posted.queries.length).toBeGreaterThan(0);
    // Another spelling of the path (the provider's router takes it), or two tokens in one header:
    // not the remembered call.
    const slashed = await queriesOf(() => userinfo(accessToken, {}, '/oidc/userinfo/'));
    expect(slashed.result.status).toBe(200);
    expect(slashed.queries.length).toBeGreaterThan(0);
    expect((await fetch(`${portal.url}/oidc/userinfo`, { headers: { authorization: `Bearer ${accessToken} ${accessToken}` } })).status).toBe(400);
    // A token that was never issued, and one a letter off the remembered one.
    expect((await userinfo(`${accessToken.slice(0, -1)}${accessToken.endsWith('A') ? 'B' : 'A'}`)).status).toBe(401);
    expect((await userinfo(unique('none'))).status).toBe(401);
  });

  it('the request target as an absolute URL (a proxy may send one) goes to the provider', async () => {
    const { accessToken } = await signedIn();
    expect((await userinfo(accessToken)).status).toBe(200);
    const { port } = new URL(portal.url);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, method: 'GET', path: `${portal.url}/oidc/userinfo`, headers: { authorization: `Bearer ${accessToken}` } },
        (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(200);
  });

  it('a revocation, a logout and a change of the claims made here show at once', async () => {
    const revoked = await signedIn();
    expect((await userinfo(revoked.accessToken)).status).toBe(200);
    await oidc.tokenRevocation(revoked.rp.config, revoked.accessToken);
    expect((await userinfo(revoked.accessToken)).status).toBe(401);

    const loggedOut = await signedIn();
    expect((await userinfo(loggedOut.accessToken)).status).toBe(200);
    await loggedOut.user.api.auth.logout();
    expect((await userinfo(loggedOut.accessToken)).status).toBe(401);

    const { accessToken, user } = await signedIn();
    const groups = async () => ((await (await userinfo(accessToken)).json()) as { groups: string[] }).groups;
    const before = await groups();
    const team = await portal.admin.teams.create({ name: unique('Team') });
    await portal.admin.teams.addUser(team.id, { userid: user.user.id });
    expect(await groups()).toEqual([...before, team.name]);
  });

  // The rule is the database's no more than the rest of this file; a second portal costs seconds on PostgreSQL.
  it.skipIf(testDialect() !== 'sqlite')('keeps no answer when nothing may be remembered (AUTH_CACHE_SECONDS=0)', async () => {
    const uncached = await startTestPortal({ AUTH_CACHE_SECONDS: '0' });
    try {
      const { accessToken } = await signedIn(uncached);
      for (let i = 0; i < 2; i++) {
        const call = () => fetch(`${uncached.url}/oidc/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
        const { result, queries } = await queriesOf(call, uncached);
        expect(result.status).toBe(200);
        expect(queries.length).toBeGreaterThan(0);
        // The user's access is read once a call: the claims use what the grant's standing was judged with.
        expect(queries.filter((sql) => sql.includes('from `user_apps`'))).toHaveLength(1);
      }
      expect(uncached.deps.authCache.userinfoAnswers.size).toBe(0);
    } finally {
      await uncached.close();
    }
  });
});
