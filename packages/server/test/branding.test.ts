/**
 * The portal's name, logo, accent colour and old documentation link (docs/configuration.md):
 * checked at start, told to the web by GET /loginoptions, and used where the portal names itself
 * (the authenticator issuer, a passkey's relying party, the password rule, the OpenID provider's pages).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { errorPage, logoutPage, signedOutPage } from '../src/oidc/pages.js';
import { JPEG, PNG, WEBP } from './support/images.js';
import { call, json } from './support/passkey-ceremony.js';
import { unique, useTestPortal } from './support/support.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-branding-'));
const file = (name: string, bytes: Buffer) => {
  const at = path.join(dir, name);
  fs.writeFileSync(at, bytes);
  return at;
};
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('branding settings', () => {
  it('defaults: Tools-Server, no logo, no accent colour, no old documentation link', () => {
    expect(loadConfig({}).branding).toEqual({ portalName: 'Tools-Server', logo: undefined, accentColor: undefined, oldDocsUrl: undefined });
  });

  it('reads a PNG or WebP logo once, an accent colour as #rrggbb, an http(s) URL or a path for the old docs', () => {
    const png = loadConfig({ PORTAL_NAME: 'Acme Tools', PORTAL_LOGO: file('logo.png', PNG), PORTAL_ACCENT_COLOR: '#0A7', OLD_DOCS_URL: '/docs/' }).branding;
    expect(png).toMatchObject({ portalName: 'Acme Tools', accentColor: '#00aa77', oldDocsUrl: '/docs/' });
    expect(png.logo).toMatchObject({ contentType: 'image/png', data: PNG });
    const webp = loadConfig({ PORTAL_LOGO: file('logo.webp', WEBP), PORTAL_ACCENT_COLOR: '5a2d82', OLD_DOCS_URL: 'https://wiki.example.com/old' }).branding;
    expect(webp).toMatchObject({ accentColor: '#5a2d82', oldDocsUrl: 'https://wiki.example.com/old', logo: { contentType: 'image/webp' } });
  });

  it('refuses at start what it cannot use, each with its reason', () => {
    expect(problemsOf({ PORTAL_LOGO: file('logo.jpg', JPEG) })).toEqual([expect.stringMatching(/^PORTAL_LOGO must be a PNG or WebP image: .* is a JPEG$/)]);
    expect(problemsOf({ PORTAL_LOGO: file('logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')) })).toEqual([
      expect.stringMatching(/^PORTAL_LOGO must be a PNG or WebP image: .*SVG is not accepted/),
    ]);
    expect(problemsOf({ PORTAL_LOGO: path.join(dir, 'missing.png') })).toEqual([expect.stringMatching(/^PORTAL_LOGO cannot be read: /)]);
    expect(problemsOf({ PORTAL_LOGO: file('big.png', Buffer.concat([PNG, Buffer.alloc(300 * 1024)])) })).toEqual([
      'PORTAL_LOGO must be at most 256 KB, got 301 KB',
    ]);
    expect(problemsOf({ PORTAL_ACCENT_COLOR: 'red' })).toEqual(['PORTAL_ACCENT_COLOR must be a colour as #rrggbb, got "red"']);
    expect(problemsOf({ PORTAL_ACCENT_COLOR: '#12345g' })).toHaveLength(1);
    expect(problemsOf({ OLD_DOCS_URL: 'javascript:alert(1)' })).toEqual([
      'OLD_DOCS_URL must be an absolute http(s) URL or a path starting with /, got "javascript:alert(1)"',
    ]);
    expect(problemsOf({ OLD_DOCS_URL: '//evil.example.com/' })).toHaveLength(1);
    expect(problemsOf({ PORTAL_NAME: 'x'.repeat(61) })).toHaveLength(1);
    expect(problemsOf({ PORTAL_NAME: 'Acme <b>' })).toHaveLength(1);
  });

  it("the OpenID provider's pages name the portal, escaped", () => {
    const site = { publicUrl: 'https://portal.example.com', portalName: 'Acme & Co' };
    expect(signedOutPage(site)).toContain('<title>Signed out · Acme &#38; Co</title>');
    expect(signedOutPage(site)).toContain('Back to Acme &#38; Co</a>');
    expect(logoutPage(site, { form: '<form id="op.logoutForm"></form>', clientId: 'wiki' })).toContain(
      '<p>Sign out of Acme &#38; Co? The app wiki asked to sign you out.</p>',
    );
    expect(errorPage(site, { error: 'invalid_request' })).not.toContain('Tools-Server');
  });
});

describe('a portal with its own name, logo, colour and old docs', () => {
  const portal = useTestPortal({
    PORTAL_NAME: 'Acme Tools',
    PORTAL_LOGO: file('acme.webp', WEBP),
    PORTAL_ACCENT_COLOR: '#5a2d82',
    OLD_DOCS_URL: 'https://wiki.example.com/old',
  });

  it('GET /loginoptions tells the web, anonymously', async () => {
    const options = await portal.anonymous.auth.options();
    expect(options).toMatchObject({ portalName: 'Acme Tools', accentColor: '#5a2d82', oldDocsUrl: 'https://wiki.example.com/old' });
    expect(options.logo).toMatch(/^\/api\/auth\/v1\/logo\?v=[\w-]{16}$/);
    const logo = await portal.fetch(options.logo!);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/webp');
    expect(logo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await logo.arrayBuffer())).toEqual(WEBP);
    expect((await portal.fetch('/api/auth/v1/logo?v=old')).headers.get('cache-control')).toBe('public, no-cache');
  });

  it("the authenticator app's issuer is the portal's name", async () => {
    const user = await portal.createUser();
    const { uri } = await json<{ uri: string }>(await call(portal, 'POST', '/user/me/totp', { token: user.token }), 200);
    expect(uri).toMatch(new RegExp(`^otpauth://totp/Acme%20Tools:${encodeURIComponent(user.email)}\\?`));
    expect(uri).toContain('issuer=Acme%20Tools');
  });

  it("a passkey's relying party is named after the portal", async () => {
    const user = await portal.createUser();
    const options = await json<{ rp: { name: string } }>(await call(portal, 'POST', '/user/me/passkey/options', { token: user.token }), 200);
    expect(options.rp.name).toBe('Acme Tools');
  });

  it("a new password may not contain the portal's name (any case or spacing); Tools-Server is allowed now", async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const invite = await portal.admin.invites.create({ email: `${unique('inv')}@example.com`, clientid: client.id, apps: [] });
    for (const password of ['my acme-tools pass 42', 'ACMETOOLS-rules-9']) {
      const refused = await call(portal, 'POST', '/register', { body: { Token: invite.token, Password: password } });
      expect((await json<{ error: { message: string } }>(refused, 400)).error.message).toBe('Password: Your password must not contain Acme Tools.');
    }
    const accepted = await call(portal, 'POST', '/register', { body: { Token: invite.token, Password: 'quiet Tools-Server harbour 7' } });
    expect(accepted.status).toBe(200);
  });
});

describe('a portal without a logo', () => {
  const portal = useTestPortal();

  it('GET /loginoptions says the defaults; GET /logo is 404', async () => {
    expect(await portal.anonymous.auth.options()).toEqual({
      google: false,
      passwordReset: false,
      defaultLanguage: 'en',
      portalName: 'Tools-Server',
      logo: null,
      accentColor: null,
      oldDocsUrl: null,
    });
    expect((await portal.fetch('/api/auth/v1/logo')).status).toBe(404);
  });
});
