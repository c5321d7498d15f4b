// The console's app screens in German (issue 32, docs/web.md, Languages): Apps, an app's page with
// Add User, its access and OpenID Connect sections, Access requests, Reviews and a review, Reviews
// waiting, and the password rules of the set-password screen. Each from a German browser, with its
// words from the German catalogue, `lang="de"`, no axe violations, no react-intl complaint on the
// console, and screenshots at laptop and phone width.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ADMIN,
  ADMIN_EMAIL,
  LAPTOP,
  PHONE,
  axeViolations,
  chromiumAvailable,
  expectTermsShown,
  goto,
  screenshot,
  unique,
  useBrowserPortal,
  signIn,
} from './support';
import { germanPage, htmlLang } from './german-support';

const web = useBrowserPortal();

const shown = (page: Page, locator: ReturnType<Page['getByText']>) => expect.poll(() => locator.isVisible()).toBe(true);
const alertSays = (page: Page, text: string | RegExp) => shown(page, page.getByRole('alert').filter({ hasText: text }));

describe.skipIf(!chromiumAvailable)('the console’s app screens in German', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows Apps and an app's page in German: Add User with the expiry choice, Zugriff, OpenID Connect (${viewport.width} px)`, async () => {
      const name = unique(`wiki-${viewport.width}`);
      const app = await web.portal.admin.apps.create({
        name,
        url: 'https://wiki.example.com/',
        description: 'The team wiki',
        descriptionDe: 'Das Wiki des Teams',
        requestable: true,
        roles: ['viewer', 'editor'],
      });
      const [ann, bob] = await Promise.all([web.portal.createUser({ apps: [app] }), web.portal.createUser()]);
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await goto(page, web.portal, '/manage/apps');
        await shown(page, page.getByRole('heading', { name: 'Apps', level: 1 }));
        expect(await htmlLang(page)).toBe('de');
        await shown(page, page.getByRole('button', { name: 'Neue App' }));
        await page.getByRole('searchbox', { name: 'Filtern' }).fill(name);
        const row = page.getByRole('row').filter({ hasText: name });
        await shown(page, row.getByText('Das Wiki des Teams'));
        await shown(page, row.getByRole('button', { name: 'Bearbeiten' }));
        // Delete App arms with what it takes along, in German.
        await row.getByRole('button', { name: 'App löschen' }).click();
        await shown(page, row.getByRole('button', { name: 'Wirklich? 1 Benutzer verliert den Zugriff' }));
        expect(await axeViolations(page), 'apps').toEqual([]);
        await screenshot(page, 'de-manage-apps');
        await page.getByRole('columnheader', { name: 'App-Name' }).click();
        await page.getByRole('searchbox', { name: 'Filtern' }).fill('nothing matches this');
        await shown(page, page.getByText('Keine App passt.'));

        await goto(page, web.portal, `/app/${app.id}`);
        await shown(page, page.getByRole('heading', { name, level: 1 }));
        // The lead is the German description for a German reader.
        await shown(page, page.locator('.page-header').getByText('Das Wiki des Teams'));
        await expectTermsShown(page, ['Beschreibung', 'Beschreibung auf Deutsch', 'Kategorie', 'Anfragbar']);
        await shown(page, page.getByText('ja: Benutzer können den Zugriff anfragen'));
        await shown(page, page.getByRole('heading', { name: 'Benutzer', level: 2 }));
        const users = page.getByRole('table', { name: 'Benutzer der App' });
        await shown(page, users.getByRole('button', { name: 'Zugriff entziehen' }));
        await shown(page, users.getByText('nie'));
        await shown(page, page.getByRole('heading', { name: 'Zugriff', level: 2 }));
        await shown(page, page.getByText('Alle, die die App nutzen dürfen, direkt oder über ein Team. Rollen: viewer, editor.'));
        await shown(page, page.getByRole('table', { name: 'Zugriff auf die App' }).getByText('direkt'));
        await shown(page, page.getByRole('heading', { name: 'OpenID Connect', level: 2 }));
        await shown(page, page.getByRole('button', { name: 'Einschalten' }));
        expect(await axeViolations(page), 'app page').toEqual([]);
        await screenshot(page, 'de-app-detail');

        // Add User: the picker, the expiry choice in German, a date.
        await page.getByRole('button', { name: 'Benutzer hinzufügen' }).click();
        const dialog = page.getByRole('dialog', { name: 'Benutzer hinzufügen' });
        await shown(page, dialog.getByText(`Wer ${name} nutzen darf: Wählen Sie einen oder mehrere Benutzer.`));
        await dialog.getByRole('searchbox', { name: 'Benutzer suchen' }).fill(bob.email);
        await dialog.getByRole('checkbox', { name: bob.email }).check();
        const expiry = dialog.getByRole('combobox', { name: 'Zugriff endet' });
        expect(await expiry.locator('option').allInnerTexts()).toEqual(['kein Ablauf', '1 Tag', '7 Tage', '30 Tage', 'ein Datum']);
        await expiry.selectOption({ label: 'ein Datum' });
        await shown(page, dialog.getByLabel('Zugriff endet: Datum'));
        await expiry.selectOption({ label: '7 Tage' });
        expect(await axeViolations(page), 'add user').toEqual([]);
        await screenshot(page, 'de-app-add-user');
        await dialog.getByRole('button', { name: 'Hinzufügen', exact: true }).click();
        await alertSays(page, `${bob.email} zu ${name} hinzugefügt`);
        await shown(page, users.getByText(bob.email));

        // OpenID Connect: on, the secret shown once with its Copy button, then the client's facts.
        await page.getByLabel('Redirect-URIs (eine pro Zeile)').fill('https://wiki.example.com/callback');
        await page.getByRole('button', { name: 'Einschalten' }).click();
        await alertSays(page, `OpenID Connect für App ${name} eingeschaltet`);
        await shown(page, page.getByText('Client-Secret: Kopieren Sie es jetzt, es wird nur dieses eine Mal angezeigt.'));
        await shown(page, page.getByRole('textbox', { name: 'Client-ID' }));
        expect(await page.getByRole('button', { name: 'Kopieren' }).count()).toBe(3);
        await shown(page, page.getByText('vertraulich (mit Client-Secret), ID-Token RS256'));
        await shown(page, page.getByRole('button', { name: 'Neues Secret' }));
        await shown(page, page.getByRole('button', { name: 'Ausschalten' }));
        expect(await axeViolations(page), 'OpenID Connect').toEqual([]);
        await screenshot(page, 'de-app-oidc');

        // The access the new user got, and an unknown app.
        await shown(page, page.getByRole('table', { name: 'Zugriff auf die App' }).getByText(ann.email));
        await goto(page, web.portal, '/app/999999');
        await shown(page, page.getByRole('heading', { name: 'App nicht gefunden' }));
        await shown(page, page.getByRole('link', { name: 'Zu den Apps' }));
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows Zugriffsanfragen in German: approve with an expiry, deny with a reason (${viewport.width} px)`, async () => {
      const [vault, board] = await Promise.all(
        ['vault', 'board'].map((prefix) =>
          web.portal.admin.apps.create({ name: unique(`${prefix}-${viewport.width}`), url: 'https://tools.example.com/', requestable: true }),
        ),
      );
      const asker = await web.portal.createUser();
      await asker.api.accessRequests.create({ appid: vault.id, reason: 'Für die Abrechnung' });
      await asker.api.accessRequests.create({ appid: board.id, reason: 'Für die Planung' });
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await goto(page, web.portal, '/accessrequests');
        await shown(page, page.getByRole('heading', { name: 'Zugriffsanfragen', level: 1 }));
        expect(await htmlLang(page)).toBe('de');
        const open = page.getByRole('table', { name: 'Offene Zugriffsanfragen' });
        await shown(page, open.getByText('Für die Abrechnung'));
        for (const header of ['Benutzer', 'App', 'Begründung', 'Alter']) await shown(page, open.getByRole('columnheader', { name: header, exact: true }));
        expect(await axeViolations(page), 'access requests').toEqual([]);
        await screenshot(page, 'de-access-requests');

        await page.getByRole('button', { name: `${vault.name} für ${asker.email} genehmigen` }).click();
        const approve = page.getByRole('dialog', { name: 'Zugriff genehmigen' });
        await shown(page, approve.getByText(`${asker.email} erhält Zugriff auf ${vault.name}.`));
        await approve.getByRole('combobox', { name: 'Zugriff läuft ab' }).selectOption({ label: '30 Tage' });
        expect(await axeViolations(page), 'approve dialog').toEqual([]);
        await screenshot(page, 'de-access-requests-approve');
        await approve.getByRole('button', { name: 'Genehmigen' }).click();
        await alertSays(page, `${vault.name} für ${asker.email} genehmigt`);

        await page.getByRole('button', { name: `${board.name} für ${asker.email} ablehnen` }).click();
        const deny = page.getByRole('dialog', { name: 'Zugriff ablehnen' });
        await shown(page, deny.getByText(`Zugriff auf ${board.name} für ${asker.email} ablehnen.`));
        await deny.getByLabel('Begründung (optional, der Benutzer sieht sie)').fill('Nicht im Budget');
        await deny.getByRole('button', { name: 'Ablehnen' }).click();
        await alertSays(page, `${board.name} für ${asker.email} abgelehnt`);

        const decided = page.getByRole('table', { name: 'Entschiedene Zugriffsanfragen' });
        await shown(page, decided.getByRole('row').filter({ hasText: vault.name }).getByText('genehmigt'));
        await shown(page, decided.getByRole('row').filter({ hasText: board.name }).getByText('abgelehnt'));
        await shown(page, page.getByRole('heading', { name: 'Entschieden', level: 2 }));
        expect(await axeViolations(page), 'decided').toEqual([]);
        await screenshot(page, 'de-access-requests-decided');
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows Zugriffsüberprüfungen, a review and the reviews waiting in German (${viewport.width} px)`, async () => {
      const owner = await web.portal.createUser();
      const app = await web.portal.admin.apps.create({
        name: unique(`crm-${viewport.width}`),
        url: 'https://crm.example.com/',
        owners: { users: [owner.user.id], teams: [] },
      });
      const [ann, bob] = await Promise.all([web.portal.createUser(), web.portal.createUser()]);
      await web.portal.admin.users.grant(ann.user.id, app.id);
      await web.portal.admin.users.grant(bob.user.id, app.id);
      const name = unique('Q4');
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await goto(page, web.portal, '/reviews');
        await shown(page, page.getByRole('heading', { name: 'Zugriffsüberprüfungen', level: 1 }));
        expect(await htmlLang(page)).toBe('de');
        await page.getByRole('button', { name: 'Überprüfung starten' }).click();
        const dialog = page.getByRole('dialog', { name: 'Überprüfung starten' });
        await dialog.getByLabel('Name der Überprüfung').fill(name);
        await dialog.getByLabel(app.name).check();
        expect(await dialog.getByLabel('Entschieden von').locator('option').allInnerTexts()).toEqual(['Den Verantwortlichen jeder App', 'Administratoren']);
        expect(await dialog.getByLabel('Unentschiedene Berechtigungen').locator('option').allInnerTexts()).toEqual(['Behalten', 'Entfernen']);
        expect(await axeViolations(page), 'start review').toEqual([]);
        await screenshot(page, 'de-reviews-start');
        await dialog.getByRole('button', { name: 'Speichern' }).click();
        await alertSays(page, `Überprüfung ${name} gestartet`);
        await shown(page, page.getByRole('progressbar', { name: `${name}: 0 von 2 entschieden` }));
        // The Status column shows from tablet width up.
        if (viewport === LAPTOP) await shown(page, page.getByRole('row').filter({ hasText: name }).getByText('Offen'));
        expect(await axeViolations(page), 'reviews').toEqual([]);
        await screenshot(page, 'de-reviews');

        // The owner first: the review waits for them.
        const ownerPage = await germanPage(web.browser, viewport);
        try {
          await signIn(ownerPage.page, web.portal, owner);
          await goto(ownerPage.page, web.portal, '/myreviews');
          await shown(ownerPage.page, ownerPage.page.getByRole('heading', { name: 'Ihre offenen Zugriffsüberprüfungen', level: 1 }));
          await shown(ownerPage.page, ownerPage.page.getByRole('main').getByRole('listitem').getByText('2 offen'));
          await shown(ownerPage.page, ownerPage.page.getByRole('main').getByText(new RegExp(`^${app.name}; fällig am `)));
          expect(await axeViolations(ownerPage.page), 'reviews waiting').toEqual([]);
          await screenshot(ownerPage.page, 'de-reviews-waiting');
          expect(ownerPage.page.problems()).toEqual([]);
          expect(ownerPage.intlErrors).toEqual([]);
        } finally {
          await ownerPage.context.close();
        }

        await page.getByRole('link', { name }).click();
        await shown(page, page.getByRole('heading', { name: `Überprüfung ${name}`, level: 1 }));
        await shown(page, page.getByText(/^Offen, fällig am .*; unentschiedene Berechtigungen bleiben beim Abschluss bestehen\.$/));
        await shown(page, page.getByRole('link', { name: 'Als CSV exportieren' }));
        await page.getByLabel('Seit 90 Tagen nicht genutzt').check();
        const items = page.getByRole('table', { name: 'Einträge der Überprüfung' });
        await shown(page, items.getByText(ann.email));
        await shown(page, items.getByText(bob.email));
        await shown(page, items.getByRole('cell', { name: 'Nie' }).first());
        await page.getByRole('checkbox', { name: 'Alle gefilterten Einträge auswählen' }).check();
        await shown(page, page.getByText('2 ausgewählt'));
        await page.getByPlaceholder('Kommentar (wird als Nachweis gespeichert)').fill('Nicht mehr im Team');
        await page.getByRole('button', { name: 'Behalten' }).click();
        await alertSays(page, 'Behalten: 2 Einträge');
        await shown(page, page.getByRole('progressbar', { name: `${name}: 2 von 2 entschieden` }));
        await shown(page, items.getByText(`von ${ADMIN_EMAIL}`).first());
        expect(await axeViolations(page), 'review').toEqual([]);
        await screenshot(page, 'de-review');
        await page.getByRole('button', { name: 'Überprüfung abschließen' }).click();
        await alertSays(page, `Überprüfung ${name} abgeschlossen`);
        await shown(page, page.getByText(/^Abgeschlossen, fällig am /));
        await shown(page, items.getByText('(behalten)').first());
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`lists the password rules in German on the set-password screen, and a mismatch in German (${viewport.width} px)`, async () => {
      const client = await web.portal.admin.clients.create(unique('client'));
      const invite = await web.portal.admin.invites.create({ email: `${unique('inv')}@example.com`, clientid: client.id, apps: [] });
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await goto(page, web.portal, `/login/%2Fauth%2F/${invite.token}`);
        await shown(page, page.getByRole('heading', { name: 'Legen Sie Ihr erstes Passwort fest' }));
        expect(await htmlLang(page)).toBe('de');
        const rules = page.getByRole('list', { name: 'Regeln für das Passwort:' });
        await expect
          .poll(() => rules.locator('li').allInnerTexts())
          .toEqual([
            'Mindestens acht Zeichen.',
            'Keines der häufigsten Passwörter, auch keines mit angehängten Ziffern oder Zeichen.',
            'Weder Ihre E-Mail-Adresse noch Tools-Server enthalten.',
          ]);
        await page.getByLabel('Passwort', { exact: true }).fill('quiet harbour lantern 7');
        await page.getByLabel('Passwort wiederholen').fill('quiet harbour lantern 8');
        await page.getByRole('button', { name: 'Passwort speichern' }).click();
        await alertSays(page, 'Ihre Passwörter stimmen nicht überein!');
        await page.getByLabel('Passwort wiederholen').fill('short');
        await page.getByLabel('Passwort', { exact: true }).fill('short');
        await page.getByRole('button', { name: 'Passwort speichern' }).click();
        await alertSays(page, 'Ihr Passwort muss mindestens acht Zeichen lang sein!');
        expect(await axeViolations(page), 'set password').toEqual([]);
        await screenshot(page, 'de-set-password');
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
