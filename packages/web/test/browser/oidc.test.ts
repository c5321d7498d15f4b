// An app signing its users in through the portal (docs/oidc.md) in a real browser: a small
// relying party (openid-client) sends the browser to the portal, the portal's login screen signs
// the user in and sends them back with a code; the app's logout link goes through the portal's
// Sign out page (within the CSP) and ends the portal session too. prompt=login and acr_values=mfa
// take the signed-in user through Confirm it's you (or the second factor alone) before the code.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OIDC_SIGNING_ALGS } from '@tools-portal/core/oidc';
import * as oidc from 'openid-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../../server/src/services/sign-in/totp.js';
import { enrol } from '../../../server/test/support/second-factor-steps.js';
import { ADMIN, LAPTOP, PHONE, axeViolations, chromiumAvailable, createApp, goto, openPage, screenshot, useBrowserPortal, signIn } from './support';

const web = useBrowserPortal();
let rp: http.Server;
let rpUrl: string;
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The app sends the browser to the portal's login screen; the user signs in and lands on the app's callback. */
async function signInToTheApp(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto(`${rpUrl}/login`);
  await page.waitForURL(/\/auth\/#\/login\//);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${rpUrl}/callback?**`);
}

/** A relying party of a few lines: /login (its prompt, max_age and acr_values passed on), /callback, /logout, /bye. */
async function startRelyingParty(): Promise<void> {
  rp = http.createServer();
  await new Promise<void>((resolve) => rp.listen(0, '127.0.0.1', resolve));
  rpUrl = `http://127.0.0.1:${(rp.address() as AddressInfo).port}`;
  const app = await createApp(web.portal.admin, { name: 'notes', url: `${rpUrl}/` });
  const client = await web.portal.admin.apps.oidc.enable(app.id, { redirect_uris: [`${rpUrl}/callback`], post_logout_redirect_uris: [`${rpUrl}/bye`] });
  const config = await oidc.discovery(new URL(web.portal.url), 'notes', client.client_secret, undefined, { execute: [oidc.allowInsecureRequests] });
  const pending = new Map<string, { verifier: string; nonce: string }>();
  let idToken = '';
  const page = (title: string, body: string) => `<!doctype html><title>${title}</title><h1>${title}</h1>${body}`;
  rp.on('request', (request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', rpUrl);
      if (url.pathname === '/login') {
        const state = oidc.randomState();
        const verifier = oidc.randomPKCECodeVerifier();
        const nonce = oidc.randomNonce();
        pending.set(state, { verifier, nonce });
        const target = oidc.buildAuthorizationUrl(config, {
          redirect_uri: `${rpUrl}/callback`,
          scope: 'openid email profile groups',
          state,
          nonce,
          code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
          ...Object.fromEntries(
            ['prompt', 'max_age', 'acr_values'].flatMap((name) => (url.searchParams.has(name) ? [[name, url.searchParams.get(name)!]] : [])),
          ),
        });
        response.writeHead(302, { location: target.href }).end();
      } else if (url.pathname === '/callback') {
        const state = url.searchParams.get('state') ?? '';
        const checks = pending.get(state);
        pending.delete(state);
        if (!checks || url.searchParams.has('error')) {
          response
            .writeHead(403, { 'content-type': 'text/html' })
            .end(page('Not signed in', `<p>${escapeHtml(url.searchParams.get('error') ?? 'unknown state')}</p>`));
          return;
        }
        const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: checks.verifier, expectedState: state, expectedNonce: checks.nonce });
        idToken = tokens.id_token ?? '';
        const claims = tokens.claims()!;
        const how = `<p id="acr">${escapeHtml(String(claims.acr))}</p><p id="amr">${escapeHtml([claims.amr ?? []].flat().join(' '))}</p><p id="auth-time">${Number(claims.auth_time)}</p>`;
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(page('Notes', `<p id="who">Signed in as ${escapeHtml(String(claims.email))}</p>${how}<a href="/logout">Log out</a>`));
      } else if (url.pathname === '/logout') {
        const target = oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: `${rpUrl}/bye` });
        response.writeHead(302, { location: target.href }).end();
      } else if (url.pathname === '/bye') {
        response.writeHead(200, { 'content-type': 'text/html' }).end(page('Bye from Notes', ''));
      } else {
        response.writeHead(404).end();
      }
    })().catch((error: Error) => response.writeHead(500).end(error.message));
  });
}

beforeAll(async () => {
  if (!chromiumAvailable) return;
  await startRelyingParty();
});

afterAll(async () => {
  await new Promise((resolve) => (rp ? rp.close(resolve) : resolve(undefined)));
});

