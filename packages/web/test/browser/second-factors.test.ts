// Issue 13 in a real Chromium: passkeys through the DevTools virtual authenticator (ctap2, internal,
// resident keys, user verification), an authenticator app enrolled through the Account screen (the
// code computed here from the shown secret), sessions, password change, the admin's Reset
// two-factor; axe on every new screen, screenshots at laptop and phone width. The portal's
// PUBLIC_URL is http://localhost:PORT: Chromium refuses 127.0.0.1 as a passkey's relying party.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { Secret, TOTP } from 'otpauth';
import { createTestDatabase, type TestDatabase } from '../../../server/test/support/database.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  LAPTOP,
  PHONE,
  axeViolations,
  chromiumAvailable,
  openPage,
  screenshot,
  openAccount,
  signOut,
  startWebPortal,
  useLocalhostBrowserPortal,
  type TestPortal,
  type WatchedPage,
} from './support';

/** web.origin is the portal by name, as PUBLIC_URL says; web.portal.url the same server by IP address. */
const web = useLocalhostBrowserPortal();

const open = (page: Page, route: string, base = web.origin) => page.goto(`${base}/auth/#${route}`);

async function signInWithPassword(page: Page, email: string, password: string) {
  await open(page, '/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Chromium's virtual authenticator for this page: a platform authenticator that verifies the user. */
async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { cdp, authenticatorId, credentials };
}

async function looksRight(page: WatchedPage, name: string, what: string) {
  expect(await axeViolations(page), what).toEqual([]);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await screenshot(page, name);
  await page.setViewportSize(LAPTOP);
}

/** The narrowest phone the screens must fit (an iPhone SE or mini). */
const NARROW_PHONE = { width: 375, height: 812 };

const waitForHeading = (page: Page, name: string) => expect.poll(() => page.getByRole('heading', { name, exact: true }).isVisible()).toBe(true);
const alertText = (page: Page) => page.locator('.alert-stack').innerText();

describe.skipIf(!chromiumAvailable)('the Account screen by IP address', () => {
  it('explains why passkeys are unavailable, and the login screen offers no passkey there', async () => {
    // A portal whose PUBLIC_URL is its IP address, as people open it by mistake.
    const byIp = await startWebPortal();
    const user = await byIp.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await open(page, '/login', byIp.url);
      await waitForHeading(page, 'Login');
      expect(await page.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL(/#\/applist/);
      await openAccount(page);
      await waitForHeading(page, 'Account');
      await expect.poll(() => page.getByTestId('passkeys-unavailable').innerText()).toContain('opened by an IP address (127.0.0.1)');
      expect(await page.getByRole('button', { name: 'Add passkey' }).isDisabled()).toBe(true);
      await looksRight(page, '61-account-by-ip', 'account by IP');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
      await byIp.close();
    }
  });
});

describe.skipIf(!chromiumAvailable)('the login screen at PUBLIC_URL', () => {
  it('offers Sign in with a passkey', async () => {
    const { context, page } = await openPage(web.browser);
    try {
      await open(page, '/login');
      await waitForHeading(page, 'Login');
      await expect.poll(() => page.getByRole('button', { name: 'Sign in with a passkey' }).isVisible()).toBe(true);
      await looksRight(page, '60-login-with-passkey', 'login');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

// Passkeys' server API (packages/server/src/services/sign-in/passkeys.ts) is on main.
const PASSKEY_SERVER_API = true;

describe.skipIf(!chromiumAvailable || !PASSKEY_SERVER_API)('passkeys in the browser', () => {
  it('adds a passkey on Account, signs in with it alone and as a second factor, renames and deletes it', async () => {
    const user = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      const authenticator = await addVirtualAuthenticator(context, page);
      await signInWithPassword(page, user.email, user.password);
      await page.waitForURL(/#\/applist/);
      await openAccount(page);
      await waitForHeading(page, 'Account');
      expect(await page.getByTestId('passkeys-unavailable').count()).toBe(0);
      await looksRight(page, '61-account', 'account');

      await page.getByRole('button', { name: 'Add passkey' }).click();
      const passkeys = page.getByRole('table', { name: 'Passkeys' });
      await expect.poll(() => passkeys.locator('tbody tr:not(.empty-row)').count()).toBe(1);
      expect(await passkeys.locator('tbody tr td').first().innerText()).toContain('Chrome on Linux');
      expect(await authenticator.credentials()).toHaveLength(1);

      await passkeys.getByRole('button', { name: /Rename/ }).click();
      await passkeys.getByLabel('Passkey name').fill('Work laptop');
      await passkeys.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => passkeys.locator('tbody tr td').first().innerText()).toContain('Work laptop');
      await looksRight(page, '62-account-passkey', 'account with a passkey');

      // Signed out, the passkey alone signs in (discoverable credential, user verified).
      await signOut(page);
      await waitForHeading(page, 'Login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL(/#\/applist/);
      await expect.poll(() => page.getByRole('button', { name: user.email }).isVisible()).toBe(true);

      // After the password, the passkey is the second factor.
      await signOut(page);
      await signInWithPassword(page, user.email, user.password);
      await waitForHeading(page, 'Two-factor authentication');
      expect(await page.getByRole('button', { name: 'Verify' }).count()).toBe(0);
      await looksRight(page, '63-two-factor-passkey', 'two-factor with a passkey');
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.waitForURL(/#\/applist/);

      await open(page, '/account');
      await waitForHeading(page, 'Account');
      await passkeys.getByRole('button', { name: 'Delete' }).click();
      await passkeys.getByRole('button', { name: 'Really?' }).click();
      await expect.poll(() => passkeys.locator('tbody tr:not(.empty-row)').count()).toBe(0);
      // Without a factor, the password alone signs in again.
      await signOut(page);
      await signInWithPassword(page, user.email, user.password);
      await page.waitForURL(/#\/applist/);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!chromiumAvailable || !PASSKEY_SERVER_API)('the Account screen of a user whose only second factor is a passkey', () => {
  it('offers to set up an authenticator app and lists the passkey', async () => {
    const user = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await addVirtualAuthenticator(context, page);
      await addPasskeyOnAccount(page, user.email, user.password);
      const authenticator = page.getByRole('region', { name: 'Authenticator app' });
      expect(await authenticator.innerText()).not.toContain('Two-factor authentication is on');
      expect(await authenticator.innerText()).toContain('Sign in with a code from an app on your phone');
      await expect.poll(() => authenticator.getByRole('button', { name: 'Set up authenticator app' }).isVisible()).toBe(true);
      await looksRight(page, '70-account-passkey-only', 'account with a passkey only');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a phone of 375 px with a session and a passkey listed, tables and all, and wider screens too', async () => {
    const user = await web.portal.createUser();
    // Times as wide as they get ("11:58 AM"), whatever the hour the test runs at.
    const { context, page } = await openPage(web.browser, NARROW_PHONE, { timezoneId: zoneWhereItIsEleven() });
    try {
      await addVirtualAuthenticator(context, page);
      await addPasskeyOnAccount(page, user.email, user.password);
      // Registering signed the user in too: this session and one other, with its Sign out button.
      await expect.poll(() => page.getByRole('table', { name: 'Sessions' }).locator('tbody tr:not(.empty-row)').count()).toBe(2);
      for (const width of [NARROW_PHONE.width, 768, 1000, LAPTOP.width]) {
        await page.setViewportSize({ width, height: NARROW_PHONE.height });
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
        expect(widths.page, `at ${width} px the page is ${widths.page} px wide in a window of ${widths.window} px`).toBeLessThanOrEqual(widths.window);
        // Not scrolled sideways inside their cards either: Delete and Sign out stay in view.
        for (const table of ['Passkeys', 'Sessions']) {
          const fit = await page
            .getByRole('table', { name: table })
            .evaluate((element) => ({ table: element.scrollWidth, box: element.parentElement!.clientWidth }));
          expect(fit.table, `at ${width} px the ${table} table is ${fit.table} px wide in ${fit.box} px`).toBeLessThanOrEqual(fit.box);
        }
        if (width === NARROW_PHONE.width) expect(await axeViolations(page), 'account at 375 px').toEqual([]);
      }
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** Signs in with the password, adds a passkey on Account (a virtual authenticator must be there) and waits for its row. */
async function addPasskeyOnAccount(page: Page, email: string, password: string) {
  await signInWithPassword(page, email, password);
  await page.waitForURL(/#\/applist/);
  await open(page, '/account');
  await waitForHeading(page, 'Account');
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect.poll(() => page.getByRole('table', { name: 'Passkeys' }).locator('tbody tr:not(.empty-row)').count()).toBe(1);
  await expect.poll(() => alertText(page)).toContain('Passkey added.');
}

describe.skipIf(!chromiumAvailable)('second factors in the browser', () => {
  it('enrols an authenticator app through the screen, then asks for its code or a recovery code at login', async () => {
    const user = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await signInWithPassword(page, user.email, user.password);
      await page.waitForURL(/#\/applist/);
      await open(page, '/account');
      await page.getByRole('button', { name: 'Set up authenticator app' }).click();
      const secretText = page.getByTestId('totp-secret');
      await expect.poll(() => secretText.isVisible()).toBe(true);
      const secret = (await secretText.innerText()).trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      const qr = page.getByRole('img', { name: 'QR code of the authenticator secret' });
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      await looksRight(page, '64-account-authenticator', 'authenticator enrolment');

      const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
      await page.getByLabel('Code', { exact: true }).fill('000000' === totp.generate() ? '111111' : '000000');
      await page.getByRole('button', { name: 'Enable' }).click();
      // The server's hint, under the input it is about.
      await expect.poll(() => page.getByText('The code is not valid; check the clock of the device.').isVisible()).toBe(true);
      await page.getByLabel('Code', { exact: true }).fill(totp.generate());
      await page.getByRole('button', { name: 'Enable' }).click();
      const codes = page.getByRole('list', { name: 'Recovery codes' });
      await expect.poll(() => codes.locator('li').count()).toBe(10);
      // The success replaces the complaint about the wrong code that came before it.
      await expect.poll(() => alertText(page)).toContain('The authenticator app is on.');
      expect(await alertText(page)).not.toContain('The code is not right.');
      const recoveryCodes = await codes.locator('li').allInnerTexts();
      const download = page.getByRole('link', { name: 'Download' });
      expect(decodeURIComponent((await download.getAttribute('href')) ?? '')).toContain(recoveryCodes[0]);
      await expect.poll(() => page.getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
      await looksRight(page, '65-account-recovery-codes', 'recovery codes');
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await codes.count()).toBe(0);
      const authenticator = page.getByRole('region', { name: 'Authenticator app' });
      expect(await authenticator.innerText()).toContain('The authenticator app is on for your account.');
      expect(await authenticator.getByRole('button', { name: 'Set up authenticator app' }).count()).toBe(0);
      await looksRight(page, '65-account-authenticator-on', 'authenticator app on');

      await signOut(page);
      await signInWithPassword(page, user.email, user.password);
      await waitForHeading(page, 'Two-factor authentication');
      await looksRight(page, '66-two-factor', 'two-factor');
      await page.getByLabel('Code from your authenticator app').fill('12345');
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect.poll(() => alertText(page)).toContain('The code is not right.');
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/#\/applist/);

      // A recovery code works once.
      await signOut(page);
      await signInWithPassword(page, user.email, user.password);
      await waitForHeading(page, 'Two-factor authentication');
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await expect.poll(() => alertText(page)).toContain('The code is not right.');
      await page.getByRole('button', { name: 'Use your authenticator app' }).click();
      // The enrolment's code was used once already: the next period's code (one step of drift).
      await page.getByLabel('Code from your authenticator app').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/#\/applist/);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the next user no alert of the previous one after a logout', async () => {
    const first = await web.portal.createUser();
    const second = await web.portal.createUser();
    // The second user has an authenticator app too (set up through the API), so reaches Two-factor authentication.
    const enrolment = await web.portal.client(second.token).account.totp.start();
    await web.portal.client(second.token).account.totp.confirm(totpOf(enrolment.secret).generate());
    const { context, page } = await openPage(web.browser);
    try {
      await signInWithPassword(page, first.email, first.password);
      await page.waitForURL(/#\/applist/);
      await open(page, '/account');
      await page.getByRole('button', { name: 'Set up authenticator app' }).click();
      const secretText = page.getByTestId('totp-secret');
      await expect.poll(() => secretText.isVisible()).toBe(true);
      await page.getByLabel('Code', { exact: true }).fill(totpOf((await secretText.innerText()).trim()).generate());
      await page.getByRole('button', { name: 'Enable' }).click();
      await expect.poll(() => alertText(page)).toContain('The authenticator app is on.');
      await page.getByRole('button', { name: 'Done' }).click();

      await signOut(page);
      await waitForHeading(page, 'Login');
      await expect.poll(() => alertText(page)).not.toContain('The authenticator app is on.');
      await signInWithPassword(page, second.email, second.password);
      await waitForHeading(page, 'Two-factor authentication');
      expect(await alertText(page)).not.toContain('The authenticator app is on.');
      await looksRight(page, '71-two-factor-after-logout', 'two-factor after another user logged out');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('lists sessions with this one marked, signs out one and the others, and changes the password', async () => {
    // Registering signed the user in: with two more logins and the browser, four sessions.
    const user = await web.portal.createUser();
    const other = await web.portal.login(user.email, user.password);
    const third = await web.portal.login(user.email, user.password);
    const { context, page } = await openPage(web.browser);
    try {
      await signInWithPassword(page, user.email, user.password);
      await page.waitForURL(/#\/applist/);
      await open(page, '/account');
      const sessions = page.getByRole('table', { name: 'Sessions' });
      await expect.poll(() => sessions.locator('tbody tr:not(.empty-row)').count()).toBe(4);
      expect(await sessions.getByText('This session').count()).toBe(1);
      expect(await sessions.getByRole('button', { name: 'Sign out' }).count()).toBe(3);
      await looksRight(page, '67-account-sessions', 'sessions');

      await sessions.getByRole('button', { name: 'Sign out' }).first().click();
      await expect.poll(() => sessions.locator('tbody tr:not(.empty-row)').count()).toBe(3);
      await page.getByRole('button', { name: 'Sign out other sessions' }).click();
      await expect.poll(() => sessions.locator('tbody tr:not(.empty-row)').count()).toBe(1);
      for (const token of [user.token, other, third]) {
        expect(
          await web.portal
            .client(token)
            .users.me()
            .then(
              () => 'signed in',
              (error: { code?: string }) => error.code,
            ),
        ).toBe('unauthenticated');
      }

      const newPassword = 'a-new-and-long-passphrase-77';
      await page.getByLabel('Current password', { exact: true }).fill('not-my-password');
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Repeat new password').fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => alertText(page)).toContain('Your current password is wrong.');
      await page.getByLabel('Current password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => alertText(page)).toContain('Your password was changed');
      // This session goes on; the new password signs in, the old one does not.
      await open(page, '/applist');
      await expect.poll(() => page.getByRole('button', { name: user.email }).isVisible()).toBe(true);
      expect(await web.portal.login(user.email, newPassword)).toEqual(expect.any(String));
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("lets an admin reset a user's second factors with the two-step confirmation", async () => {
    const user = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await signInWithPassword(page, ADMIN_EMAIL, ADMIN_PASSWORD);
      await page.waitForURL(/#\/applist/);
      await open(page, `/user/${user.user.id}`);
      await page.getByRole('button', { name: 'Reset two-factor' }).click();
      await looksRight(page, '68-user-reset-two-factor', 'user detail, reset armed');
      await page.getByRole('button', { name: 'Really?' }).click();
      await expect.poll(() => alertText(page)).toContain('Two-factor authentication reset');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

// MFA_REQUIRED=all on a second instance over the same database: the first (without it) makes the
// user, whose password sign-in on the second gets a session restricted to setting up a factor.
describe.skipIf(!chromiumAvailable)('a session restricted by MFA_REQUIRED', () => {
  let database: TestDatabase;
  let plain: TestPortal;
  let strict: TestPortal;
  beforeAll(async () => {
    if (!chromiumAvailable) return;
    database = createTestDatabase();
    plain = await startWebPortal({}, { database });
    strict = await startWebPortal({ MFA_REQUIRED: 'all' }, { database });
  });
  afterAll(async () => {
    await strict?.close();
    await plain?.close();
    await database?.drop();
  });

  it('lands on Account and stays there until an authenticator app is set up', async () => {
    const user = await plain.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await signInAt(page, strict.url, user.email, user.password);
      await page.waitForURL(/#\/account/);
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Your account needs a second factor' }).isVisible()).toBe(true);
      await looksRight(page, '69-account-mfa-required', 'account, second factor required');
      await open(page, '/applist', strict.url);
      await page.waitForURL(/#\/account/);

      await page.getByRole('button', { name: 'Set up authenticator app' }).click();
      const secretText = page.getByTestId('totp-secret');
      await expect.poll(() => secretText.isVisible()).toBe(true);
      const totp = new TOTP({ secret: Secret.fromBase32((await secretText.innerText()).trim()), digits: 6, period: 30, algorithm: 'SHA1' });
      await page.getByLabel('Code', { exact: true }).fill(totp.generate());
      await page.getByRole('button', { name: 'Enable' }).click();
      await expect.poll(() => page.getByRole('list', { name: 'Recovery codes' }).locator('li').count()).toBe(10);
      await page.getByRole('button', { name: 'Done' }).click();
      await open(page, '/applist', strict.url);
      await page.waitForURL(/#\/applist/);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

function totpOf(secret: string) {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
}

async function signInAt(page: Page, base: string, email: string, password: string) {
  await open(page, '/login', base);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** A time zone where it is now between 11:00 and 11:59 (Etc/GMT-11 is UTC+11). */
function zoneWhereItIsEleven(): string {
  const offset = ((11 - new Date().getUTCHours() + 36) % 24) - 12;
  return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
