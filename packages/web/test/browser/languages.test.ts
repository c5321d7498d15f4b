// The web's language (issue 32, docs/web.md): the choice on Account, else the browser's list, else
// DEFAULT_LANGUAGE (this portal's is de), shown in `lang` on <html>; the Account control in both
// languages, with axe and screenshots at laptop and phone width.
import { describe, expect, it } from 'vitest';
import { LAPTOP, PHONE, axeViolations, chromiumAvailable, goto, openPage, screenshot, useBrowserPortal, signIn } from './support';

const web = useBrowserPortal({ env: { DEFAULT_LANGUAGE: 'de' } });

const htmlLang = (page: { evaluate: <T>(fn: () => T) => Promise<T> }) => page.evaluate(() => document.documentElement.lang);

describe.skipIf(!chromiumAvailable)('the language of the web portal', () => {
  it('follows the browser: de-AT reads German, en-US English, fr-FR the portal default', async () => {
    for (const [locale, expected] of [
      ['de-AT', 'de'],
      ['en-US', 'en'],
      ['fr-FR', 'de'],
    ] as const) {
      const { context, page } = await openPage(web.browser, LAPTOP, { locale });
      try {
        await goto(page, web.portal, '/login');
        await expect.poll(() => page.getByRole('heading', { name: expected === 'de' ? 'Anmeldung' : 'Login' }).isVisible()).toBe(true);
        await expect.poll(() => htmlLang(page), { message: locale }).toBe(expected);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  for (const viewport of [LAPTOP, PHONE]) {
    it(`is chosen on Account, kept across visits, and given back to the browser (${viewport.width} px)`, async () => {
      const { api, email, password } = await web.portal.createUser();
      const { context, page } = await openPage(web.browser, viewport, { locale: 'en-US' });
      try {
        await signIn(page, web.portal, { email, password });
        await page.waitForURL(/#\/applist\/?$/);
        await goto(page, web.portal, '/account');
        const choice = page.getByLabel('Language of the portal and of mail to you');
        await expect.poll(() => choice.isVisible()).toBe(true);
        expect(await htmlLang(page)).toBe('en');
        expect(await choice.locator('option').allInnerTexts()).toEqual(["Your browser's (English)", 'English', 'German']);
        expect(await axeViolations(page), 'account in English').toEqual([]);

        await choice.selectOption('de');
        await expect.poll(() => htmlLang(page)).toBe('de');
        const auswahl = page.getByLabel('Sprache des Portals und Ihrer E-Mails');
        await expect.poll(() => auswahl.isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('heading', { name: 'Sprache' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('status').filter({ hasText: 'Das Portal spricht jetzt Deutsch.' }).isVisible()).toBe(true);
        expect(await auswahl.locator('option').allInnerTexts()).toEqual(['Wie Ihr Browser (Englisch)', 'Englisch', 'Deutsch']);
        expect((await api.users.me()).language).toBe('de');
        expect(await axeViolations(page), 'account in German').toEqual([]);
        await page.getByRole('heading', { name: 'Sprache' }).scrollIntoViewIfNeeded();
        await screenshot(page, 'account-language-de');

        await page.reload();
        await expect.poll(() => htmlLang(page)).toBe('de');
        await expect.poll(() => auswahl.inputValue()).toBe('de');

        await auswahl.selectOption('browser');
        await expect.poll(() => htmlLang(page)).toBe('en');
        await expect.poll(() => choice.inputValue()).toBe('browser');
        expect((await api.users.me()).language).toBeNull();
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
