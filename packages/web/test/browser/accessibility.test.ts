// Every screen and every dialog, old and new, checked by axe-core (WCAG 2.1 A/AA and best
// practices) at laptop and phone width; and every dialog keeps focus inside while open and gives
// it back to the button that opened it.
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  LAPTOP,
  PHONE,
  axeViolations,
  chromiumAvailable,
  createApp,
  focusedName,
  focusStaysInDialog,
  goto,
  openPage,
  useBrowserPortal,
  unique,
  type WatchedPage,
  signIn,
} from './support';

const web = useBrowserPortal();

/** Opens a dialog with the named button, checks it, closes it with Escape or its Cancel button. */
async function checkDialog(page: WatchedPage, opener: string, title: string, close: 'Escape' | 'Cancel' | 'Close' = 'Escape'): Promise<void> {
  const button = page.getByRole('button', { name: opener, exact: true }).first();
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: title });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  expect(await axeViolations(page), `${title} dialog`).toEqual([]);
  expect(await focusStaysInDialog(page), `focus stays in ${title}`).toBe(true);
  if (close === 'Escape') await page.keyboard.press('Escape');
  else await dialog.getByRole('button', { name: close, exact: true }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await expect.poll(() => focusedName(page), { message: `focus back on ${opener}` }).toBe(opener);
}

describe.skipIf(!chromiumAvailable)('accessibility of every screen and dialog', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    it(`admin screens and dialogs at ${viewport.width} px have no axe violation`, async () => {
      const app = await createApp(web.portal.admin, { name: unique('a11y'), url: `${web.portal.url}/healthz?app=a11y`, description: 'An app' });
      await createApp(web.portal.admin, { name: `extern:${unique('tool')}`, url: 'https://tool.example.com/' });
      const client = await web.portal.admin.clients.create(unique('a11y-client'));
      const member = await web.portal.createUser({ client, apps: [app] });
      const invite = await web.portal.admin.invites.create({ email: `${unique('inv')}@example.com`, clientid: client.id, apps: [app.id] });
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await goto(page, web.portal, '/login');
        await expect.poll(() => page.getByRole('heading', { name: 'Login' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'login').toEqual([]);
        // The checker itself works: an image without alternative text is found.
        await page.evaluate(() => document.querySelector('main')?.append(Object.assign(document.createElement('img'), { src: 'data:,', id: 'canary' })));
        expect((await axeViolations(page)).join('\n')).toContain('image-alt');
        await page.evaluate(() => document.getElementById('canary')?.remove());
        await goto(page, web.portal, `/login/%2Fauth%2F/${invite.token}`);
        await expect.poll(() => page.getByRole('heading', { name: 'Set your initial password' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'set password').toEqual([]);
        await goto(page, web.portal, '/failedlogin');
        await expect.poll(() => page.getByRole('heading', { name: 'Failed Login' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'failed login').toEqual([]);

        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        const screens: [string, string][] = [
          ['/applist', 'Tools-Server'],
          ['/manage/apps', 'Apps'],
          ['/nonexistent', 'Page not found'],
          ['/userapps', 'Your Apps'],
          ['/clients', 'Clients'],
          [`/client/${client.id}`, client.name],
          [`/app/${app.id}`, app.name],
          ['/users', 'Users'],
          [`/user/${member.user.id}`, member.email],
          ['/registrationtokens', 'Invites'],
          ['/accesstokens', 'Access Tokens'],
          ['/logs', 'The last 1000 log entries'],
          ['/docs', 'Help'],
          ['/requests', 'Request access'],
          ['/accessrequests', 'Access requests'],
          [`/denied/${encodeURIComponent(app.name)}`, 'No access'],
        ];
        for (const [route, heading] of screens) {
          await goto(page, web.portal, route);
          await expect.poll(() => page.getByRole('heading', { name: heading, exact: true }).first().isVisible(), { message: route }).toBe(true);
          await page.requestsDone();
          expect(await axeViolations(page), route).toEqual([]);
        }
        if (viewport === PHONE) return;

        await goto(page, web.portal, '/manage/apps');
        await expect.poll(() => page.getByRole('link', { name: app.name }).isVisible()).toBe(true);
        await checkDialog(page, 'New App', 'New App');
        await checkDialog(page, 'Edit', 'Edit App', 'Cancel');
        await goto(page, web.portal, '/clients');
        await checkDialog(page, 'New Client', 'New Client');
        await goto(page, web.portal, '/registrationtokens');
        await checkDialog(page, 'New Invite', 'New Invite', 'Cancel');
        await goto(page, web.portal, '/accesstokens');
        await checkDialog(page, 'New API Key', 'New API Key', 'Close');
        await goto(page, web.portal, `/user/${member.user.id}`);
        await expect.poll(() => page.getByRole('button', { name: 'Manage Apps' }).isEnabled()).toBe(true);
        await checkDialog(page, 'Manage Apps', 'Manage User Apps');
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('the registration link dialog keeps focus and ignores the backdrop and Escape', async () => {
    const client = await web.portal.admin.clients.create(unique('link-client'));
    const { context, page } = await openPage(web.browser);
    try {
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/registrationtokens');
      await page.getByRole('button', { name: 'New Invite' }).click();
      const form = page.getByRole('dialog', { name: 'New Invite' });
      await form.getByLabel('Email').fill(`${unique('link')}@example.com`);
      await expect.poll(() => form.getByLabel('Client').locator('option').allInnerTexts()).toContain(client.name);
      await form.getByLabel('Client').selectOption({ label: client.name });
      await form.getByRole('button', { name: 'Save' }).click();
      const link = page.getByRole('dialog', { name: 'Please copy the registration link' });
      await expect.poll(() => link.isVisible()).toBe(true);
      expect(await axeViolations(page), 'link dialog').toEqual([]);
      expect(await focusStaysInDialog(page)).toBe(true);
      await page.keyboard.press('Escape');
      await page.mouse.click(5, 5);
      await expect.poll(() => link.isVisible()).toBe(true);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
