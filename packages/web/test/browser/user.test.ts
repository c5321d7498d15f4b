// A staff or client user in a real browser: their apps only, the one-app redirect, their API keys,
// no admin screens; a wrong password; and the screens at a phone's width.
import { describe, expect, it } from 'vitest';
import { PortalClient } from '@tools-portal/core';
import {
  ADMIN,
  PHONE,
  chromiumAvailable,
  columnTexts,
  createApp,
  goto,
  loginInBrowser,
  openPage,
  screenshot,
  tileNames,
  startWebPortal,
  useBrowserPortal,
  signIn,
} from './support';

const web = useBrowserPortal();

describe.skipIf(!chromiumAvailable)('the portal for a user', () => {
  it('shows a user with two apps only those apps, on Apps and Your Apps, and no admin screens', async () => {
    const [crm, wiki] = await Promise.all([
      createApp(web.portal.admin, { name: 'crm', url: `${web.portal.url}/healthz?app=crm`, description: 'Customers' }),
      createApp(web.portal.admin, { name: 'wiki', url: `${web.portal.url}/healthz?app=wiki` }),
      createApp(web.portal.admin, { name: 'secret', url: `${web.portal.url}/healthz?app=secret` }),
    ]);
    const member = await web.portal.createUser({ apps: [crm, wiki] });
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, web.portal, member);
      await page.waitForURL(/#\/applist\/?$/);
      await expect.poll(() => tileNames(page)).toEqual(['crm', 'wiki']);
      expect(await page.getByRole('button', { name: 'New App' }).count()).toBe(0);
      expect(await page.getByRole('group', { name: 'prod or dev apps' }).count()).toBe(0);
      expect(await page.getByText('Other Tools').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
      const nav = page.getByRole('navigation', { name: 'Main' });
      // The portal only: Your Apps stays at its route but is no second launcher in the navigation.
      expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Tools-Server', 'My apps', 'Request access']);
      expect(await nav.locator('.user-menu-toggle').innerText()).toBe(member.email);
      await screenshot(page, '20-user-applist');

      await goto(page, web.portal, '/userapps');
      await expect.poll(() => columnTexts(page, 'Your Apps', 1)).toEqual(['crm', 'wiki']);
      expect(await page.getByRole('link', { name: 'crm' }).getAttribute('href')).toBe('/crm');
      await page.getByRole('button', { name: /App Name/ }).click();
      await expect.poll(() => columnTexts(page, 'Your Apps', 1)).toEqual(['wiki', 'crm']);
      await page.getByPlaceholder('Filter').fill('cust');
      await expect.poll(() => columnTexts(page, 'Your Apps', 1)).toEqual(['crm']);
      await screenshot(page, '21-user-your-apps');

      // Admin screens are not reachable: the portal sends the user back to their apps.
      for (const route of ['/clients', '/users', '/registrationtokens', '/logs', `/app/${crm.id}`, `/user/${member.user.id}`]) {
        await goto(page, web.portal, route);
        await page.waitForURL(/#\/applist$/);
      }
      await goto(page, web.portal, '/docs');
      await expect.poll(() => page.getByText('This help page is for admins.').isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: 'Help' }).count()).toBe(0);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('creates an API key in the browser, shows it once, lists it masked, and deletes it', async () => {
    const member = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, web.portal, member);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/accesstokens');
      await page.getByRole('button', { name: 'New API Key' }).click();
      const dialog = page.getByRole('dialog', { name: 'New API Key' });
      const key = await dialog.getByLabel('New API key').inputValue();
      expect(key).toMatch(/^apikey-[A-Za-z0-9]{100}$/);
      await screenshot(page, '22-new-api-key');
      await dialog.getByRole('button', { name: 'Create API Key' }).click();
      const masked = `apikey-${key.slice(7, 11)}…${key.slice(-4)}`;
      await expect
        .poll(() =>
          page
            .getByRole('alert')
            .filter({ hasText: `created new access token ${masked}` })
            .isVisible(),
        )
        .toBe(true);
      await expect.poll(() => columnTexts(page, 'Access Tokens', 1)).toEqual([masked]);
      expect(await page.getByText(key).count()).toBe(0);
      await screenshot(page, '23-access-tokens');

      // The key works as a Bearer token, until it is deleted.
      const withKey = new PortalClient({ baseUrl: web.portal.url, token: key });
      expect((await withKey.users.me()).email).toBe(member.email);
      // Its last use shows once the list is loaded again.
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.getByRole('table', { name: 'Access Tokens' }).locator('tbody tr').first().waitFor();
            return columnTexts(page, 'Access Tokens', 4);
          },
          { interval: 500, timeout: 10_000 },
        )
        .not.toEqual(['never used']);

      const row = page.getByRole('row').filter({ hasText: masked });
      await row.getByRole('button', { name: 'Delete' }).click();
      await row.getByRole('button', { name: 'Really?' }).click();
      await expect
        .poll(() =>
          page
            .getByRole('alert')
            .filter({ hasText: `deleted access token ${masked}` })
            .isVisible(),
        )
        .toBe(true);
      await expect.poll(() => columnTexts(page, 'Access Tokens', 1)).toEqual([]);
      await expect(withKey.users.me()).rejects.toMatchObject({ code: 'unauthenticated' });
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('creates a named key that expires, lists its name, expiry and last use, and marks an expired key', async () => {
    const member = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, web.portal, member);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/accesstokens');
      await page.getByRole('button', { name: 'New API Key' }).click();
      const dialog = page.getByRole('dialog', { name: 'New API Key' });
      const key = await dialog.getByLabel('New API key').inputValue();
      await dialog.getByLabel('Name (optional)').fill('deploy bot');
      await dialog.getByLabel('Key expires').selectOption('7');
      await screenshot(page, '22-new-api-key-named');
      const before = Date.now();
      await dialog.getByRole('button', { name: 'Create API Key' }).click();
      const masked = `apikey-${key.slice(7, 11)}…${key.slice(-4)}`;
      await expect
        .poll(() =>
          page
            .getByRole('alert')
            .filter({ hasText: `created new access token ${masked}` })
            .isVisible(),
        )
        .toBe(true);
      await expect.poll(() => columnTexts(page, 'Access Tokens', 2)).toEqual(['deploy bot']);
      const [stored] = await member.api.accessTokens.list();
      expect(stored).toMatchObject({ name: 'deploy bot' });
      expect(Date.parse(stored.expiresTimestamp!) - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1000);
      expect(Date.parse(stored.expiresTimestamp!) - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
      const shown = await page.evaluate(
        (iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
        stored.expiresTimestamp!,
      );
      expect(await columnTexts(page, 'Access Tokens', 3)).toEqual([shown]);
      expect(await columnTexts(page, 'Access Tokens', 4)).toEqual(['never used']);

      // A key without name or expiry, beside it; then the first one expires and says so.
      await page.getByRole('button', { name: 'New API Key' }).click();
      await dialog.getByRole('button', { name: 'Create API Key' }).click();
      await expect.poll(async () => (await columnTexts(page, 'Access Tokens', 3)).sort()).toEqual(['never', shown].sort());
      await web.portal.deps
        .db('api_keys')
        .where({ id: stored.id })
        .update({ expires_at: Date.now() - 1000 });
      await expect(new PortalClient({ baseUrl: web.portal.url, token: key }).users.me()).rejects.toMatchObject({ code: 'unauthenticated' });
      await page.reload();
      const row = page.getByRole('row').filter({ hasText: 'deploy bot' });
      await expect.poll(() => row.getByText('expired').isVisible()).toBe(true);
      await screenshot(page, '23-access-tokens-named');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('sends a user with exactly one app straight to its URL', async () => {
    const only = await createApp(web.portal.admin, { name: 'only-one', url: `${web.portal.url}/healthz?app=only-one` });
    const member = await web.portal.createUser({ apps: [only] });
    const { context, page } = await openPage(web.browser);
    try {
      await loginInBrowser(page, web.portal, member.email, member.password);
      await page.waitForURL(`${web.portal.url}/healthz?app=only-one`);
      expect(await page.textContent('body')).toContain('"status":"ok"');
    } finally {
      await context.close();
    }
  });

  it('keeps a wrong password on the login form (Wrong email or password.); Failed Login stays for refusals', async () => {
    const member = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await loginInBrowser(page, web.portal, member.email, 'not-the-password');
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Wrong email or password.' }).isVisible()).toBe(true);
      expect(page.url()).toMatch(/#\/login$/);
      expect(await page.getByLabel('Email').inputValue()).toBe(member.email);
      await goto(page, web.portal, '/failedlogin');
      await expect.poll(() => page.getByRole('heading', { name: 'Failed Login' }).isVisible()).toBe(true);
      await expect.poll(() => page.getByText('You are not allowed to login.').isVisible()).toBe(true);
      await screenshot(page, '24-failed-login');
    } finally {
      await context.close();
    }
  });

  it("shows the server's reason when it refuses a new password, and says so for a bad invite", async () => {
    const client = await web.portal.admin.clients.create(`Refused ${Date.now()}`);
    const email = `refused-${Date.now()}@example.com`;
    const invite = await web.portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    for (const viewport of [undefined, PHONE]) {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await goto(page, web.portal, `/login/%2Fauth%2F%23%2Fapplist%2F/${invite.token}`);
        await page.getByLabel('Password', { exact: true }).fill('Summer2024');
        await page.getByLabel('Repeat Password').fill('Summer2024');
        await page.getByRole('button', { name: 'Save Password' }).click();
        const alert = page.locator('.alert-danger').filter({ hasText: 'This password is a common one with digits or symbols added; please choose another.' });
        await expect.poll(() => alert.isVisible()).toBe(true);
        expect(page.url()).not.toMatch(/failedlogin/);
        await expect.poll(() => page.getByRole('heading', { name: 'Set your initial password' }).isVisible()).toBe(true);
        await screenshot(page, '26-set-password-refused');
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    }
    const { context, page } = await openPage(web.browser);
    try {
      await goto(page, web.portal, '/login/%2Fauth%2F/no-such-token');
      await expect.poll(() => page.getByRole('heading', { name: 'This invitation link is not valid' }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Save Password' }).count()).toBe(0);

      await goto(page, web.portal, `/login/%2Fauth%2F%23%2Fapplist%2F/${invite.token}`);
      await page.getByLabel('Password', { exact: true }).fill('velvet orbit canyon');
      await page.getByLabel('Repeat Password').fill('velvet orbit canyon');
      await page.getByRole('button', { name: 'Save Password' }).click();
      await page.waitForURL(/#\/applist\/?$/);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('closes an alert after 10 seconds, or at once with its close button', async () => {
    const client = await web.portal.admin.clients.create(`Alerts ${Date.now()}`);
    const invite = await web.portal.admin.invites.create({ email: `alerts-${Date.now()}@example.com`, clientid: client.id, apps: [] });
    const { context, page } = await openPage(web.browser);
    try {
      await page.clock.install();
      await goto(page, web.portal, `/login/%2Fauth%2F/${invite.token}`);
      await page.getByLabel('Password', { exact: true }).fill('one-password');
      await page.getByLabel('Repeat Password').fill('other-password');
      await page.getByRole('button', { name: 'Save Password' }).click();
      const alert = page.getByRole('alert').filter({ hasText: "Your passwords don't match!" });
      await expect.poll(() => alert.isVisible()).toBe(true);
      await page.clock.fastForward(9_000);
      await expect.poll(() => alert.isVisible()).toBe(true);
      await page.clock.fastForward(1_500);
      await expect.poll(() => alert.count()).toBe(0);

      await page.getByRole('button', { name: 'Save Password' }).click();
      await expect.poll(() => alert.isVisible()).toBe(true);
      await alert.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => alert.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('takes a user whose session ended meanwhile back to the login', async () => {
    const member = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, web.portal, member);
      await page.waitForURL(/#\/applist\/?$/);
      await expect.poll(() => page.locator('.user-menu-toggle').isVisible()).toBe(true);
      // The launcher's own calls done first: else one still under way meets the ended session and
      // takes the page to the login before the click (seen on a loaded CI machine).
      await page.requestsDone();
      await web.portal.admin.users.delete(member.user.id);
      await page.getByRole('navigation', { name: 'Main' }).locator('.user-menu-toggle').click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Access Tokens' }).click();
      await page.waitForURL(/#\/login$/);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a phone: collapsed navigation that opens, and the admin screens', async () => {
    const { context, page } = await openPage(web.browser, PHONE);
    try {
      await goto(page, web.portal, '/login');
      await expect.poll(() => page.getByRole('heading', { name: 'Login' }).isVisible()).toBe(true);
      await screenshot(page, '01-login');
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect.poll(() => nav.getByRole('button', { name: 'Toggle navigation' }).isVisible()).toBe(true);
      expect(await nav.getByRole('link', { name: 'Clients' }).isVisible()).toBe(false);
      await screenshot(page, '05-applist-prod');
      await nav.getByRole('button', { name: 'Toggle navigation' }).click();
      await expect.poll(() => nav.getByRole('link', { name: 'Clients' }).isVisible()).toBe(true);
      await screenshot(page, '30-navigation-open');
      await nav.getByRole('link', { name: 'Clients' }).click();
      await page.waitForURL(/#\/clients$/);
      // Following a link folds the navigation again (a collapse transition, not at once).
      await expect.poll(() => nav.getByRole('link', { name: 'Users' }).isVisible()).toBe(false);
      await expect.poll(async () => (await columnTexts(page, 'Clients', 1)).length).toBeGreaterThan(0);
      await screenshot(page, '02-clients');
      await page.getByRole('button', { name: 'New Client' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'New Client' }).isVisible()).toBe(true);
      await screenshot(page, '03-clients-new-client');
      await page.getByRole('dialog', { name: 'New Client' }).getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      for (const [route, name, table] of [
        ['/users', '13-users', 'Users'],
        ['/registrationtokens', '06-invites', 'Invites'],
        ['/logs', '14-logs', 'Log'],
        ['/accesstokens', '23-access-tokens', 'Access Tokens'],
      ] as const) {
        await goto(page, web.portal, route);
        await expect.poll(() => page.getByRole('table', { name: table }).isVisible()).toBe(true);
        await screenshot(page, name);
      }
      await goto(page, web.portal, '/docs');
      await expect.poll(() => page.getByRole('heading', { name: 'Help' }).isVisible()).toBe(true);
      await screenshot(page, '15-docs');
      // No horizontal scrolling of the page itself at a phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!chromiumAvailable)('Google sign-in on the login screen', () => {
  it('is offered only when the server has Google configured, as a link carrying redirect and token', async () => {
    const { context, page } = await openPage(web.browser);
    const google = await startWebPortal({ GOOGLE_CLIENT_ID: 'test-client', GOOGLE_CLIENT_SECRET: 'test-secret', OIDC_ISSUER: 'http://127.0.0.1:9/' });
    try {
      // Without Google (the other portal of this file): no link.
      await goto(page, web.portal, '/login');
      await expect.poll(() => page.getByRole('heading', { name: 'Login' }).isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Login with Google' }).count()).toBe(0);

      await goto(page, google, '/login');
      const link = page.getByRole('link', { name: 'Login with Google' });
      await expect.poll(() => link.getAttribute('href')).toBe('/auth/google?redirect=%2Fauth%2F%23%2Fapplist%2F');
      await screenshot(page, '25-login-with-google');
      const client = await google.admin.clients.create(`Google ${Date.now()}`);
      const invite = await google.admin.invites.create({ email: `google-${Date.now()}@example.com`, clientid: client.id, apps: [] });
      await goto(page, google, `/login/%2Fauth%2F%23%2Fusers/${invite.token}`);
      await expect.poll(() => page.getByRole('heading', { name: 'Set your initial password' }).isVisible()).toBe(true);
      expect(await link.getAttribute('href')).toBe(`/auth/google?redirect=%2Fauth%2F%23%2Fusers&token=${invite.token}`);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
      await google.close();
    }
  });
});
