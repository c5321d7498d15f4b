/**
 * The OpenID provider's HTTP answers (docs/oidc.md, issue 25 items 6 and 7): CORS only for the
 * origins of a public client's registered redirect URIs, never for a confidential client's token
 * requests; `Pragma: no-cache` on token answers (RFC 6749 §5.1); the JWKS cached no longer than a
 * retired key stays published; discovery's revocation authentication methods.
 * The same contract in a real browser with a browser OpenID library: openid-spa.test.ts.
 */
import type { App } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { JWKS_MAX_AGE_SECONDS, RETIRED_KEY_PUBLISHED_MS } from '../src/oidc/signing-keys.js';
import { Browser, oidc, relyingParty, type RelyingParty } from './support/openid-rp.js';
import { createApp, useTestPortal, type TestUser } from './support/support.js';

const portal = useTestPortal();
// Redirect URIs of apps on other loopback origins (nothing listens there: the browser stops).
const SPA_ORIGIN = 'http://127.0.0.1:9';
const SPA_REDIRECT = `${SPA_ORIGIN}/callback`;
const SPA_SECOND_ORIGIN = 'http://localhost:10';
const OTHER_ORIGIN = 'http://127.0.0.1:11';

interface Setup {
  app: App;
  rp: RelyingParty;
  user: TestUser;
}

async function setup(isPublic: boolean, redirectUris = [SPA_REDIRECT]): Promise<Setup> {
  const app = await createApp(portal.admin);
  const created = await portal.admin.apps.oidc.enable(app.id, { redirect_uris: redirectUris, public: isPublic, id_token_signed_response_alg: 'RS256' });
  const user = await portal.createUser({ apps: [app] });
  const rp = await relyingParty(portal.url, app.name, created.client_secret, redirectUris[0]!, isPublic ? 'none' : 'basic');
  return { app, rp, user };
}

