// What loads on demand (docs/web.md, Bundle): the German words only for German readers, English
// when they cannot be had; the console's screens when one shows, a spinner meanwhile beside the
// sidebar. Each step is held or refused at the network, so that what shows meanwhile can be seen.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { ADMIN, LAPTOP, WEB_DIST, axeViolations, chromiumAvailable, goto, openPage, useBrowserPortal, signIn } from './support';

const web = useBrowserPortal();

/** The built script that carries a text (the German catalogue: one of its words). */
function scriptWith(text: string): string {
  const assets = path.join(WEB_DIST, 'assets');
  const files = fs.readdirSync(assets).filter((file) => file.endsWith('.js') && fs.readFileSync(path.join(assets, file), 'utf8').includes(text));
  expect(files, text).toHaveLength(1);
  return files[0]!;
}

/** The scripts the page asks for, by file name. */
function scriptsRequested(page: Page): string[] {
  const files: string[] = [];
  page.on('request', (request) => {
    const file = /\/auth\/assets\/([^/?]+\.js)$/.exec(request.url())?.[1];
    if (file) files.push(file);
  });
  return files;
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

describe.skipIf(!chromiumAvailable)('what the web loads on demand', () => {
  const german = () => scriptWith('Sprache des Portals und Ihrer E-Mails');

  it("loads the German words for a German reader's first screen, and not for an English reader's", async () => {
    for (const [locale, heading] of [
      ['de-DE', 'Anmeldung'],
      ['en-US', 'Login'],
    ] as const) {
      const { context, page } = await openPage(web.browser, LAPTOP, { locale });
      try {
        const requested = scriptsRequested(page);
        await goto(page, web.portal, '/login');
        await expect.poll(() => page.getByRole('heading', { name: heading }).isVisible(), { message: locale }).toBe(true);
        expect(await htmlLang(page)).toBe(locale.slice(0, 2));
        expect(requested.includes(german()), locale).toBe(locale === 'de-DE');
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('reads English to a German reader when the German words cannot be loaded, and nothing breaks', async () => {
    const { context, page } = await openPage(web.browser, LAPTOP, { locale: 'de-DE' });
    try {
      let refused = false;
      await page.route(`**/auth/assets/${german()}`, (route) => {
        refused = true;
        return route.abort();
      });
      await goto(page, web.portal, '/login');
      await expect.poll(() => page.getByRole('heading', { name: 'Login' }).isVisible()).toBe(true);
      expect(refused).toBe(true);
      expect(await htmlLang(page)).toBe('en');
      await expect.poll(() => page.getByRole('button', { name: 'Login' }).isVisible()).toBe(true);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows a console screen's loading state beside the sidebar until its part has loaded, then the screen", async () => {
    const { context, page } = await openPage(web.browser, LAPTOP, { locale: 'en-US' });
    try {
      // The Directory part (console/directory.ts: Users, Teams, …), which an admin's browser
      // fetches after the first screen, is held until the spinner was seen.
      let held: Route | undefined;
      await page.route('**/auth/assets/directory-*.js', (route) => {
        held = route;
      });
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/users');
      await expect.poll(() => held !== undefined).toBe(true);
      const loading = page.getByRole('status').filter({ hasText: 'Loading…' });
      await expect.poll(() => loading.isVisible()).toBe(true);
      await expect.poll(() => page.getByRole('navigation', { name: 'Admin console' }).getByRole('link', { name: 'Users' }).isVisible()).toBe(true);
      expect(await page.getByRole('heading', { name: 'Users' }).count()).toBe(0);
      // The moment between two screens has no heading of its own (the screen brings its h1).
      expect(
        (await axeViolations(page)).filter((violation) => !violation.startsWith('page-has-heading-one')),
        'loading',
      ).toEqual([]);

      await held!.continue();
      await expect.poll(() => page.getByRole('heading', { name: 'Users' }).isVisible()).toBe(true);
      expect(await loading.count()).toBe(0);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('says so in the console when a part cannot be loaded, and the next screen works', async () => {
    const { context, page } = await openPage(web.browser, LAPTOP, { locale: 'en-US' });
    try {
      // The Security part (console/security.ts: Access Tokens, Event log) is refused, its prefetch too.
      let refused = false;
      await page.route('**/auth/assets/security-*.js', (route) => {
        refused = true;
        return route.abort();
      });
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/logs');
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'This page could not be loaded.' }).isVisible()).toBe(true);
      expect(refused).toBe(true);
      await expect.poll(() => page.getByRole('navigation', { name: 'Admin console' }).getByRole('link', { name: 'Users' }).isVisible()).toBe(true);

      await page.getByRole('navigation', { name: 'Admin console' }).getByRole('link', { name: 'Users' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Users' }).isVisible()).toBe(true);
      expect(await page.getByRole('alert').filter({ hasText: 'This page could not be loaded.' }).count()).toBe(0);
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
