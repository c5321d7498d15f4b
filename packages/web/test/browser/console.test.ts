// The two areas (issue 27, items 1 to 5): the portal's top bar and user menu, the admin console's
// sidebar and phone menu, the launcher's tiles and keys, errors where they happen, not found and
// empty states, and deletions that say what they destroy. Every state at both widths, with axe.
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  LAPTOP,
  PHONE,
  axeViolations,
  chromiumAvailable,
  createApp,
  goto,
  openPage,
  screenshot,
  signIn,
  signOut,
  useBrowserPortal,
  unique,
  type WatchedPage,
} from './support';

const web = useBrowserPortal();

async function settled(page: WatchedPage, name: string): Promise<void> {
  await page.requestsDone();
  expect(await axeViolations(page), name).toEqual([]);
  await screenshot(page, name);
}

describe.skipIf(!chromiumAvailable)('the portal and the admin console', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    const phone = viewport === PHONE;
    it(`an admin finds the console grouped in a sidebar or the phone menu, and signs out from the user menu (${viewport.width} px)`, async () => {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        const main = page.getByRole('navigation', { name: 'Main' });
        const toggle = main.getByRole('button', { name: 'Toggle navigation' });
        if (phone) {
          await expect.poll(() => toggle.isVisible()).toBe(true);
          await toggle.click();
          await expect.poll(() => main.getByRole('link', { name: 'Clients' }).isVisible()).toBe(true);
          expect(await main.getByRole('list', { name: 'Directory' }).getByRole('link').allInnerTexts()).toEqual(['Users', 'Teams', 'Clients', 'Invites']);
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
          await expect
            .poll(() => main.getByRole('link').allInnerTexts())
            .toEqual(['Tools-Server', 'My apps', 'Request access', expect.stringMatching(/^Reviews waiting for you/), 'Admin console']);
          await main.getByRole('link', { name: 'Admin console' }).click();
          await page.waitForURL(/#\/manage\/apps$/);
          const sidebar = page.getByRole('navigation', { name: 'Admin console' });
          await expect
            .poll(() => sidebar.getByRole('link').allInnerTexts())
            .toEqual([
              'Apps',
              expect.stringMatching(/^Access requests/),
              'Reviews',
              'Users',
              'Teams',
              'Clients',
              'Invites',
              'Access Tokens',
              'Event log',
              'Webhooks',
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

        if (phone) {
          await toggle.click();
          await main.locator('.user-menu-toggle').click();
          await expect.poll(() => main.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
          await settled(page, '62-user-menu');
        }
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
      await signIn(page, web.portal, member);
      await page.waitForURL(/#\/applist\/?$/);
      const main = page.getByRole('navigation', { name: 'Main' });
      await expect.poll(() => main.getByRole('link').allInnerTexts()).toEqual(['Tools-Server', 'My apps', 'Request access']);
      const menu = main.locator('.user-menu-toggle');
      await menu.click();
      await expect.poll(() => main.getByRole('link').allInnerTexts()).toEqual(['Tools-Server', 'My apps', 'Request access', 'Account', 'Access Tokens']);
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
        await signIn(page, web.portal, ADMIN);
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

  for (const viewport of [LAPTOP, PHONE]) {
    it(`an unknown user, app or client id says so (${viewport.width} px)`, async () => {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        for (const [route, heading, back] of [
          ['/user/999999', 'No such user', 'Go to Users'],
          ['/app/999999', 'No such app', 'Go to Apps'],
          ['/client/999999', 'No such client', 'Go to Clients'],
          ['/user/abc', 'No such user', 'Go to Users'],
        ] as const) {
          await goto(page, web.portal, route);
          await expect.poll(() => page.getByRole('heading', { name: heading }).isVisible(), { message: route }).toBe(true);
          await expect.poll(() => page.getByRole('link', { name: back }).isVisible()).toBe(true);
        }
        await settled(page, '64-unknown-user');
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`a client lists its users with their apps, invites into itself, and is deleted only with its name typed (${viewport.width} px)`, async () => {
      const client = await web.portal.admin.clients.create(unique('Typed client'));
      const app = await createApp(web.portal.admin, { name: unique('client-app'), url: `${web.portal.url}/healthz?app=client-app` });
      const members = [await web.portal.createUser({ client, apps: [app] }), await web.portal.createUser({ client })];
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        await goto(page, web.portal, `/client/${client.id}`);
        const table = page.getByRole('table', { name: 'Users' });
        const first = table.getByRole('row').filter({ hasText: members[0].email });
        await expect.poll(() => first.innerText()).toContain(app.name);
        expect(await table.getByRole('row').filter({ hasText: members[1].email }).innerText()).toContain('none');
        await settled(page, '65-client-detail');
        await page.getByRole('link', { name: 'Invite to this client' }).click();
        const dialog = page.getByRole('dialog', { name: 'New Invite' });
        await expect.poll(() => dialog.isVisible()).toBe(true);
        await expect.poll(() => dialog.getByLabel('Client', { exact: true }).inputValue()).toBe(String(client.id));
        await dialog.getByRole('searchbox', { name: 'Search apps' }).fill(app.name);
        await dialog.getByRole('checkbox', { name: app.name }).check();
        await expect.poll(() => dialog.getByText('1 chosen').isVisible()).toBe(true);
        // A bad email: the form stays open and marks the field with the server's reason.
        await dialog.getByLabel('Email').fill('not an email');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await expect.poll(() => dialog.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
        expect(await dialog.locator('.invalid-feedback').innerText()).not.toBe('');
        expect(await dialog.getByRole('alert').innerText()).toMatch(/^failed to create new registration token not an email: /);
        await settled(page, '66-invite-field-error');
        await dialog.getByRole('button', { name: 'Cancel' }).click();

        await goto(page, web.portal, '/clients');
        await page.getByPlaceholder('Filter').fill(client.name);
        const row = page.getByRole('row').filter({ hasText: client.name });
        await row.getByRole('button', { name: 'Delete' }).click();
        await expect.poll(() => row.getByRole('button', { name: /^Really\?/ }).innerText()).toBe('Really? Also deletes 2 users');
        await settled(page, '67-clients-really-consequence');
        await row.getByRole('button', { name: /^Really\?/ }).click();
        const confirm = page.getByRole('dialog', { name: `Delete client ${client.name}?` });
        await expect.poll(() => confirm.isVisible()).toBe(true);
        expect(await confirm.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
        await confirm.getByRole('textbox').fill('wrong name');
        expect(await confirm.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
        await confirm.getByRole('textbox').fill(client.name);
        await settled(page, '67-clients-type-to-delete');
        await confirm.getByRole('button', { name: 'Delete' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `deleted client ${client.name}` })
              .isVisible(),
          )
          .toBe(true);
        expect((await web.portal.admin.clients.list()).some((each) => each.id === client.id)).toBe(false);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('Really? disarms by itself after 5 seconds', async () => {
    const client = await web.portal.admin.clients.create(unique('Disarm client'));
    const { context, page } = await openPage(web.browser);
    try {
      await page.clock.install();
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/clients');
      const row = page.getByRole('row').filter({ hasText: client.name });
      await expect.poll(() => row.isVisible()).toBe(true);
      // The page's clock stands still from here: only runFor moves it.
      await page.clock.pauseAt(Date.now() + 1000);
      await row.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => row.getByRole('button', { name: 'Really?' }).isVisible()).toBe(true);
      await page.clock.runFor(4000);
      await expect.poll(() => row.getByRole('button', { name: 'Really?' }).isVisible()).toBe(true);
      await page.clock.runFor(1500);
      await expect.poll(() => row.getByRole('button', { name: 'Delete' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  for (const viewport of [LAPTOP, PHONE]) {
    it(`a user's page answers an admin's questions and acts: password reset after a confirmation, End sessions, Delete (${viewport.width} px)`, async () => {
      const member = await web.portal.createUser();
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        await goto(page, web.portal, `/user/${member.user.id}`);
        const facts = page.locator('dl.user-facts');
        await expect.poll(() => facts.isVisible()).toBe(true);
        const text = await facts.innerText();
        for (const label of ['Created', 'Last sign-in', 'Second factor', 'Passkeys', 'Active sessions', 'API keys']) expect(text).toContain(label);
        expect(text).toContain('off');
        expect(await facts.locator('time').first().getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\dT/);
        await settled(page, '68-user-detail');

        await page.getByRole('button', { name: 'Send password reset' }).click();
        const confirm = page.getByRole('dialog', { name: 'Send a password reset?' });
        await expect.poll(() => confirm.isVisible()).toBe(true);
        await settled(page, '68-user-detail-confirm-reset');
        await confirm.getByRole('button', { name: 'Cancel' }).click();

        await page.getByRole('button', { name: 'End sessions' }).click();
        await expect.poll(() => page.getByRole('button', { name: /^Really\?/ }).innerText()).toBe('Really? Signs out 1 session');
        await page.getByRole('button', { name: /^Really\?/ }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `ended every session of ${member.email}` })
              .isVisible(),
          )
          .toBe(true);
        expect((await web.portal.admin.users.security(member.user.id)).sessions).toBe(0);

        await page.getByRole('button', { name: 'Delete', exact: true }).click();
        await page.getByRole('button', { name: 'Really?' }).click();
        await page.waitForURL(/#\/users$/);
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `deleted user ${member.email}` })
              .isVisible(),
          )
          .toBe(true);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`the event log reads like an audit trail: Actor, grouped types, local times, From after To refused (${viewport.width} px)`, async () => {
      const member = await web.portal.createUser();
      const expires = new Date(Date.now() + 3 * 86_400_000).toISOString();
      await member.api.accessTokens.create(
        `apikey-${unique('k')
          .replace(/[^A-Za-z0-9]/g, '')
          .padEnd(100, 'x')
          .slice(0, 100)}`,
        { expires },
      );
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        await goto(page, web.portal, '/logs');
        const filters = page.getByRole('form', { name: 'Log filters' });
        // The type filter groups the catalogue by area.
        await expect.poll(() => filters.getByLabel('Type').locator('optgroup').count()).toBeGreaterThan(5);
        expect(await filters.getByLabel('Type').locator('optgroup[label="apikey"] option').allInnerTexts()).toContain('apikey.create');
        await filters.getByLabel('User').fill(member.email);
        await filters.getByLabel('Type').selectOption('apikey.create');
        await filters.getByRole('button', { name: 'Filter' }).click();
        const table = page.getByRole('table', { name: 'Log' });
        await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
        const row = table.locator('tbody tr').first();
        if (viewport === LAPTOP) expect(await row.locator('td').nth(4).innerText()).toBe(member.email);
        else expect(await row.innerText()).toContain(member.email);
        // The expiry inside the event's text is a date, the exact time on hover.
        const when = row.locator(`time[datetime="${expires}"]`).first();
        expect(await when.getAttribute('title')).toBe(expires);
        expect(await row.innerText()).not.toContain(expires);
        // Times in the reader's locale, exact on hover.
        expect(await row.locator('time').first().getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\dT/);
        await settled(page, '69-log-actor');

        // From after To is refused at the field; nothing is fetched for it.
        await filters.getByLabel('From').fill('2026-11-20');
        await filters.getByLabel('To').fill('2026-11-10');
        await expect.poll(() => filters.getByLabel('To').getAttribute('aria-invalid')).toBe('true');
        await expect.poll(() => filters.getByText('To must be on or after From').isVisible()).toBe(true);
        expect(await filters.getByRole('button', { name: 'Filter' }).isDisabled()).toBe(true);
        await settled(page, '69-log-range-refused');
        // No count beside an empty list: "No entries." alone.
        await filters.getByLabel('To').fill('2026-11-21');
        await filters.getByLabel('From').fill('2000-01-01');
        await filters.getByLabel('To').fill('2000-01-02');
        await filters.getByRole('button', { name: 'Filter' }).click();
        await expect.poll(() => page.getByText('No entries.').isVisible()).toBe(true);
        expect(await page.getByText(/\d entries/).count()).toBe(0);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it("a form's failure stays in the form and its success replaces it; alerts leave with the screen", async () => {
    const taken = await web.portal.admin.clients.create(unique('Taken client'));
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/clients');
      await page.getByRole('button', { name: 'New Client' }).click();
      const dialog = page.getByRole('dialog', { name: 'New Client' });
      await dialog.getByPlaceholder('Enter the client name').fill(taken.name);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => dialog.getByRole('alert').innerText()).toBe(`failed to create new client ${taken.name}: a client with this name already exists`);
      expect(await dialog.getByPlaceholder('Enter the client name').getAttribute('class')).toContain('is-invalid');
      await settled(page, '72-new-client-conflict');
      const fresh = unique('Fresh client');
      await dialog.getByPlaceholder('Enter the client name').fill(fresh);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => page.getByRole('alert').allInnerTexts()).toEqual([`created new client ${fresh}`]);
      // The alert sits above the page's header, in the flow: it covers no control.
      const alertBox = (await page.getByRole('alert').boundingBox())!;
      const buttonBox = (await page.getByRole('button', { name: 'New Client' }).boundingBox())!;
      expect(alertBox.y + alertBox.height).toBeLessThanOrEqual(buttonBox.y);
      await page.getByRole('navigation', { name: 'Admin console' }).getByRole('link', { name: 'Users' }).click();
      await page.waitForURL(/#\/users$/);
      await expect.poll(() => page.getByRole('alert').count()).toBe(0);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("an app's page: Edit, and Delete App naming who loses access, then back to the console's Apps", async () => {
    const app = await createApp(web.portal.admin, { name: unique('Doomed'), url: `${web.portal.url}/healthz?app=doomed`, description: 'Soon gone' });
    await web.portal.createUser({ apps: [app] });
    const { context, page } = await openPage(web.browser, PHONE);
    try {
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, `/app/${app.id}`);
      await expect.poll(() => page.getByRole('heading', { name: app.name }).isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Edit App' }).isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await settled(page, '73-app-detail');
      await page.getByRole('button', { name: 'Delete App' }).click();
      await expect.poll(() => page.getByRole('button', { name: /^Really\?/ }).innerText()).toBe('Really? 1 user loses access');
      await page.getByRole('button', { name: /^Really\?/ }).click();
      await page.waitForURL(/#\/manage\/apps$/);
      await expect
        .poll(() =>
          page
            .getByRole('alert')
            .filter({ hasText: `deleted app ${app.name}` })
            .isVisible(),
        )
        .toBe(true);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