/** A code for the user, as the redirect URI would receive it. */
async function codeFor({ rp, user }: Setup, scope = 'openid email offline_access') {
  const start = await rp.start({ scope });
  const browser = new Browser(portal.url);
  browser.cookies.set('accesstoken', user.token);
  const { url } = await browser.navigate(start.url);
  const code = new URL(url).searchParams.get('code');
  if (!code) throw new Error(`no code: ${url}`);
  return { code, verifier: start.verifier! };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A token request as a browser would send it: form-encoded, with an Origin. */
async function tokenRequest(setup: Setup, origin: string | undefined, secret?: string) {
  const { code, verifier } = await codeFor(setup);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (origin) headers.origin = origin;
  if (secret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(setup.app.name)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  return portal.fetch('/oidc/token', {
    method: 'POST',
    headers,
    body: form({
      grant_type: 'authorization_code',
      code,
      redirect_uri: SPA_REDIRECT,
      code_verifier: verifier,
      ...(secret ? {} : { client_id: setup.app.name }),
    }),
  });
}

describe('CORS for single-page apps (public clients)', () => {
  it("allows the token endpoint from the origin of a public client's redirect URI, and from no other origin", async () => {
    const spa = await setup(true, [SPA_REDIRECT, `${SPA_SECOND_ORIGIN}/cb`]);
    const allowed = await tokenRequest(spa, SPA_ORIGIN);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SPA_ORIGIN);
    expect(allowed.headers.get('vary')).toMatch(/origin/i);
    const tokens = (await allowed.json()) as { access_token: string; refresh_token: string };
    expect(tokens.access_token).toBeTruthy();

    // Every registered redirect URI's origin counts.
    const second = await tokenRequest(spa, SPA_SECOND_ORIGIN);
    expect(second.status).toBe(200);
    expect(second.headers.get('access-control-allow-origin')).toBe(SPA_SECOND_ORIGIN);

    for (const origin of [OTHER_ORIGIN, 'http://127.0.0.1:90', 'https://127.0.0.1:9', 'null', portal.url]) {
      const refused = await tokenRequest(spa, origin);
      expect(refused.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(refused.status, origin).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toBe('invalid_request');
    }
    // Requests without an Origin (not from a browser) are not CORS and still work.
    expect((await tokenRequest(spa, undefined)).status).toBe(200);
  });

  it('allows userinfo and revocation from that origin only', async () => {
    const spa = await setup(true);
    const tokens = (await (await tokenRequest(spa, SPA_ORIGIN)).json()) as { access_token: string; refresh_token: string };
    const userinfo = (origin: string) => portal.fetch('/oidc/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}`, origin } });
    const fromSpa = await userinfo(SPA_ORIGIN);
    expect(fromSpa.status).toBe(200);
    expect(fromSpa.headers.get('access-control-allow-origin')).toBe(SPA_ORIGIN);
    const fromOther = await userinfo(OTHER_ORIGIN);
    expect(fromOther.headers.get('access-control-allow-origin')).toBeNull();
    expect(fromOther.status).not.toBe(200);

    const revoke = (origin: string, token: string) =>
      portal.fetch('/oidc/revoke', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: form({ token, client_id: spa.app.name }),
      });
    const other = await revoke(OTHER_ORIGIN, tokens.refresh_token);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.status).toBe(400);
    const revoked = await revoke(SPA_ORIGIN, tokens.refresh_token);
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get('access-control-allow-origin')).toBe(SPA_ORIGIN);
  });

  it('never gives a confidential client CORS on the token endpoint, not even from its redirect URI origin', async () => {
    const app = await setup(false);
    const created = await portal.admin.apps.oidc.enable(app.app.id, { redirect_uris: [SPA_REDIRECT], public: false, id_token_signed_response_alg: 'RS256' });
    const answer = await tokenRequest(app, SPA_ORIGIN, created.client_secret);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.status).toBe(400);
    // Server-side, without an Origin, the confidential client works as before.
    const plain = await tokenRequest(app, undefined, created.client_secret);
    expect(plain.status).toBe(200);
    const { access_token } = (await plain.json()) as { access_token: string };
    const userinfo = await portal.fetch('/oidc/userinfo', { headers: { authorization: `Bearer ${access_token}`, origin: SPA_ORIGIN } });
    expect(userinfo.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('headers of the answers (issue 25, item 7)', () => {
  it('token answers carry Cache-Control: no-store and Pragma: no-cache, errors too', async () => {
    const spa = await setup(true);
    const answer = await tokenRequest(spa, undefined);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('pragma')).toBe('no-cache');
    const { refresh_token } = (await answer.json()) as { refresh_token: string };
    const refreshed = await oidc.refreshTokenGrant(spa.rp.config, refresh_token);
    expect(refreshed.access_token).toBeTruthy();
    const error = await portal.fetch('/oidc/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ grant_type: 'authorization_code', code: 'made-up', redirect_uri: SPA_REDIRECT, client_id: spa.app.name, code_verifier: 'x'.repeat(43) }),
    });
    expect(error.status).toBe(400);
    expect(error.headers.get('pragma')).toBe('no-cache');
    expect(error.headers.get('cache-control')).toBe('no-store');
  });

  it('the JWKS may be cached, no longer than a retired key stays published', async () => {
    const answer = await portal.fetch('/oidc/jwks');
    expect(answer.status).toBe(200);
    const cacheControl = answer.headers.get('cache-control') ?? '';
    const maxAge = Number(/(?:^|,\s*)max-age=(\d+)/.exec(cacheControl)?.[1]);
    expect(maxAge, cacheControl).toBe(JWKS_MAX_AGE_SECONDS);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge * 1000).toBeLessThanOrEqual(RETIRED_KEY_PUBLISHED_MS);
    expect(cacheControl).not.toMatch(/no-store|private/);
  });

  it('discovery lists revocation_endpoint_auth_methods_supported: the methods the revocation endpoint accepts', async () => {
    const doc = (await (await portal.fetch('/.well-known/openid-configuration')).json()) as Record<string, unknown>;
    expect(doc.revocation_endpoint).toBe(`${portal.url}/oidc/revoke`);
    expect(doc.revocation_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    // What it says holds: a confidential client revokes with client_secret_post.
    const app = await setup(false);
    const created = await portal.admin.apps.oidc.enable(app.app.id, { redirect_uris: [SPA_REDIRECT], public: false, id_token_signed_response_alg: 'RS256' });
    const rp = await relyingParty(portal.url, app.app.name, created.client_secret, SPA_REDIRECT, 'post');
    const tokens = await (async () => {
      const start = await rp.start({ scope: 'openid offline_access' });
      const browser = new Browser(portal.url);
      browser.cookies.set('accesstoken', app.user.token);
      const { url } = await browser.navigate(start.url);
      return oidc.authorizationCodeGrant(rp.config, new URL(url), { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce });
    })();
    await oidc.tokenRevocation(rp.config, tokens.refresh_token!);
    await expect(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!)).rejects.toThrow();
  });
});
