/**
 * The OpenID provider across two instances on one database (docs/product.md, Scale): the browser signs
 * in through one, the relying party exchanges the code and calls userinfo on the other; a logout
 * or a key rotation on one holds on the other within the 5-second bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Browser, oidc, relyingParty, type RelyingParty } from './support/openid-rp.js';
import { becomesTrue, CACHE_BOUND_MS, createApp, startTestPortal, type TestPortal, type TestUser } from './support/support.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
// A key rotation is picked up by the other instance at its next check (every 5 s).
const KEY_CHECK_BOUND_MS = 5000 + 1000;

let database: TestDatabase;
let a: TestPortal;
let b: TestPortal;

beforeAll(async () => {
  database = createTestDatabase();
  a = await startTestPortal({}, { database });
  // One issuer for both: B serves PUBLIC_URL = A's address, as behind one load balancer.
  b = await startTestPortal({ PUBLIC_URL: a.url }, { database, keepPublicUrl: true });
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await database?.drop();
});

/** The relying party, every call of which goes to instance B though the issuer is A's URL. */
async function rpOnB(clientId: string, secret: string): Promise<RelyingParty> {
  const rp = await relyingParty(a.url, clientId, secret, REDIRECT);
  rp.config[oidc.customFetch] = (url, options) => fetch(url.replace(a.url, b.url), options as RequestInit);
  return rp;
}

async function setup(): Promise<{ rp: RelyingParty; user: TestUser }> {
  const app = await createApp(a.admin);
  const created = await a.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
  const user = await a.createUser({ apps: [app] });
  return { rp: await rpOnB(app.name, created.client_secret!), user };
}

async function signInOnA(rp: RelyingParty, user: TestUser, scope = 'openid email offline_access') {
  const start = await rp.start({ scope });
  const browser = new Browser(a.url);
  browser.cookies.set('accesstoken', user.token);
  const { url } = await browser.navigate(start.url);
  expect(url.startsWith(REDIRECT), url).toBe(true);
  return oidc.authorizationCodeGrant(rp.config, new URL(url), { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce });
}

