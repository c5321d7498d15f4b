// Issue 27, part A, in a real Chromium at laptop and phone width: the sign-in screens (a wrong
// password and too many attempts stay on the form, the password rules before the first attempt, a
// used, expired or unknown invitation said before any password, a finished reset), the Account
// page's authenticator self-service (turn off, new recovery codes, how many are left, the server's
// hint), and the portal's name, logo, accent colour and old documentation link. axe on every state,
// screenshots in test-results, no CSP violation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { PNG } from '../../../server/test/support/images.js';
import {
  ADMIN,
  LAPTOP,
  PHONE,
  axeViolations,
  chromiumAvailable,
  goto,
  loginInBrowser,
  openPage,
  screenshot,
  startWebPortal,
  unique,
  useBrowserPortal,
  type WatchedPage,
  signIn,
} from './support';

const logoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-logo-'));
const LOGO = path.join(logoDir, 'logo.png');
fs.writeFileSync(LOGO, PNG);
afterAll(() => fs.rmSync(logoDir, { recursive: true, force: true }));

const OLD_DOCS = 'https://wiki.example.com/old-docs';
const web = useBrowserPortal({
  env: {
    PORTAL_NAME: 'Acme Tools',
    PORTAL_LOGO: LOGO,
    PORTAL_ACCENT_COLOR: '#5a2d82',
    OLD_DOCS_URL: OLD_DOCS,
    LOGIN_FAILURES_PER_EMAIL: '3',
    LOGIN_FAILURES_PER_ADDRESS: '1000',
  },
});

const VIEWPORTS = [LAPTOP, PHONE];
const DAY_MS = 24 * 60 * 60 * 1000;

async function looksRight(page: WatchedPage, name: string) {
  expect(await axeViolations(page), name).toEqual([]);
  await screenshot(page, name);
  expect(page.problems(), name).toEqual([]);
}

const visible = (page: Page, text: string) => expect.poll(() => page.getByText(text, { exact: true }).first().isVisible()).toBe(true);
const heading = (page: Page, name: string) => expect.poll(() => page.getByRole('heading', { name }).isVisible()).toBe(true);

async function invite() {
  const client = await web.portal.admin.clients.create(unique('client'));
  return web.portal.admin.invites.create({ email: `${unique('inv')}@example.com`, clientid: client.id, apps: [] });
}

