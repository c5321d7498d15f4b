// What the German browser tests share (docs/web.md, Languages): a page in a German browser with
// react-intl's complaints collected, the page's `lang`, and a sign-in on the German login screen.
import type { Browser, Page } from 'playwright-core';
import type { TestPortal } from '../../../server/test/support/support.js';
import { LAPTOP, goto, openPage } from './support';

/** A page in a German browser (Accept-Language: de, navigator.languages), with react-intl's complaints collected. */
export async function germanPage(browser: Browser, viewport: typeof LAPTOP) {
  const opened = await openPage(browser, viewport, { locale: 'de-DE' });
  const intlErrors: string[] = [];
  opened.page.on('console', (message) => {
    if (/formatjs|MISSING_TRANSLATION|FORMAT_ERROR/i.test(message.text())) intlErrors.push(message.text());
  });
  return { ...opened, intlErrors };
}

export const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** Signs in on the German login screen and waits for the launcher. */
export async function signInGerman(page: Page, portal: TestPortal, { email, password }: { email: string; password: string }) {
  await goto(page, portal, '/login');
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Passwort', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await page.waitForURL(/#\/applist\/?$/);
}
