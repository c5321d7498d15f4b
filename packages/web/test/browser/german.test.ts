// Every screen once in German (issue 32, docs/web.md, Languages): its words from the German
// catalogue, `lang="de"`, no axe violations, screenshots at laptop and phone width. No screen may
// fall back to a message id (react-intl says so on the console).
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../../server/test/support/support.js';
import { LAPTOP, PHONE, axeViolations, chromiumAvailable, goto, screenshot, unique, useBrowserPortal, signIn } from './support';
import { germanPage, htmlLang, signInGerman } from './german-support';

const web = useBrowserPortal();

describe.skipIf(!chromiumAvailable)('the web portal in German', () => {
  let user: TestUser;
  const tag = unique('de').slice(-6);
  const appAt = (name: string, extra: { descriptionDe?: string; category?: string; requestable?: boolean }) =>
    web.portal.admin.apps.create({
      name,
      url: `${web.portal.url}/healthz?app=${encodeURIComponent(name)}`,
      description: `${name} in English`,
      descriptionDe: extra.descriptionDe ?? '',
      category: extra.category ?? '',
      requestable: extra.requestable ?? false,
    });
  beforeAll(async () => {
    const wiki = await appAt(`Wiki ${tag}`, { descriptionDe: 'Das Wiki des Teams', category: 'Wissen' });
    const chat = await appAt(`Chat ${tag}`, { category: 'Wissen' });
    user = await web.portal.createUser({ apps: [wiki, chat] });
  });

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows Anmeldung to a browser that asks for German, and a refused sign-in in German (${viewport.width} px)`, async () => {
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
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
        await expect.poll(() => page.getByRole('link', { name: 'Zurück zur Anmeldung' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'failed login').toEqual([]);
        await screenshot(page, 'de-failed-login');
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows the launcher and Zugriff anfragen in German, with the German descriptions (${viewport.width} px)`, async () => {
      const tresor = `Tresor ${tag} ${viewport.width}`;
      await appAt(tresor, { descriptionDe: `${tresor}: Geheimnisse, die Sie anfragen können`, requestable: true });
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await signInGerman(page, web.portal, user);
        expect(await htmlLang(page)).toBe('de');
        await expect.poll(() => page.getByLabel('Apps suchen').isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('heading', { name: 'Wissen' }).isVisible()).toBe(true);
        // The German description where there is one, the English one otherwise.
        await expect.poll(() => page.getByText('Das Wiki des Teams').isVisible()).toBe(true);
        await expect.poll(() => page.getByText(`Chat ${tag} in English`).isVisible()).toBe(true);
        expect(await page.getByRole('button', { name: `Wiki ${tag} als Favorit` }).count()).toBe(1);
        expect(await axeViolations(page), 'launcher').toEqual([]);
        await screenshot(page, 'de-launcher');

        await goto(page, web.portal, '/requests');
        await expect.poll(() => page.getByRole('heading', { name: 'Zugriff anfragen' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByText(`${tresor}: Geheimnisse, die Sie anfragen können`).isVisible()).toBe(true);
        await page.getByRole('button', { name: `Zugriff auf ${tresor} anfragen` }).click();
        await page.getByLabel('Wofür brauchen Sie den Zugriff?').fill('Für die Abrechnung');
        await page.getByRole('button', { name: 'Anfrage senden' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `Zugriff auf ${tresor} angefragt` })
              .isVisible(),
          )
          .toBe(true);
        await expect
          .poll(() => page.getByRole('table', { name: 'Ihre Anfragen' }).getByRole('row').filter({ hasText: tresor }).getByText('offen').isVisible())
          .toBe(true);
        expect(await axeViolations(page), 'requests').toEqual([]);
        await screenshot(page, 'de-requests');
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows Konto and Ihre Apps in German: second factors, password, language, sessions (${viewport.width} px)`, async () => {
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, user);
        await goto(page, web.portal, '/account');
        await expect.poll(() => page.getByRole('heading', { name: 'Konto', exact: true }).isVisible()).toBe(true);
        expect(await htmlLang(page)).toBe('de');
        for (const heading of ['Authenticator-App', 'Passkeys', 'Passwort ändern', 'Sprache', 'Sitzungen'])
          expect(await page.getByRole('heading', { name: heading, exact: true }).isVisible(), heading).toBe(true);
        await expect.poll(() => page.getByRole('button', { name: 'Authenticator-App einrichten' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByText('Diese Sitzung').isVisible()).toBe(true);
        // A refusal in German: the wrong current password.
        await page.getByLabel('Aktuelles Passwort').fill('not the password');
        await page.getByLabel('Neues Passwort', { exact: true }).fill('a new long password 123');
        await page.getByLabel('Neues Passwort wiederholen').fill('a new long password 123');
        await page.getByRole('button', { name: 'Passwort ändern' }).click();
        await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Ihr aktuelles Passwort ist falsch.' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'account').toEqual([]);
        await screenshot(page, 'de-account');

        await goto(page, web.portal, '/userapps');
        await expect.poll(() => page.getByRole('heading', { name: 'Ihre Apps' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByText('Das Wiki des Teams').isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('searchbox', { name: 'Filtern' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'your apps').toEqual([]);
        await screenshot(page, 'de-user-apps');

        await goto(page, web.portal, '/accesstokens');
        await expect.poll(() => page.getByRole('heading', { name: 'Zugriffstoken' }).isVisible()).toBe(true);
        await page.getByRole('button', { name: 'Neuer API-Schlüssel' }).click();
        const dialog = page.getByRole('dialog', { name: 'Neuer API-Schlüssel' });
        await dialog.getByRole('button', { name: 'API-Schlüssel anlegen' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: /Zugriffstoken .* angelegt/ })
              .isVisible(),
          )
          .toBe(true);
        expect(await axeViolations(page), 'access tokens').toEqual([]);
        await screenshot(page, 'de-access-tokens');
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows Passwort zurücksetzen, Kein Zugriff, Seite nicht gefunden and Ein Gerät anmelden in German (${viewport.width} px)`, async () => {
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await goto(page, web.portal, '/reset');
        await expect.poll(() => page.getByRole('heading', { name: 'Passwort zurücksetzen' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('button', { name: 'Link senden' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'reset').toEqual([]);
        await screenshot(page, 'de-reset-password');

        await signIn(page, web.portal, user);
        await goto(page, web.portal, `/denied/Tresor ${tag}`);
        await expect.poll(() => page.getByRole('heading', { name: 'Kein Zugriff' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByText(`Sie können Tresor ${tag} mit Ihrem Konto nicht nutzen.`).isVisible()).toBe(true);
        expect(await axeViolations(page), 'denied').toEqual([]);
        await screenshot(page, 'de-denied');

        await goto(page, web.portal, '/nowhere');
        await expect.poll(() => page.getByRole('heading', { name: 'Seite nicht gefunden' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('link', { name: 'Zu Ihren Apps' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'not found').toEqual([]);
        await screenshot(page, 'de-not-found');

        await goto(page, web.portal, '/device');
        await expect.poll(() => page.getByRole('heading', { name: 'Ein Gerät anmelden' }).isVisible()).toBe(true);
        await page.getByLabel('Geben Sie den Code ein, den Ihr Terminal zeigt').fill('BCDF-GHJK');
        await page.getByRole('button', { name: 'Weiter' }).click();
        await expect.poll(() => page.locator('#device-code-problem').isVisible()).toBe(true);
        expect(await axeViolations(page), 'device').toEqual([]);
        await screenshot(page, 'de-device');
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