describe.skipIf(!chromiumAvailable)('sign-in screens', () => {
  it('a wrong email or password stays on the form with the email kept; too many attempts say when to try again', async () => {
    for (const viewport of VIEWPORTS) {
      const member = await web.portal.createUser();
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await loginInBrowser(page, web.portal, member.email, 'not-the-password');
        const problem = page.getByRole('alert').filter({ hasText: 'Wrong email or password.' });
        await expect.poll(() => problem.isVisible()).toBe(true);
        expect(page.url()).toMatch(/#\/login$/);
        expect(await page.getByLabel('Email').inputValue()).toBe(member.email);
        expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('');
        expect(await page.evaluate(() => document.activeElement?.id)).toBe('login-password');
        await looksRight(page, '80-login-wrong-password');

        // LOGIN_FAILURES_PER_EMAIL is 3 here: the form says when to try again, and stays.
        const tooMany = page.getByRole('alert').filter({ hasText: /^Too many failed logins; try again in \d+ minutes \(at \d\d?:\d\d( [AP]M)?\)\.$/ });
        for (let attempt = 0; attempt < 4 && !(await tooMany.isVisible()); attempt++) {
          await page.getByLabel('Password', { exact: true }).fill('still-not-the-password');
          // Each attempt is answered before the next one is made.
          const answered = page.waitForResponse((response) => response.request().method() === 'POST');
          await page.getByRole('button', { name: 'Login' }).click();
          await answered;
        }
        await expect.poll(() => tooMany.isVisible()).toBe(true);
        expect(page.url()).toMatch(/#\/login$/);
        expect(await page.getByLabel('Email').inputValue()).toBe(member.email);
        await looksRight(page, '81-login-too-many-attempts');
      } finally {
        await context.close();
      }
    }
  });

  it('the portal names itself: title, heading with its logo; the password rules show before the first attempt', async () => {
    const open = await invite();
    for (const viewport of VIEWPORTS) {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await goto(page, web.portal, `/login/%2Fauth%2F/${open.token}`);
        await heading(page, 'Set your initial password');
        await expect.poll(() => page.title()).toBe('Acme Tools');
        const brand = page.getByRole('heading', { level: 1 });
        expect(await brand.innerText()).toBe('Acme Tools');
        expect(await brand.locator('img').getAttribute('src')).toMatch(/^\/api\/auth\/v1\/logo\?v=/);
        await expect.poll(() => brand.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        const rules = page.getByRole('list', { name: 'Password rules:' });
        expect(await rules.locator('li').allInnerTexts()).toEqual([
          'At least eight characters.',
          'Not one of the most common passwords, nor one with digits or symbols added.',
          'Not containing your email address or Acme Tools.',
        ]);
        // The rules describe the password input to a screen reader.
        expect(await page.getByLabel('Password', { exact: true }).getAttribute('aria-describedby')).toBe('password-rules');
        await looksRight(page, '82-set-password-rules');
      } finally {
        await context.close();
      }
    }
  });

  it('a used, expired or unknown invitation says so before asking for a password', async () => {
    const used = await invite();
    await web.portal.anonymous.auth.register({ Token: used.token, Password: 'quiet harbour lantern 7' });
    const expiring = await invite();
    for (const viewport of VIEWPORTS) {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await goto(page, web.portal, `/login/%2Fauth%2F/${used.token}`);
        await heading(page, 'This invitation has already been used');
        expect(await page.getByRole('button', { name: 'Save Password' }).count()).toBe(0);
        expect(await page.getByRole('link', { name: 'Login' }).getAttribute('href')).toMatch(/^#\/login/);
        await looksRight(page, '83-invitation-used');

        await goto(page, web.portal, `/login/%2Fauth%2F/${used.token}x`);
        await heading(page, 'This invitation link is not valid');
        expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
        await looksRight(page, '83-invitation-unknown');

        // The server's clock (this process) a week on: the invitation has expired.
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() + 8 * DAY_MS);
        try {
          await goto(page, web.portal, `/login/%2Fauth%2F/${expiring.token}`);
          await heading(page, 'This invitation has expired');
        } finally {
          vi.useRealTimers();
        }
        await visible(page, 'Ask the person who invited you to send a new one.');
        await looksRight(page, '83-invitation-expired');
      } finally {
        await context.close();
      }
    }
  });

  it('an invitation used in another tab while the form is open says so when the password is sent', async () => {
    const open = await invite();
    const { context, page } = await openPage(web.browser);
    try {
      await goto(page, web.portal, `/login/%2Fauth%2F/${open.token}`);
      await heading(page, 'Set your initial password');
      await web.portal.anonymous.auth.register({ Token: open.token, Password: 'quiet harbour lantern 7' });
      await page.getByLabel('Password', { exact: true }).fill('velvet orbit canyon');
      await page.getByLabel('Repeat Password').fill('velvet orbit canyon');
      await page.getByRole('button', { name: 'Save Password' }).click();
      await heading(page, 'This invitation has already been used');
      expect(page.url()).not.toMatch(/failedlogin/);
    } finally {
      await context.close();
    }
  });

  it('a finished reset says Your password was changed.', async () => {
    for (const viewport of VIEWPORTS) {
      const member = await web.portal.createUser();
      const { link } = await web.portal.admin.users.passwordReset(member.user.id);
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await page.goto(link);
        await heading(page, 'Set a new password');
        await visible(page, 'Not containing your email address or Acme Tools.');
        await page.getByLabel('Password', { exact: true }).fill('copper meadow lantern 5');
        await page.getByLabel('Repeat Password').fill('copper meadow lantern 5');
        await page.getByRole('button', { name: 'Save Password' }).click();
        await heading(page, 'Your password was changed.');
        await looksRight(page, '84-reset-done');
        await page.getByRole('link', { name: 'Continue' }).click();
        await page.waitForURL(/#\/applist\/?$/);
      } finally {
        await context.close();
      }
    }
  });
});

