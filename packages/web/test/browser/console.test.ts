// The two areas (issue 27, items 1 to 5): the portal's top bar and user menu, the admin console's
// sidebar and phone menu, the launcher's tiles and keys, errors where they happen, not found and
// empty states, and deletions that say what they destroy. Every state at both widths, with axe.
import { describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  LAPTOP,
  PHONE,
  axeViolations,
  chromiumAvailable,
  createApp,
  goto,
  loginInBrowser,
  openPage,
  screenshot,
  signOut,
  useBrowserPortal,
  unique,
  type WatchedPage,
} from './support';

const web = useBrowserPortal();

async function settled(page: WatchedPage, name: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page), name).toEqual([]);
  await screenshot(page, name);
}

describe.skipIf(!chromiumAvailable)('the portal and the admin console', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    const phone = viewport === PHONE;
    it(`an admin finds the console grouped in a sidebar or the phone menu, and signs out from the user menu (${viewport.width} px)`, async () => {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await loginInBrowser(page, web.portal, ADMIN_EMAIL, ADMIN_PASSWORD);
        await page.waitForURL(/#\/applist\/?$/);
        const main = page.getByRole('navigation', { name: 'Main' });
        const toggle = main.getByRole('button', { name: 'Toggle navigation' });
        if (phone) {
          expect(await toggle.isVisible()).toBe(true);
          await toggle.click();
          await expect.poll(() => main.getByRole('link', { name: 'Clients' }).isVisible()).toBe(true);
          expect(await main.getByRole('list', { name: 'Directory' }).getByRole('link').allInnerTexts()).toEqual(['Users', 'Clients', 'Invites']);
          await settled(page, '60-menu-open');
          await page.keyboard.press('Escape');
          await expect.poll(() => main.getByRole('link', { name: 'Clients' }).isVisible()).toBe(false);
          expect(await toggle.getAttribute('aria-expanded')).toBe('false');
          await toggle.click();
          await main.getByRole('link', { name: 'Users' }).click();
          await page.waitForURL(/#\/users$/);
          await expect.poll(() => main.getByRole('link', { name: 'Clients' }).isVisible()).toBe(false);
        } else {
          expect(await toggle.isVisible()).toBe(false);
          expect(await main.getByRole('link').allInnerTexts()).toEqual(['Tools-Server', 'My apps', 'Request access', 'Admin console']);
          await main.getByRole('link', { name: 'Admin console' }).click();
          await page.waitForURL(/#\/manage\/apps$/);
          const sidebar = page.getByRole('navigation', { name: 'Admin console' });
          expect(await sidebar.getByRole('link').allInnerTexts()).toEqual([
            'Apps',
            expect.stringMatching(/^Access requests/),
            'Users',
            'Clients',
            'Invites',
            'Access Tokens',
            'Event log',
            'Help',
          ]);
          expect(await sidebar.getByRole('link', { name: 'Apps' }).getAttribute('aria-current')).toBe('page');
          await sidebar.getByRole('link', { name: 'Users' }).focus();
          await settled(page, '61-console-sidebar');
          // The launcher is no console page: no sidebar there.
          await goto(page, web.portal, '/applist');
          await expect.poll(() => page.locator('a.app-tile-link').count()).toBeGreaterThanOrEqual(0);
          expect(await page.getByRole('navigation', { name: 'Admin console' }).count()).toBe(0);
        }
        // The focus ring on the dark bar: a white outline.
        await page.keyboard.press('Tab');
        await main.getByRole('link', { name: 'Tools-Server' }).focus();
        const outline = await main.getByRole('link', { name: 'Tools-Server' }).evaluate((element) => getComputedStyle(element).outlineColor);
        expect(outline).toBe('rgb(255, 255, 255)');

        await signOut(page);
        await page.waitForURL(/#\/login$/);
        await goto(page, web.portal, '/users');
        await page.waitForURL(/#\/$|#\/login$/);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('a user has the portal only: My apps, Request access, and Account and Access Tokens under the user menu (Escape closes it)', async () => {
    const app = await createApp(web.portal.admin, { name: unique('only'), url: `${web.portal.url}/healthz?app=only` });
    const other = await createApp(web.portal.admin, { name: unique('second'), url: `${web.portal.url}/healthz?app=second` });
    const member = await web.portal.createUser({ apps: [app, other] });
    const { context, page } = await openPage(web.browser);
    try {
      await loginInBrowser(page, web.portal, member.email, member.password);
      await page.waitForURL(/#\/applist\/?$/);
      const main = page.getByRole('navigation', { name: 'Main' });
      await expect.poll(() => main.getByRole('link').allInnerTexts()).toEqual(['Tools-Server', 'My apps', 'Request access']);
      const menu = main.locator('.user-menu-toggle');
      await menu.click();
      expect(await main.getByRole('link').allInnerTexts()).toEqual(['Tools-Server', 'My apps', 'Request access', 'Account', 'Access Tokens']);
      await settled(page, '62-user-menu');
      await page.keyboard.press('Escape');
      await expect.poll(() => main.getByRole('link', { name: 'Account' }).count()).toBe(0);
      await menu.click();
      await main.getByRole('link', { name: 'Access Tokens' }).click();
      await page.waitForURL(/#\/accesstokens$/);
      expect(await page.getByRole('navigation', { name: 'Admin console' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  for (const viewport of [LAPTOP, PHONE]) {
    it(`an unknown route says Page not found with a way home (${viewport.width} px)`, async () => {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await goto(page, web.portal, '/nonexistent');
        await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
        await settled(page, '63-not-found-anonymous');
        await loginInBrowser(page, web.portal, ADMIN_EMAIL, ADMIN_PASSWORD);
        await page.waitForURL(/#\/applist\/?$/);
        await goto(page, web.portal, '/no/such/page');
        await expect.poll(() => page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
        await settled(page, '63-not-found');
        await page.getByRole('link', { name: 'Go to your apps' }).click();
        await page.waitForURL(/#\/applist$/);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