describe.skipIf(!chromiumAvailable)('an app signing in through the portal (OpenID Connect)', () => {
  it('signs a user in through the portal login screen and back, then signs out through the portal', async () => {
    const app = (await web.portal.admin.apps.list()).find((each) => each.name === 'notes')!;
    const user = await web.portal.createUser({ apps: [app] });
    const { context, page } = await openPage(web.browser);
    try {
      await signInToTheApp(page, user);
      expect(await page.locator('#who').innerText()).toBe(`Signed in as ${user.email}`);

      // Signed in to the portal now: a second sign-in to the app needs no screen at all.
      await page.goto(`${rpUrl}/login`);
      await page.waitForURL(`${rpUrl}/callback?**`);
      expect(await page.locator('#who').innerText()).toBe(`Signed in as ${user.email}`);

      await page.getByRole('link', { name: 'Log out' }).click();
      await page.waitForURL(/\/oidc\/logout/);
      await expect.poll(() => page.getByRole('heading', { name: 'Sign out' }).count()).toBe(1);
      await screenshot(page, '60-oidc-sign-out');
      await page.setViewportSize(PHONE);
      await screenshot(page, '60-oidc-sign-out');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${rpUrl}/bye`);
      expect(await page.getByRole('heading').innerText()).toBe('Bye from Notes');

      // The portal session ended with it.
      await goto(page, web.portal, '/applist');
      await page.waitForURL(/#\/login/);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("prompt=login: the signed-in user confirms it's them on the portal; acr_values=mfa steps up with the second factor", async () => {
    const app = (await web.portal.admin.apps.list()).find((each) => each.name === 'notes')!;
    const user = await web.portal.createUser({ apps: [app] });
    const { context, page } = await openPage(web.browser);
    try {
      await signInToTheApp(page, user);
      const signedInAt = Number(await page.locator('#auth-time').innerText());
      expect(await page.locator('#acr').innerText()).toBe('pwd');

      await new Promise((resolve) => setTimeout(resolve, 1100));
      await page.goto(`${rpUrl}/login?prompt=login`);
      await page.waitForURL(/\/auth\/#\/confirm\//);
      await expect.poll(() => page.getByRole('heading', { name: "Confirm it's you" }).count()).toBe(1);
      const email = page.getByLabel('Email');
      expect(await email.inputValue()).toBe(user.email);
      expect(await email.getAttribute('readonly')).not.toBeNull();
      await screenshot(page, '63-oidc-confirm');
      expect(await axeViolations(page), "Confirm it's you").toEqual([]);
      await page.getByLabel('Password', { exact: true }).fill('not the password');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await expect.poll(() => page.getByText('The password is not right.').count()).toBe(1);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.waitForURL(`${rpUrl}/callback?**`);
      expect(await page.locator('#who').innerText()).toBe(`Signed in as ${user.email}`);
      expect(Number(await page.locator('#auth-time').innerText())).toBeGreaterThan(signedInAt);

      // Two factors asked for: this session used one, the user has an authenticator now.
      const { secret } = await enrol(web.portal, user.token);
      await page.goto(`${rpUrl}/login?acr_values=mfa`);
      await page.waitForURL(/\/auth\/#\/stepup\//);
      await expect.poll(() => page.getByText('The app asks for two factors.').count()).toBe(1);
      expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
      await screenshot(page, '64-oidc-step-up');
      expect(await axeViolations(page), 'step-up').toEqual([]);
      // The second factor alone: the session keeps its password.
      await page.getByRole('button', { name: 'Use your second factor' }).click();
      await page.getByLabel('Code from your authenticator app').fill(totpCode(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(`${rpUrl}/callback?**`);
      expect(await page.locator('#acr').innerText()).toBe('mfa');
      expect(await page.locator('#amr').innerText()).toBe('pwd otp mfa');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('sends a user without the grant back to the app with access_denied', async () => {
    const user = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await signInToTheApp(page, user);
      expect(await page.getByRole('heading').innerText()).toBe('Not signed in');
      expect(await page.locator('p').innerText()).toBe('access_denied');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lets an admin enable an app as a client on its page: client id, discovery URL, the secret once, New secret, Turn off', async () => {
    const app = await createApp(web.portal.admin, { name: 'grafana', url: 'https://grafana.example.com/' });
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist/);
      await goto(page, web.portal, `/app/${app.id}`);
      const section = page.getByRole('region', { name: 'OpenID Connect' });
      await section.getByLabel('Redirect URIs (one a line)').fill('https://grafana.example.com/login/generic_oauth\nhttp://localhost:3000/login/generic_oauth');
      await screenshot(page, '61-app-oidc-off');
      // The signature choices are core's algorithms (OIDC_SIGNING_ALGS), RS256 first.
      expect(await section.getByLabel('ID token signature').locator('option').allTextContents()).toEqual(OIDC_SIGNING_ALGS.map((alg) => `ID tokens ${alg}`));
      await section.getByLabel('Device grant (sign-in from a TV or terminal)').check();
      await section.getByRole('button', { name: 'Enable' }).click();
      const secretField = section.getByLabel('Client secret');
      await expect.poll(() => secretField.count()).toBe(1);
      const secret = await secretField.inputValue();
      expect(secret.length).toBeGreaterThan(30);
      expect(await section.getByLabel('Client ID').inputValue()).toBe('grafana');
      expect(await section.getByLabel('Discovery URL').inputValue()).toBe(`${web.portal.url}/.well-known/openid-configuration`);
      const settings = await web.portal.admin.apps.oidc.get(app.id);
      expect(settings.redirect_uris).toEqual(['https://grafana.example.com/login/generic_oauth', 'http://localhost:3000/login/generic_oauth']);
      expect(settings.device).toBe(true);
      await screenshot(page, '62-app-oidc-on');
      await page.setViewportSize(PHONE);
      await screenshot(page, '62-app-oidc-on');
      await page.setViewportSize(LAPTOP);

      await section.getByRole('button', { name: 'New secret' }).click();
      await expect.poll(() => secretField.inputValue()).not.toBe(secret);
      // A new secret keeps the other settings, the device grant included.
      expect((await web.portal.admin.apps.oidc.get(app.id)).device).toBe(true);

      const off = section.getByRole('button', { name: 'Turn off' });
      await off.click();
      await section.getByRole('button', { name: 'Really?' }).click();
      await expect.poll(() => section.getByRole('button', { name: 'Enable' }).count()).toBe(1);
      expect(
        await web.portal.admin.apps.oidc.get(app.id).then(
          () => 'on',
          () => 'off',
        ),
      ).toBe('off');

      // A bad redirect URI: the server's reason in the danger alert, nothing enabled.
      await section.getByLabel('Redirect URIs (one a line)').fill('http://grafana.example.com/cb');
      await section.getByRole('button', { name: 'Enable' }).click();
      await expect.poll(() => page.getByText(/must use https/).count()).toBe(1);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
