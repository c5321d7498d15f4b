// Stored text comes back escaped: names, descriptions and log entries made of HTML and script
// show as the characters they are, and nothing in them runs.
import { describe, expect, it } from 'vitest';
import { ADMIN, chromiumAvailable, goto, openPage, screenshot, useBrowserPortal, signIn } from './support';

const web = useBrowserPortal();

const CLIENT = '<img src=x onerror="window.__xss=1">';
const APP = '<script>window.__xss=2</script>';
const DESCRIPTION = '<b onmouseover="window.__xss=3">bold?</b> \u202eevil\u202c שלום 😀';

describe.skipIf(!chromiumAvailable)('stored text in the portal', () => {
  it('is shown escaped on every screen that shows it, and never runs', async () => {
    const client = await web.portal.admin.clients.create(CLIENT);
    const app = await web.portal.admin.apps.create({ name: APP, url: 'https://xss.example.com/', description: DESCRIPTION });
    const user = await web.portal.createUser({ client, apps: [app] });
    const { context, page } = await openPage(web.browser);
    try {
      let dialogs = 0;
      page.on('dialog', async (dialog) => {
        dialogs++;
        await dialog.dismiss();
      });
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      for (const [route, texts] of [
        ['/applist', [APP, DESCRIPTION]],
        ['/manage/apps', [APP, DESCRIPTION]],
        ['/clients', [CLIENT]],
        [`/client/${client.id}`, [CLIENT, user.email]],
        [`/app/${app.id}`, [APP, DESCRIPTION]],
        [`/user/${user.user.id}`, [CLIENT, APP]],
        ['/logs', [`created client ${CLIENT}`, `created app ${APP}`]],
      ] as const) {
        await goto(page, web.portal, route);
        for (const text of texts) await expect.poll(() => page.getByText(text, { exact: false }).count(), { message: `${route}: ${text}` }).toBeGreaterThan(0);
        expect(await page.evaluate(() => (window as { __xss?: number }).__xss), route).toBeUndefined();
        expect(await page.locator('img[src="x"], b[onmouseover]').count(), route).toBe(0);
      }
      await screenshot(page, '40-stored-text-logs');
      expect(dialogs).toBe(0);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
