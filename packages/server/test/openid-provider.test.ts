/**
 * The portal as an OpenID Connect provider (docs/oidc.md), driven by openid-client as the relying
 * party against a real portal on the database under test.
 */
import { describe, expect, it } from 'vitest';
import { Browser, oidc, relyingParty } from './openid-rp.js';
import { createApp, useTestPortal, USER_PASSWORD } from './support.js';

const portal = useTestPortal();
const REDIRECT = 'http://127.0.0.1:9/callback';

async function signedInBrowser(token: string): Promise<Browser> {
  const browser = new Browser(portal.url);
  browser.cookies.set('accesstoken', token);
  return browser;
}

describe('OpenID provider', () => {
  it('discovery, a code for a granted user, tokens, userinfo', async () => {
    const app = await createApp(portal.admin);
    const created = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
    expect(created.client_id).toBe(app.name);
    const user = await portal.createUser({ apps: [app] });
    const rp = await relyingParty(portal.url, app.name, created.client_secret, REDIRECT);
    const browser = await signedInBrowser(user.token);
    const start = await rp.start();
    const { url } = await browser.navigate(start.url);
    expect(url.startsWith(REDIRECT)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(rp.config, new URL(url), { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ sub: String(user.user.id), email: user.email, groups: [user.user.client.name] });
    const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, claims.sub);
    expect(info.email).toBe(user.email);
  });
});
