/**
 * Google sign-in when it is not configured, when the provider cannot be reached, and the
 * validation of OIDC_ISSUER. Failures send the browser to Failed Login and are logged.
 */
import { ConfigError, loadConfig } from '@tools-portal/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestProvider, type TestProvider } from './support/google-issuer.js';
import { freePort, startTestPortal, useTestPortal, type TestPortal } from './support/support.js';

async function lastEvent(portal: TestPortal): Promise<string> {
  return (await portal.admin.logs.page(1, 1))[0].event;
}

describe('without a Google client configured', () => {
  const portal = useTestPortal();

  it('hides the button and sends both Google routes to Failed Login', async () => {
    expect(await portal.anonymous.auth.options()).toMatchObject({ google: false, passwordReset: false, defaultLanguage: 'en' });
    for (const path of ['/auth/google?redirect=%2Fauth%2F', '/auth/google/callback?code=x&state=y']) {
      const response = await portal.fetch(path, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/auth/#/failedlogin');
      expect(await lastEvent(portal)).toBe('Google sign-in refused: Google sign-in is not configured');
    }
  });
});

describe('with the provider unreachable', () => {
  let portal: TestPortal;
  let port: number;
  let idp: TestProvider | undefined;
  beforeAll(async () => {
    port = await freePort();
    portal = await startTestPortal({ GOOGLE_CLIENT_ID: 'portal', GOOGLE_CLIENT_SECRET: 'secret', OIDC_ISSUER: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    await portal?.close();
    await idp?.close();
  });

  it('sends the browser to Failed Login, logs why, and tries again at the next sign-in', async () => {
    const down = await portal.fetch('/auth/google', { redirect: 'manual' });
    expect(down.status).toBe(302);
    expect(down.headers.get('location')).toBe('/auth/#/failedlogin');
    expect(down.headers.get('set-cookie')).toBeNull();
    expect(await lastEvent(portal)).toMatch(/^Google sign-in could not start: the provider cannot be reached/);

    idp = await startTestProvider(port);
    idp.allowRedirectUri(`${portal.url}/auth/google/callback`);
    const up = await portal.fetch('/auth/google', { redirect: 'manual' });
    expect(up.status).toBe(302);
    expect(up.headers.get('location')).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/auth\\?`));
    expect(up.headers.get('cache-control')).toBe('no-store');
    expect(up.headers.get('set-cookie')).toMatch(/^google_login=[\w-]{43}; Path=\/auth\/google; Max-Age=600; HttpOnly; SameSite=Lax/);
  });
});

describe('OIDC_ISSUER', () => {
  const config = (issuer: string) => () => loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', OIDC_ISSUER: issuer });

  it('must be https, or plain http on this machine only', () => {
    expect(config('https://accounts.google.com')).not.toThrow();
    expect(config('http://127.0.0.1:4000')).not.toThrow();
    expect(config('http://localhost:4000/realm')).not.toThrow();
    for (const issuer of ['http://accounts.google.com', 'http://127.0.0.1.evil.example', 'ftp://idp.example', 'not a url']) {
      expect(config(issuer)).toThrow(ConfigError);
      expect(config(issuer)).toThrow(/OIDC_ISSUER must be an https URL/);
    }
  });
});