describe.skipIf(!chromiumAvailable)('Account: the authenticator app', () => {
  it('set up with the server hint for a wrong code, new recovery codes, codes left, turned off with a code', async () => {
    for (const viewport of VIEWPORTS) {
      const member = await web.portal.createUser();
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, member);
        await page.waitForURL(/#\/applist/);
        await goto(page, web.portal, '/account');
        const section = page.getByRole('region', { name: 'Authenticator app' });
        await section.getByRole('button', { name: 'Set up authenticator app' }).click();
        const secretText = page.getByTestId('totp-secret');
        await expect.poll(() => secretText.isVisible()).toBe(true);
        const totp = new TOTP({ secret: Secret.fromBase32((await secretText.innerText()).trim()), digits: 6, period: 30, algorithm: 'SHA1' });
        await page.getByLabel('Code', { exact: true }).fill(totp.generate({ timestamp: Date.now() + 10 * 30_000 }));
        await page.getByRole('button', { name: 'Enable' }).click();
        await visible(page, 'The code is not valid; check the clock of the device.');
        expect(await page.getByLabel('Code', { exact: true }).getAttribute('aria-invalid')).toBe('true');
        await looksRight(page, '85-account-code-hint');
        await page.getByLabel('Code', { exact: true }).fill(totp.generate());
        await page.getByRole('button', { name: 'Enable' }).click();
        const codes = page.getByRole('list', { name: 'Recovery codes' });
        await expect.poll(() => codes.locator('li').count()).toBe(10);
        const first = await codes.locator('li').allInnerTexts();
        expect(decodeURIComponent((await page.getByRole('link', { name: 'Download' }).getAttribute('href')) ?? '')).toContain('Acme Tools recovery codes');
        await page.getByRole('button', { name: 'Done' }).click();
        await expect.poll(() => section.getByTestId('recovery-codes-left').innerText()).toBe('10 recovery codes left.');
        await looksRight(page, '86-account-authenticator-on');

        // New recovery codes: a wrong password is refused under its input, the right one makes ten new codes.
        await section.getByRole('button', { name: 'Make new recovery codes' }).click();
        await page.getByLabel('Your password').fill('not the password');
        await page.getByRole('button', { name: 'Make new codes' }).click();
        await visible(page, 'The password is wrong.');
        await looksRight(page, '87-account-new-codes-refused');
        await page.getByLabel('Your password').fill(member.password);
        await page.getByRole('button', { name: 'Make new codes' }).click();
        await expect.poll(() => codes.locator('li').count()).toBe(10);
        const second = await codes.locator('li').allInnerTexts();
        expect(second.some((code) => first.includes(code))).toBe(false);
        await page.getByRole('button', { name: 'Done' }).click();

        // Turned off with a recovery code; a wrong code first gets the server's hint.
        await section.getByRole('button', { name: 'Turn off' }).click();
        await page.getByRole('radio', { name: 'Code' }).check();
        await page.getByLabel('Code from your authenticator app (or a recovery code)').fill('000000');
        await page.getByRole('button', { name: 'Turn off' }).click();
        await visible(page, 'The code is not valid; check the clock of the device.');
        await looksRight(page, '88-account-turn-off-refused');
        await page.getByLabel('Code from your authenticator app (or a recovery code)').fill(second[0]!);
        await page.getByRole('button', { name: 'Turn off' }).click();
        await expect.poll(() => section.getByRole('button', { name: 'Set up authenticator app' }).isVisible()).toBe(true);
        await expect.poll(() => page.locator('.alert-stack').innerText()).toContain('The authenticator app is off.');
        await looksRight(page, '89-account-authenticator-off');
      } finally {
        await context.close();
      }
    }
  });
});

describe.skipIf(!chromiumAvailable)('branding', () => {
  it('the launcher and navigation name the portal with its logo; the accent colour is CSP-safe; old documentation leads to OLD_DOCS_URL', async () => {
    // An admin with apps: the launcher shows the Other Tools card (a fresh admin gets Get started).
    await web.portal.admin.apps.create({ name: unique('branded'), url: 'https://branded.example.com/' });
    for (const viewport of VIEWPORTS) {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist/);
        await heading(page, 'Acme Tools');
        await expect.poll(() => page.title()).toBe('Acme Tools');
        const brand = page.getByRole('navigation', { name: 'Main' }).locator('.navbar-brand');
        expect(await brand.innerText()).toBe('Acme Tools');
        expect(await brand.locator('img').count()).toBe(1);
        expect(await page.getByRole('link', { name: 'old documentation' }).getAttribute('href')).toBe(OLD_DOCS);
        // The accent is custom properties set from script, never a style attribute in the markup.
        expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--portal-accent').trim())).toBe('#5a2d82');
        expect(await page.locator('.navbar').evaluate((nav) => getComputedStyle(nav).borderBottomColor)).toBe('rgb(90, 45, 130)');
        await looksRight(page, '90-branded-launcher');
        await goto(page, web.portal, '/account');
        await heading(page, 'Account');
        await looksRight(page, '90-branded-account');
        const primary = page.getByRole('button', { name: 'Set up authenticator app' });
        expect(await primary.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe('rgb(90, 45, 130)');
      } finally {
        await context.close();
      }
    }
  });

  it('without OLD_DOCS_URL there is no old documentation link; without PORTAL_NAME the portal is Tools-Server', async () => {
    const plain = await startWebPortal();
    await plain.admin.apps.create({ name: unique('plain'), url: 'https://plain.example.com/' });
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, plain, ADMIN);
      await page.waitForURL(/#\/applist/);
      await heading(page, 'Tools-Server');
      await expect.poll(() => page.getByText('Other Tools').isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'old documentation' }).count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.dataset.accent)).toBeUndefined();
    } finally {
      await context.close();
      await plain.close();
    }
  });
});
