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

  it('a logout on A stops the tokens on B within the bound', async () => {
    const { rp, user } = await setup();
    const tokens = await signInOnA(rp, user);
    await user.api.auth.logout();
    const stopped = async () => (await fetch(`${b.url}/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status === 401;
    b.passCacheBound();
    expect(await stopped()).toBe(true);
  });

  it("remembers an access token's lookup on B for userinfo; a revocation on A holds on A at once, on B within the bound", async () => {
    const app = await createApp(a.admin);
    const created = await a.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
    const user = await a.createUser({ apps: [app] });
    const rp = await rpOnB(app.name, created.client_secret!);
    const tokens = await signInOnA(rp, user);
    const userinfo = async (on: TestPortal) => (await fetch(`${on.url}/oidc/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status;
    // Reads of the token's row on B: the first call reads it, the next ones (within the bound) do not.
    let tokenReads = 0;
    const count = (query: { sql: string; bindings?: unknown[] }) => {
      if (query.sql.includes('oidc_payloads') && query.bindings?.includes('AccessToken')) tokenReads++;
    };
    b.deps.db.on('query', count);
    try {
      expect(await userinfo(b)).toBe(200);
      expect(tokenReads).toBe(1);
      for (let i = 0; i < 3; i++) expect(await userinfo(b)).toBe(200);
      expect(tokenReads).toBe(1);
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
