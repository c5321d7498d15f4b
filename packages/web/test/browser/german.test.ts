// Every screen once in German (issue 32, docs/web.md, Languages): its words from the German
// catalogue, `lang="de"`, no axe violations, screenshots at laptop and phone width. No screen may
// fall back to a message id (react-intl says so on the console).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestUser } from '../../../server/test/support/support.js';
import { LAPTOP, PHONE, axeViolations, chromiumAvailable, goto, openPage, screenshot, useBrowserPortal } from './support';

const web = useBrowserPortal();

/** A page in a German browser (Accept-Language: de, navigator.languages), with react-intl's complaints collected. */
async function germanPage(viewport: typeof LAPTOP) {
  const opened = await openPage(web.browser, viewport, { locale: 'de-DE' });
  const intlErrors: string[] = [];
  opened.page.on('console', (message) => {
    if (/formatjs|MISSING_TRANSLATION|FORMAT_ERROR/i.test(message.text())) intlErrors.push(message.text());
  });
  return { ...opened, intlErrors };
}

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

async function signInGerman(page: Page, user: TestUser) {
  await goto(page, web.portal, '/login');
  await page.getByLabel('E-Mail').fill(user.email);
  await page.getByLabel('Passwort', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await page.waitForURL(/#\/applist\/?$/);
}

describe.skipIf(!chromiumAvailable)('the web portal in German', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await web.portal.createUser();
  });
  afterAll(() => undefined);

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows Anmeldung to a browser that asks for German, and a refused sign-in in German (${viewport.width} px)`, async () => {
      const { context, page, intlErrors } = await germanPage(viewport);
      try {
        await goto(page, web.portal, '/login');
        await expect.poll(() => page.getByRole('heading', { name: 'Anmeldung' }).isVisible()).toBe(true);
        expect(await htmlLang(page)).toBe('de');
        expect(await page.getByRole('link', { name: 'Passwort vergessen?' }).count()).toBeLessThanOrEqual(1);
        await page.getByLabel('E-Mail').fill(user.email);
        await page.getByLabel('Passwort', { exact: true }).fill('not the password');
        await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
        await expect.poll(() => page.getByRole('alert').filter({ hasText: 'E-Mail oder Passwort ist falsch.' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'login').toEqual([]);
        await screenshot(page, 'de-login');

        await goto(page, web.portal, '/failedlogin');
        await expect.poll(() => page.getByRole('heading', { name: 'Anmeldung fehlgeschlagen' }).isVisible()).toBe(true);
        expect(await page.getByRole('link', { name: 'Zurück zur Anmeldung' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'failed login').toEqual([]);
        await screenshot(page, 'de-failed-login');
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
