// Issue 29 in a real Chromium: the verification page of `toolsctl login` (the device grant,
// docs/oidc.md). A terminal asks (plain HTTP, as toolsctl does); the user opens the printed link,
// signs in on the portal's login screen (password and authenticator code, or a passkey through
// Chromium's virtual authenticator), sees which device asks and allows it; or types the code on
// the plain page and denies it. axe on every state, screenshots at laptop and phone width. The
// portal's PUBLIC_URL is http://localhost:PORT: Chromium refuses 127.0.0.1 as a passkey's relying party.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { pollDevice, startDevice } from '../../../server/test/support/device-flow.js';
import { enrol } from '../../../server/test/support/second-factor-steps.js';
import { totpCode } from '../../../server/src/services/sign-in/totp.js';
import { LAPTOP, PHONE, axeViolations, chromiumAvailable, openPage, screenshot, signOut, useLocalhostBrowserPortal, type WatchedPage } from './support';

const web = useLocalhostBrowserPortal();

const waitForHeading = (page: Page, name: string) => expect.poll(() => page.getByRole('heading', { name, exact: true }).isVisible()).toBe(true);

async function looksRight(page: WatchedPage, name: string, what: string) {
  expect(await axeViolations(page), what).toEqual([]);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  expect(await axeViolations(page), `${what} (phone)`).toEqual([]);
  await screenshot(page, name);
  await page.setViewportSize(LAPTOP);
}

async function signInWithPassword(page: Page, email: string, password: string) {
  await waitForHeading(page, 'Login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** The request as the page shows it, once it is there. */
async function requestShown(page: Page, host: string): Promise<string> {
  const text = page.getByText(`toolsctl on ${host}`, { exact: false }).first();
  await expect.poll(() => text.isVisible()).toBe(true);
  return page.locator('.card-body').innerText();
}

/** Chromium's virtual authenticator for this page: a platform authenticator that verifies the user. */
async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

const claimsOf = (idToken: string) => JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString()) as { amr?: string[]; sub: string };

describe.skipIf(!chromiumAvailable)('the device verification page', () => {
  it('signs in with password and authenticator code from the printed link, then Allow signs the terminal in', async () => {
    const user = await web.portal.createUser();
    const { secret } = await enrol(web.portal, user.token);
    const device = await startDevice(web.origin, { host: 'ci-box' });
    expect(device.verification_uri_complete).toBe(`${web.origin}/auth/#/device/${device.user_code}`);
    const { context, page } = await openPage(web.browser);
    try {
      await page.goto(device.verification_uri_complete);
      await signInWithPassword(page, user.email, user.password);
      await waitForHeading(page, 'Two-factor authentication');
      // The next 30-second step: the one of the enrolment was used already.
      await page.getByLabel('Code from your authenticator app').fill(totpCode(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'Verify' }).click();
      await waitForHeading(page, 'Sign in a device');
      const shown = await requestShown(page, 'ci-box');
      expect(shown).toContain('toolsctl on ci-box, requested from 127.0.0.1, less than a minute ago, asks to sign in as you.');
      expect(shown).toContain(device.user_code);
      await looksRight(page, '90-device-request', 'device request');
      await page.getByRole('button', { name: 'Allow' }).click();
      await expect.poll(() => page.getByRole('status').innerText()).toContain('toolsctl on ci-box is signed in.');
      await looksRight(page, '91-device-allowed', 'device allowed');
      const answer = await pollDevice(web.origin, device.device_code);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(claimsOf(answer.body.id_token!).amr).toEqual(['pwd', 'otp', 'mfa']);
      expect((await web.portal.client(answer.body.access_token).users.me()).email).toBe(user.email);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('takes a typed code on the plain page, says when it is wrong, and Deny refuses the terminal', async () => {
    const user = await web.portal.createUser();
    const device = await startDevice(web.origin, { host: 'laptop' });
    const { context, page } = await openPage(web.browser);
    try {
      await page.goto(device.verification_uri);
      await signInWithPassword(page, user.email, user.password);
      await waitForHeading(page, 'Sign in a device');
      const input = page.getByLabel('Enter the code shown in your terminal');
      await looksRight(page, '92-device-code', 'device code form');
      await input.fill('BBBB-BBBB');
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect.poll(() => page.locator('.invalid-feedback').innerText()).toContain('no device asks with this code');
      await looksRight(page, '93-device-code-wrong', 'device code wrong');
      await input.fill(device.user_code.toLowerCase());
      await page.getByRole('button', { name: 'Continue' }).click();
      await requestShown(page, 'laptop');
      await page.getByRole('button', { name: 'Deny' }).click();
      await expect.poll(() => page.getByRole('status').innerText()).toContain('Denied: toolsctl on laptop was not signed in.');
      expect((await pollDevice(web.origin, device.device_code)).body.error).toBe('access_denied');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('signs in with a passkey from the printed link; the terminal gets two factors', async () => {
    const user = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await addVirtualAuthenticator(context, page);
      await page.goto(`${web.origin}/auth/#/login`);
      await signInWithPassword(page, user.email, user.password);
      await page.waitForURL(/#\/applist/);
      await page.goto(`${web.origin}/auth/#/account`);
      await waitForHeading(page, 'Account');
      await page.getByRole('button', { name: 'Add passkey' }).click();
      await expect.poll(() => page.getByRole('table', { name: 'Passkeys' }).locator('tbody tr:not(.empty-row)').count()).toBe(1);
      await signOut(page);
      await waitForHeading(page, 'Login');

      const device = await startDevice(web.origin, { host: 'build-7' });
      await page.goto(device.verification_uri_complete);
      await waitForHeading(page, 'Login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await waitForHeading(page, 'Sign in a device');
      await requestShown(page, 'build-7');
      await page.getByRole('button', { name: 'Allow' }).click();
      await expect.poll(() => page.getByRole('status').innerText()).toContain('toolsctl on build-7 is signed in.');
      const answer = await pollDevice(web.origin, device.device_code);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(claimsOf(answer.body.id_token!).amr).toContain('mfa');
      expect((await user.api.account.sessions.list()).map((session) => session.name)).toContain('toolsctl on build-7');
      // The user's sessions list it by its name.
      await page.goto(`${web.origin}/auth/#/account`);
      const sessions = page.getByRole('table', { name: 'Sessions' });
      await expect.poll(() => sessions.innerText()).toContain('toolsctl on build-7');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