describe('the OpenID provider on two instances', () => {
  it('authorize on A; token, userinfo and refresh on B', async () => {
    const { rp, user } = await setup();
    const tokens = await signInOnA(rp, user);
    expect(tokens.claims()!.iss).toBe(a.url);
    const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, String(user.user.id));
    expect(info.email).toBe(user.email);
    const refreshed = await oidc.refreshTokenGrant(rp.config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
  });

  it('a logout on A stops the tokens on A at once and on B when the bound has passed, though both remember the lookups', async () => {
    const { rp, user } = await setup();
    const tokens = await signInOnA(rp, user);
    const userinfo = async (on: TestPortal) => (await fetch(`${on.url}/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status;
    expect(await userinfo(a)).toBe(200);
    expect(await userinfo(b)).toBe(200);
    await user.api.auth.logout();
    expect(await userinfo(a)).toBe(401);
    // B answers from what it remembers until the bound has passed.
    expect(await userinfo(b)).toBe(200);
    b.passCacheBound();
    expect(await userinfo(b)).toBe(401);
  });

  it("a new sign-in on A is served on B at once, whatever B remembers of the user's earlier one", async () => {
    const { rp, user } = await setup();
    const first = await signInOnA(rp, user);
    const userinfo = async (token: string) => (await fetch(`${b.url}/oidc/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await userinfo(first.access_token)).toBe(200);
    // Signed out and in again through A: a new portal session, provider session and grant.
    await user.api.auth.logout();
    const second = await signInOnA(rp, { ...user, token: await a.login(user.email, user.password) });
    expect(await userinfo(second.access_token)).toBe(200);
    expect((await oidc.fetchUserInfo(rp.config, second.access_token, String(user.user.id))).email).toBe(user.email);
  });

  it("remembers an access token's lookup on B for userinfo; a revocation on A holds on A at once, on B within the bound", async () => {
    const app = await createApp(a.admin);
    const created = await a.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
    const user = await a.createUser({ apps: [app] });
    const rp = await rpOnB(app.name, created.client_secret!);
    // Without offline_access, the access token is bound to the provider session (read on a first call).
    const tokens = await signInOnA(rp, user, 'openid email');
    const userinfo = async (on: TestPortal) => (await fetch(`${on.url}/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status;
    // Reads on B of the token's row, its provider session (the session binding) and the portal's
    // standing grant: the first call reads each, the next ones (within the bound) none of them.
    const reads = { token: 0, session: 0, grant: 0 };
    const count = (query: { sql: string; bindings?: unknown[] }) => {
      if (query.sql.includes('oidc_payloads') && query.bindings?.includes('AccessToken')) reads.token++;
      if (query.sql.includes('oidc_payloads') && query.bindings?.includes('Session')) reads.session++;
      if (query.sql.includes('oidc_grant_sessions')) reads.grant++;
    };
    b.deps.db.on('query', count);
    try {
      expect(await userinfo(b)).toBe(200);
      expect(reads).toEqual({ token: 1, session: 1, grant: 1 });
      for (let i = 0; i < 3; i++) expect(await userinfo(b)).toBe(200);
      expect(reads).toEqual({ token: 1, session: 1, grant: 1 });
    } finally {
      b.deps.db.off('query', count);
    }
    expect(await userinfo(a)).toBe(200);
    const started = Date.now();
    await oidc.tokenRevocation((await relyingParty(a.url, app.name, created.client_secret!, REDIRECT)).config, tokens.access_token);
    expect(await userinfo(a)).toBe(401);
    b.passCacheBound();
    expect(await userinfo(b)).toBe(401);
    expect(Date.now() - started).toBeLessThanOrEqual(CACHE_BOUND_MS + 1000);
  });

  it("a grant removed on A stops userinfo on B within the bound, though B judged the grant with the user's access read earlier", async () => {
    const app = await createApp(a.admin);
    const created = await a.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
    const user = await a.createUser({ apps: [app] });
    const rp = await rpOnB(app.name, created.client_secret!);
    const userinfo = async (token: string) => (await fetch(`${b.url}/oidc/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status;
    // B reads the user's access (the apps they may use) on this first call and remembers it.
    expect(await userinfo((await signInOnA(rp, user)).access_token)).toBe(200);
    b.moveCacheClock(3000);
    // A second sign-in makes a second grant: B judges it with the access it read 3 s before, and
    // answers the next call from memory.
    const second = await signInOnA(rp, { ...user, token: await a.login(user.email, user.password) });
    expect(await userinfo(second.access_token)).toBe(200);
    expect(await userinfo(second.access_token)).toBe(200);
    await a.admin.users.revoke(user.user.id, app.id);
    // The bound after B read the access, though only 2.5 s after it judged the second grant.
    b.moveCacheClock(CACHE_BOUND_MS - 3000 + 500);
    expect(await userinfo(second.access_token)).toBe(401);
  });

  it("a new client secret or a client turned off on A holds on B at once, though B remembers the client's row", async () => {
    const app = await createApp(a.admin);
    const first = await a.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
    const user = await a.createUser({ apps: [app] });
    const exchangeOnB = async (secret: string) => {
      const rp = await rpOnB(app.name, secret);
      return signInOnA(rp, user).then(
        () => 'issued',
        // openid-client names a 401's error in its WWW-Authenticate challenge.
        (error: { error?: string; cause?: { parameters?: { error?: string } }[] }) => error.error ?? error.cause?.[0]?.parameters?.error ?? String(error),
      );
    };
    expect(await exchangeOnB(first.client_secret!)).toBe('issued');
    const second = await a.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
    expect(await exchangeOnB(first.client_secret!)).toBe('invalid_client');
    expect(await exchangeOnB(second.client_secret!)).toBe('issued');
    // A code issued before the client is turned off on A, exchanged on B after.
    const rp = await rpOnB(app.name, second.client_secret!);
    const start = await rp.start({ scope: 'openid email' });
    const browser = new Browser(a.url);
    browser.cookies.set('accesstoken', user.token);
    const { url } = await browser.navigate(start.url);
    await a.admin.apps.oidc.disable(app.id);
    const exchanged = oidc.authorizationCodeGrant(rp.config, new URL(url), {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
    await expect(exchanged).rejects.toMatchObject({ cause: [{ parameters: { error: 'invalid_client' } }] });
  });

  it('a key rotation on A is published and used by B within the bound', async () => {
    const { rp, user } = await setup();
    const rotation = await a.admin.oidc.rotateKeys();
    const published = async () => {
      const jwks = (await (await fetch(`${b.url}/oidc/jwks`)).json()) as { keys: Array<{ kid: string }> };
      return rotation.signing.every((kid) => jwks.keys.some((key) => key.kid === kid));
    };
    expect(await becomesTrue(published, KEY_CHECK_BOUND_MS)).toBe(true);
    const tokens = await signInOnA(rp, user);
    const refreshed = await oidc.refreshTokenGrant(rp.config, tokens.refresh_token!);
    const kid = JSON.parse(Buffer.from(refreshed.id_token!.split('.')[0]!, 'base64url').toString()).kid as string;
    expect(rotation.signing).toContain(kid);
  });
});
