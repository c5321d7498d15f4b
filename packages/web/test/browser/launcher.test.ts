// The launcher in a real browser: Search apps (`/` and Enter), favourites with a star, categories
// and icons; Request access with its reason dialog; an admin approving and denying; the denied
// page; New App with Category, Requestable and an icon; expiry in Manage User Apps. Every screen
// and dialog is checked by axe-core; screenshots at laptop and phone width.
import { describe, expect, it } from 'vitest';
import { PNG } from '../../../server/test/support/images.js';
import {
  ADMIN,
  LAPTOP,
  PHONE,
  axeViolations,
  chromiumAvailable,
  columnTexts,
  focusedName,
  focusStaysInDialog,
  goto,
  loginInBrowser,
  openPage,
  screenshot,
  tileNames,
  useBrowserPortal,
  unique,
  signIn,
} from './support';

const web = useBrowserPortal();

const appAt = (name: string, extra: { description?: string; category?: string; requestable?: boolean } = {}) =>
  web.portal.admin.apps.create({
    name,
    url: `${web.portal.url}/healthz?app=${encodeURIComponent(name)}`,
    description: extra.description ?? '',
    category: extra.category ?? '',
    requestable: extra.requestable ?? false,
  });

describe.skipIf(!chromiumAvailable)('the launcher', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    it(`searches, groups by category, stars favourites, shows icons (${viewport.width} px)`, async () => {
      const tag = unique('l').slice(-6);
      const payroll = await appAt(`Payroll ${tag}`, { description: 'Salaries and slips', category: 'Finance' });
      const ledger = await appAt(`Ledger ${tag}`, { category: 'Finance' });
      const wiki = await appAt(`Wiki ${tag}`, { description: 'The team wiki', category: 'Knowledge' });
      const chat = await appAt(`Chat ${tag}`);
      await appAt(`Vault ${tag}`, { description: 'Secrets you may ask for', category: 'Security', requestable: true });
      await web.portal.admin.apps.setIcon(wiki.id, new Blob([PNG]), 'image/png');
      const member = await web.portal.createUser({ apps: [payroll, ledger, wiki, chat] });
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, member);
        await page.waitForURL(/#\/applist\/?$/);
        const grid = page.getByRole('main');
        await expect.poll(() => tileNames(page)).toHaveLength(4);
        // Grouped by category (by name), the apps without one last.
        expect(await grid.locator('h2.app-section-title').allInnerTexts()).toEqual(['FINANCE', 'KNOWLEDGE', 'OTHER APPS']);
        expect(await tileNames(page)).toEqual([ledger.name, payroll.name, wiki.name, chat.name]);
        // The wiki's icon, monograms for the rest.
        expect(await grid.locator('img.app-icon').count()).toBe(1);
        expect(await grid.locator('.app-monogram').count()).toBe(3);
        await expect.poll(() => grid.locator('img.app-icon').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(16);
        await expect.poll(() => page.getByRole('main').getByRole('link', { name: 'Request access' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'app list').toEqual([]);
        await screenshot(page, '40-launcher-groups');

        // Favourites come first, with a star.
        await page.getByRole('button', { name: `Favourite ${chat.name}` }).click();
        await expect.poll(() => grid.locator('h2.app-section-title').allInnerTexts()).toEqual(['FAVOURITES', 'FINANCE', 'KNOWLEDGE']);
        expect(await page.getByRole('button', { name: `Favourite ${chat.name}` }).getAttribute('aria-pressed')).toBe('true');
        expect((await tileNames(page))[0]).toBe(chat.name);
        await page.reload();
        await expect.poll(() => grid.locator('h2.app-section-title').first().innerText()).toBe('FAVOURITES');

        // Arrow keys move between the tiles: Down from the search box to the first, Right to the next.
        await page.getByRole('searchbox', { name: 'Search apps' }).focus();
        await page.keyboard.press('ArrowDown');
        await expect.poll(() => focusedName(page)).toBe(chat.name);
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => focusedName(page)).toBe(ledger.name);
        await page.keyboard.press('ArrowDown');
        await expect.poll(() => focusedName(page)).not.toBe(ledger.name);
        await page.keyboard.press('End');
        await expect.poll(() => focusedName(page)).toBe(wiki.name);
        await page.keyboard.press('Home');
        await expect.poll(() => focusedName(page)).toBe(chat.name);

        // `/` focuses the search box, which says so; it filters by name, description and category as one types.
        expect(await page.getByRole('searchbox', { name: 'Search apps' }).getAttribute('placeholder')).toBe('Search apps  ( / )');
        await page.locator('body').click({ position: { x: 5, y: 5 } });
        await page.keyboard.press('/');
        await expect.poll(() => focusedName(page)).toBe('Search apps');
        await page.keyboard.type('finance');
        await expect.poll(async () => (await tileNames(page)).length).toBe(2);
        await page.getByRole('searchbox', { name: 'Search apps' }).fill('slips');
        await expect.poll(() => tileNames(page)).toEqual([payroll.name]);
        await screenshot(page, '41-launcher-search');
        await page.getByRole('searchbox', { name: 'Search apps' }).fill('nothing like this');
        await expect.poll(() => page.getByText('No app matches.').isVisible()).toBe(true);
        // Enter opens the single match.
        await page.getByRole('searchbox', { name: 'Search apps' }).fill(`team wiki`);
        await expect.poll(async () => (await tileNames(page)).length).toBe(1);
        await page.keyboard.press('Enter');
        await page.waitForURL(`${web.portal.url}/healthz?app=${encodeURIComponent(wiki.name)}`);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('on a touch screen, the search box does not name a key to press', async () => {
    const tag = unique('t').slice(-6);
    // Two apps: with one, the launcher goes straight to it.
    const member = await web.portal.createUser({ apps: [await appAt(`Touch ${tag}`), await appAt(`Tap ${tag}`)] });
    const { context, page } = await openPage(web.browser, PHONE, { hasTouch: true });
    try {
      await signIn(page, web.portal, member);
      const search = page.getByRole('searchbox', { name: 'Search apps' });
      await expect.poll(() => search.isVisible()).toBe(true);
      expect(await search.getAttribute('placeholder')).toBe('Search apps');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a user requests access with a reason; an admin sees the count and approves with an expiry; another is denied', async () => {
    const tag = unique('r').slice(-6);
    const vault = await appAt(`Vault ${tag}`, { description: 'Secrets', category: 'Security', requestable: true });
    const reports = await appAt(`Reports ${tag}`, { requestable: true });
    const own = await appAt(`Own ${tag}`);
    const other = await appAt(`Other ${tag}`);
    const member = await web.portal.createUser({ apps: [own, other] });
    const user = await openPage(web.browser);
    const admin = await openPage(web.browser);
    try {
      const page = user.page;
      await signIn(page, web.portal, member);
      await page.waitForURL(/#\/applist\/?$/);
      await page.getByRole('link', { name: 'Request access' }).first().click();
      await page.waitForURL(/#\/requests$/);
      const requestable = page.getByRole('table', { name: 'Requestable apps' });
      await expect.poll(() => requestable.getByRole('button', { name: `Request access to ${vault.name}` }).isVisible()).toBe(true);
      expect(await requestable.innerText()).not.toContain('healthz');
      expect(await axeViolations(page), 'requests').toEqual([]);
      await screenshot(page, '42-request-access');

      const opener = requestable.getByRole('button', { name: `Request access to ${vault.name}` });
      await opener.click();
      const dialog = page.getByRole('dialog', { name: `Request access to ${vault.name}` });
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await focusStaysInDialog(page)).toBe(true);
      expect(await axeViolations(page), 'request dialog').toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => focusedName(page)).toBe(`Request access to ${vault.name}`);
      await opener.click();
      await dialog.getByLabel('Why do you need it?').fill('I rotate the keys');
      await screenshot(page, '43-request-dialog');
      await dialog.getByRole('button', { name: 'Send request' }).click();
      await expect
        .poll(() =>
          page
            .getByRole('alert')
            .filter({ hasText: `requested access to ${vault.name}` })
            .isVisible(),
        )
        .toBe(true);
      await expect.poll(() => columnTexts(page, 'Your requests', 1)).toEqual([vault.name]);
      expect(await columnTexts(page, 'Your requests', 2)).toEqual(['open']);
      await requestable.getByRole('button', { name: `Request access to ${reports.name}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Send request' }).click();
      await expect.poll(() => columnTexts(page, 'Your requests', 1)).toEqual([reports.name, vault.name]);

      // The admin: a count beside Access requests, the open ones with user, app, reason and age.
      const adminPage = admin.page;
      await signIn(adminPage, web.portal, ADMIN);
      await adminPage.waitForURL(/#\/applist\/?$/);
      await adminPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin console' }).click();
      const nav = adminPage.getByRole('navigation', { name: 'Admin console' });
      const entry = nav.getByRole('link', { name: /^Access requests/ });
      await expect.poll(() => entry.innerText()).toMatch(/Access requests\s*\d+/);
      await entry.click();
      await adminPage.waitForURL(/#\/accessrequests$/);
      const open = adminPage.getByRole('table', { name: 'Open access requests' });
      const row = open.getByRole('row').filter({ hasText: vault.name }).filter({ hasText: member.email });
      await expect.poll(() => row.isVisible()).toBe(true);
      expect(await row.innerText()).toContain('I rotate the keys');
      expect(await row.innerText()).toContain('just now');
      expect(await axeViolations(adminPage), 'access requests').toEqual([]);
      await screenshot(adminPage, '44-access-requests');

      await row.getByRole('button', { name: /^Approve/ }).click();
      const approve = adminPage.getByRole('dialog', { name: 'Approve access' });
      await expect.poll(() => approve.isVisible()).toBe(true);
      expect(await approve.getByLabel('Access expires').locator('option').allInnerTexts()).toEqual(['no expiry', '1 day', '7 days', '30 days', 'a date']);
      await approve.getByLabel('Access expires').selectOption({ label: '7 days' });
      expect(await axeViolations(adminPage), 'approve dialog').toEqual([]);
      await screenshot(adminPage, '45-approve-dialog');
      await approve.getByRole('button', { name: 'Approve', exact: true }).click();
      await expect
        .poll(() =>
          adminPage
            .getByRole('alert')
            .filter({ hasText: `approved ${vault.name} for ${member.email}` })
            .isVisible(),
        )
        .toBe(true);
      const granted = (await web.portal.admin.users.apps(member.user.id)).find((app) => app.id === vault.id);
      expect(Date.parse(granted!.expires!) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

      const second = open.getByRole('row').filter({ hasText: reports.name }).filter({ hasText: member.email });
      await second.getByRole('button', { name: /^Deny/ }).click();
      const deny = adminPage.getByRole('dialog', { name: 'Deny access' });
      await deny.getByLabel('Reason (optional, shown to the user)').fill('Reports are for managers');
      expect(await axeViolations(adminPage), 'deny dialog').toEqual([]);
      await deny.getByRole('button', { name: 'Deny', exact: true }).click();
      await expect.poll(() => adminPage.getByRole('table', { name: 'Decided access requests' }).innerText()).toContain('Reports are for managers');
      await screenshot(adminPage, '46-access-requests-decided');

      // The user sees both decisions, and the approved app in the list.
      await page.reload();
      await expect.poll(() => columnTexts(page, 'Your requests', 2)).toEqual(['denied', 'approved']);
      expect(await page.getByRole('table', { name: 'Your requests' }).innerText()).toContain('Reports are for managers');
      await goto(page, web.portal, '/applist');
      await expect.poll(async () => (await tileNames(page)).join('|')).toContain(vault.name);
      expect(user.page.problems()).toEqual([]);
      expect(adminPage.problems()).toEqual([]);
    } finally {
      await user.context.close();
      await admin.context.close();
    }
  });

  for (const viewport of [LAPTOP, PHONE]) {
    it(`the denied page offers Request access only for a requestable app, and reveals nothing else (${viewport.width} px)`, async () => {
      const tag = unique('d').slice(-6);
      const only = await appAt(`Only ${tag}`);
      const wanted = await appAt(`Wanted ${tag}`, { requestable: true });
      const hidden = await appAt(`Hidden ${tag}`);
      // A user with one app: the app list sends them on, the denied page still reaches Request access.
      const member = await web.portal.createUser({ apps: [only] });
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await loginInBrowser(page, web.portal, member.email, member.password);
        await page.waitForURL(`${web.portal.url}/healthz?app=${encodeURIComponent(only.name)}`);
        await page.goto(`${web.portal.url}/auth/#/denied/${encodeURIComponent(wanted.name)}`);
        await expect.poll(() => page.getByRole('heading', { name: 'No access' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByText(`You cannot use ${wanted.name} with your account.`).isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('button', { name: 'Request access' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'denied').toEqual([]);
        await screenshot(page, '47-denied-requestable');
        await page.getByRole('button', { name: 'Request access' }).click();
        await page.getByRole('dialog').getByLabel('Why do you need it?').fill('For the audit');
        await page.getByRole('dialog').getByRole('button', { name: 'Send request' }).click();
        await expect.poll(() => page.getByText("You have asked for it; the app's owners or an admin will decide.").isVisible()).toBe(true);

        // Not requestable, or no such app: the same page, without the button.
        for (const name of [hidden.name, `No such app ${tag}`]) {
          await page.goto(`${web.portal.url}/auth/#/denied/${encodeURIComponent(name)}`);
          await expect.poll(() => page.getByText(`You cannot use ${name} with your account.`).isVisible()).toBe(true);
          await page.requestsDone();
          expect(await page.getByRole('button', { name: 'Request access' }).count()).toBe(0);
          expect(await page.locator('main').innerText()).not.toContain('healthz');
        }
        await screenshot(page, '48-denied-plain');
        await page.getByRole('link', { name: 'Your requests' }).click();
        await page.waitForURL(/#\/requests$/);
        await expect.poll(() => columnTexts(page, 'Your requests', 1)).toEqual([wanted.name]);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('New App takes a category, requestable and an icon with a preview; Manage User Apps an expiry', async () => {
    const name = unique('Icons');
    const member = await web.portal.createUser();
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/manage/apps');
      await page.getByRole('button', { name: 'New App' }).click();
      const dialog = page.getByRole('dialog', { name: 'New App' });
      await dialog.getByLabel('app name').fill(name);
      await dialog.getByLabel('app url').fill(`${web.portal.url}/healthz?app=icons`);
      await dialog.getByLabel('Category').fill('Design');
      await dialog.getByLabel(/^Requestable/).check();
      await dialog.getByLabel(/^Icon/).setInputFiles({ name: 'icon.png', mimeType: 'image/png', buffer: PNG });
      await expect.poll(() => dialog.getByRole('img', { name: 'Icon preview' }).isVisible()).toBe(true);
      expect(await axeViolations(page), 'new app with icon').toEqual([]);
      await screenshot(page, '49-new-app-icon');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() =>
          page
            .getByRole('alert')
            .filter({ hasText: `created new app ${name}` })
            .isVisible(),
        )
        .toBe(true);
      const app = (await web.portal.admin.apps.all()).find((each) => each.name === name)!;
      expect(app).toMatchObject({ category: 'Design', requestable: true, icon: expect.stringContaining(`/app/${app.id}/icon?v=`) });

      await goto(page, web.portal, `/user/${member.user.id}`);
      await expect.poll(() => page.getByRole('button', { name: 'Manage Apps' }).isEnabled()).toBe(true);
      await page.getByRole('button', { name: 'Manage Apps' }).click();
      const manage = page.getByRole('dialog', { name: 'Manage User Apps' });
      await manage.getByRole('checkbox', { name }).check();
      const date = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      await manage.getByLabel(`Expiry of ${name} (optional)`).fill(date);
      expect(await axeViolations(page), 'manage user apps').toEqual([]);
      await screenshot(page, '50-manage-user-apps-expiry');
      await manage.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => manage.count()).toBe(0);
      const granted = (await web.portal.admin.users.apps(member.user.id)).find((each) => each.id === app.id);
      expect(granted?.expires?.slice(0, 10)).toBe(date);
      await expect.poll(() => columnTexts(page, 'User apps', 3)).not.toEqual(['never']);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
