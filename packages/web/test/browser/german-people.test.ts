// The console's people, log and integration screens in German (issue 32, docs/web.md, Languages):
// Users and a user's page (security facts, actions, Manage Apps), Clients with the type-the-name
// deletion, a client's page, Invites with New Invite, the Event log (filters, grouped types,
// details, pages), Webhooks (picker, secret, test, deliveries), Help, and the too-many-attempts
// texts of the login and the password reset. Each from a German browser: German words, `lang="de"`, axe with no
// violation, no react-intl complaint on the console, screenshots at laptop and phone width.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort, type TestUser } from '../../../server/test/support/support.js';
import { ADMIN, LAPTOP, PHONE, axeViolations, chromiumAvailable, expectTermsShown, goto, screenshot, unique, useBrowserPortal, signIn } from './support';
import { germanPage, htmlLang } from './german-support';

// Three failed logins lock an email (the too-many-attempts test); loopback receivers are allowed for the webhooks.
const web = useBrowserPortal({ env: { LOGIN_FAILURES_PER_EMAIL: '3', WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_SECONDS: '1' } });

/** Each test walks several screens; the shared machine is slow under load. */
const SLOW = 180_000;

const alertShown = (page: Page, text: string | RegExp) => () => page.getByRole('alert').filter({ hasText: text }).first().isVisible();

/** The German screen in order: `lang`, axe, a screenshot. */
async function looksRight(page: Page, name: string) {
  expect(await htmlLang(page)).toBe('de');
  expect(await axeViolations(page), name).toEqual([]);
  await screenshot(page, name);
}

describe.skipIf(!chromiumAvailable)('the console in German: people, log and integrations', () => {
  const tag = unique('dp').slice(-6);
  let wiki: { id: number; name: string };

  beforeAll(async () => {
    wiki = await web.portal.admin.apps.create({
      name: `Wiki ${tag}`,
      url: `${web.portal.url}/healthz?app=wiki`,
      description: 'Wiki',
      descriptionDe: '',
      category: '',
      requestable: false,
    });
  });

  for (const viewport of [LAPTOP, PHONE]) {
    const size = viewport.width;

    it(
      `shows Benutzer and a user's page in German: facts, actions, password reset, Apps verwalten (${size} px)`,
      async () => {
        const member: TestUser = await web.portal.createUser();
        const doomed: TestUser = await web.portal.createUser();
        const { context, page, intlErrors } = await germanPage(web.browser, viewport);
        try {
          await signIn(page, web.portal, ADMIN);
          await goto(page, web.portal, '/users');
          await expect.poll(() => page.getByRole('heading', { name: 'Benutzer', exact: true }).isVisible()).toBe(true);
          const table = page.getByRole('table', { name: 'Benutzer' });
          await expect.poll(() => table.getByRole('columnheader', { name: /Kunde/ }).isVisible()).toBe(true);
          await expect.poll(() => table.getByRole('columnheader', { name: 'Löschen' }).isVisible()).toBe(true);
          await page.getByRole('searchbox', { name: 'Filtern' }).fill(doomed.email);
          const row = table.getByRole('row').filter({ hasText: doomed.email });
          await row.getByRole('button', { name: 'Löschen' }).click();
          await row.getByRole('button', { name: 'Wirklich?' }).click();
          await expect.poll(alertShown(page, `Benutzer ${doomed.email} gelöscht`)).toBe(true);
          await looksRight(page, `de-users`);

          await goto(page, web.portal, `/user/${member.user.id}`);
          await expect.poll(() => page.getByRole('heading', { name: member.email }).isVisible()).toBe(true);
          await expectTermsShown(page, ['Angelegt', 'Letzte Anmeldung', 'Zweiter Faktor', 'Passkeys', 'Aktive Sitzungen', 'API-Schlüssel']);
          await expect.poll(() => page.getByText('aus', { exact: true }).isVisible()).toBe(true);
          const actions = page.getByRole('group', { name: 'Aktionen' });
          // The member's API session: ending it names it first.
          await actions.getByRole('button', { name: 'Sitzungen beenden' }).click();
          await expect.poll(() => actions.getByRole('button', { name: /^Wirklich\? Meldet 1 Sitzung ab$/ }).isVisible()).toBe(true);
          await actions.getByRole('button', { name: /^Wirklich\?/ }).click();
          await expect.poll(alertShown(page, `Alle Sitzungen von ${member.email} beendet`)).toBe(true);

          await actions.getByRole('button', { name: 'Passwort-Zurücksetzung senden' }).click();
          const ask = page.getByRole('dialog', { name: 'Passwort-Zurücksetzung senden?' });
          await expect.poll(() => ask.getByText(`${member.email} erhält einen Link`).isVisible()).toBe(true);
          await looksRight(page, `de-user-reset-ask`);
          await ask.getByRole('button', { name: 'Senden' }).click();
          const link = page.getByRole('dialog', { name: 'Link zum Zurücksetzen des Passworts' });
          await expect.poll(() => link.getByText(/Senden Sie diesen Link an .*60 Minuten lang|Der Link wurde per E-Mail an/).isVisible()).toBe(true);
          await looksRight(page, `de-user-reset-link`);
          await link.getByRole('button', { name: 'OK' }).click();

          await page.getByRole('button', { name: 'Apps verwalten' }).click();
          const manage = page.getByRole('dialog', { name: 'Apps des Benutzers verwalten' });
          await manage.getByRole('searchbox', { name: 'Apps suchen' }).fill(wiki.name);
          await manage.getByLabel(wiki.name, { exact: true }).check();
          await expect.poll(() => manage.getByLabel(`Ablauf von ${wiki.name} (optional)`).isVisible()).toBe(true);
          await expect.poll(() => manage.getByText('Mit einem Datum endet die Berechtigung').isVisible()).toBe(true);
          await looksRight(page, `de-user-manage-apps`);
          await manage.getByRole('button', { name: 'Speichern' }).click();
          const apps = page.getByRole('table', { name: 'Apps des Benutzers' });
          await expect.poll(() => apps.getByRole('row').filter({ hasText: wiki.name }).getByText('direkt').isVisible()).toBe(true);
          await expect.poll(() => apps.getByRole('row').filter({ hasText: wiki.name }).getByText('nie').isVisible()).toBe(true);
          await looksRight(page, `de-user`);

          await goto(page, web.portal, '/user/999999');
          await expect.poll(() => page.getByRole('heading', { name: 'Diesen Benutzer gibt es nicht' }).isVisible()).toBe(true);
          await expect.poll(() => page.getByRole('link', { name: 'Zu den Benutzern' }).isVisible()).toBe(true);
          await looksRight(page, `de-user-missing`);
          expect(page.problems()).toEqual([]);
          expect(intlErrors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      `shows Kunden, a client's page and Einladungen in German, with the type-the-name deletion and New Invite (${size} px)`,
      async () => {
        const member = await web.portal.createUser();
        const { context, page, intlErrors } = await germanPage(web.browser, viewport);
        try {
          await signIn(page, web.portal, ADMIN);
          await goto(page, web.portal, '/clients');
          await expect.poll(() => page.getByRole('heading', { name: 'Kunden', exact: true }).isVisible()).toBe(true);
          await page.getByRole('button', { name: 'Neuer Kunde' }).click();
          const create = page.getByRole('dialog', { name: 'Neuer Kunde' });
          const name = `Kunde ${tag} ${size}`;
          await create.getByLabel('Name des Kunden').fill(name);
          await looksRight(page, `de-new-client`);
          await create.getByRole('button', { name: 'Speichern' }).click();
          await expect.poll(alertShown(page, `Neuer Kunde ${name} angelegt`)).toBe(true);

          // The member's client has one user: Really? says so, then its name must be typed.
          await page.getByRole('searchbox', { name: 'Filtern' }).fill(member.user.client.name);
          const row = page.getByRole('table', { name: 'Kunden' }).getByRole('row').filter({ hasText: member.user.client.name });
          await row.getByRole('button', { name: 'Löschen' }).click();
          await expect.poll(() => row.getByRole('button', { name: 'Wirklich? Löscht auch 1 Benutzer' }).isVisible()).toBe(true);
          await row.getByRole('button', { name: /^Wirklich\?/ }).click();
          const confirm = page.getByRole('dialog', { name: `Kunde ${member.user.client.name} löschen?` });
          await expect.poll(() => confirm.getByText('Damit wird auch sein 1 Benutzer gelöscht').isVisible()).toBe(true);
          const typed = confirm.getByLabel(`Geben Sie zur Bestätigung den Namen des Kunden ein: ${member.user.client.name}`);
          expect(await confirm.getByRole('button', { name: 'Löschen' }).isDisabled()).toBe(true);
          await looksRight(page, `de-client-type-to-delete`);
          await typed.fill(member.user.client.name);
          await confirm.getByRole('button', { name: 'Löschen' }).click();
          await expect.poll(alertShown(page, `Kunde ${member.user.client.name} gelöscht`)).toBe(true);
          await looksRight(page, `de-clients`);

          const client = (await web.portal.admin.clients.list()).find((each) => each.name === name);
          if (!client) throw new Error(`no client ${name}`);
          await goto(page, web.portal, `/client/${client.id}`);
          await expect.poll(() => page.getByRole('heading', { name }).isVisible()).toBe(true);
          await expect.poll(() => page.getByText('Ein Kunde mit 0 Benutzern.').isVisible()).toBe(true);
          await expect.poll(() => page.getByText('Noch keine Benutzer: „Zu diesem Kunden einladen“ fügt den ersten hinzu.').isVisible()).toBe(true);
          await looksRight(page, `de-client`);

          // Invite to this client: New Invite opens with the client chosen.
          await page.getByRole('link', { name: 'Zu diesem Kunden einladen' }).click();
          const invite = page.getByRole('dialog', { name: 'Neue Einladung' });
          await expect.poll(() => invite.getByLabel('Kunde', { exact: true }).inputValue()).toBe(String(client.id));
          await expect.poll(() => invite.getByText('0 ausgewählt').isVisible()).toBe(true);
          await invite.getByRole('searchbox', { name: 'Apps suchen' }).fill(wiki.name);
          await invite.getByLabel(wiki.name, { exact: true }).check();
          await expect.poll(() => invite.getByText('1 ausgewählt').isVisible()).toBe(true);
          const email = `${unique('eingeladen')}@example.com`;
          await invite.getByLabel('E-Mail', { exact: true }).fill(email);
          await looksRight(page, `de-new-invite`);
          await invite.getByRole('button', { name: 'Speichern' }).click();
          const copy = page.getByRole('dialog', { name: 'Bitte kopieren Sie den Einladungslink' });
          await expect.poll(() => copy.getByRole('textbox', { name: 'Einladungslink' }).isVisible()).toBe(true);
          await looksRight(page, `de-invite-link`);
          await copy.getByRole('button', { name: 'OK' }).click();

          await expect.poll(() => page.getByRole('heading', { name: 'Einladungen' }).isVisible()).toBe(true);
          await page.getByRole('searchbox', { name: 'Filtern' }).fill(email);
          const open = page.getByRole('table', { name: 'Einladungen' }).getByRole('row').filter({ hasText: email });
          await expect.poll(() => open.getByText('offen', { exact: true }).isVisible()).toBe(true);
          await expect.poll(() => open.getByText(/^bis /).isVisible()).toBe(true);
          await expect.poll(() => open.getByRole('button', { name: 'Link kopieren' }).isVisible()).toBe(true);
          await looksRight(page, `de-invites`);
          await page.getByRole('searchbox', { name: 'Filtern' }).fill(`niemand-${tag}`);
          await expect.poll(() => page.getByText('Keine Einladung passt.').isVisible()).toBe(true);
          expect(page.problems()).toEqual([]);
          expect(intlErrors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      `shows the Ereignisprotokoll in German: filters, grouped types, details, pages (${size} px)`,
      async () => {
        const { context, page, intlErrors } = await germanPage(web.browser, viewport);
        try {
          await signIn(page, web.portal, ADMIN);
          await goto(page, web.portal, '/logs');
          await expect.poll(() => page.getByRole('heading', { name: 'Die letzten 1000 Protokolleinträge' }).isVisible()).toBe(true);
          await expect.poll(() => page.getByText(/^\d[\d.]* Einträge?$/).isVisible()).toBe(true);
          const filters = page.getByRole('form', { name: 'Protokollfilter' });
          expect(await filters.locator('optgroup[label="Anmeldung"]').count()).toBe(1);
          expect(await filters.getByRole('option', { name: 'login.* (jedes Ereignis aus Anmeldung)' }).count()).toBe(1);
          // A type stays its code; its description, the hover text, is German.
          expect(await filters.getByRole('option', { name: 'login.failure', exact: true }).getAttribute('title')).toBe(
            'eine Anmeldung mit Passwort wurde abgelehnt (unbekannte E-Mail, falsches Passwort, kein Passwort gesetzt)',
          );
          await filters.getByLabel('Typ').selectOption('login.');
          await filters.getByRole('button', { name: 'Filtern' }).click();
          const log = page.getByRole('table', { name: 'Protokoll' });
          // The admin's own sign-ins are there; a row's event (the server's text, as logged) opens its details.
          const event = log.locator('button.log-event:visible').first();
          await expect.poll(() => event.isVisible()).toBe(true);
          await event.click();
          const details = page.getByRole('definition').first();
          await expect.poll(() => details.isVisible()).toBe(true);
          await expect.poll(() => log.getByLabel('Details des Eintrags').first().getByText('User-Agent').isVisible()).toBe(true);
          await looksRight(page, `de-logs-details`);
          expect(await page.getByRole('navigation', { name: 'Protokollseiten' }).getByRole('button', { name: 'Zurück' }).isDisabled()).toBe(true);

          // From after To is refused at the field.
          await filters.getByLabel('Von').fill('2026-11-02');
          await filters.getByLabel('Bis').fill('2026-11-01');
          await expect.poll(() => filters.getByText('„Bis“ darf nicht vor „Von“ liegen').isVisible()).toBe(true);
          expect(await filters.getByRole('button', { name: 'Filtern' }).isDisabled()).toBe(true);
          await looksRight(page, `de-logs-range`);
          await filters.getByRole('button', { name: 'Leeren' }).click();
          await expect.poll(() => filters.getByText('„Bis“ darf nicht vor „Von“ liegen').isVisible()).toBe(false);
          await expect.poll(() => filters.getByRole('link', { name: 'Als CSV exportieren' }).isVisible()).toBe(true);
          expect(page.problems()).toEqual([]);
          expect(intlErrors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      `shows Webhooks and Hilfe in German: picker, plain-http warning, secret, test, deliveries (${size} px)`,
      async () => {
        const { context, page, intlErrors } = await germanPage(web.browser, viewport);
        try {
          await signIn(page, web.portal, ADMIN);
          await goto(page, web.portal, '/webhooks');
          await expect.poll(() => page.getByRole('heading', { name: 'Webhooks' }).isVisible()).toBe(true);
          await page.getByRole('button', { name: 'Neuer Webhook' }).click();
          const dialog = page.getByRole('dialog', { name: 'Neuer Webhook' });
          // Nothing listens there: the test delivery fails, in the delivery's own (server) words.
          await dialog.getByLabel('URL').fill(`http://127.0.0.1:${await freePort()}/hook`);
          await dialog.getByLabel('Beschreibung (optional)').fill(`Prüfung ${size}`);
          await dialog.getByLabel('jedes Ereignis aus login.').check();
          expect(await dialog.getByLabel('login.failure', { exact: true }).isDisabled()).toBe(true);
          expect(await dialog.locator('label', { hasText: /^webhook\.secret$/ }).getAttribute('title')).toBe(
            'das Signatur-Secret eines Webhooks wurde erneuert',
          );
          await looksRight(page, `de-new-webhook`);
          await dialog.getByRole('button', { name: 'Webhook anlegen' }).click();
          const secret = page.getByRole('dialog', { name: 'Signatur-Secret' });
          await expect.poll(() => secret.getByText(/Kopieren Sie das Signatur-Secret von Webhook \d+ jetzt/).isVisible()).toBe(true);
          expect(await secret.getByRole('note').innerText()).toContain('Unverschlüsseltes http');
          await looksRight(page, `de-webhook-secret`);
          await secret.getByRole('button', { name: 'Fertig' }).click();

          const row = page
            .getByRole('table', { name: 'Webhooks' })
            .getByRole('row')
            .filter({ hasText: `Prüfung ${size}` });
          await expect.poll(() => row.getByText('aktiv', { exact: true }).isVisible()).toBe(true);
          await row.getByRole('button', { name: /^Test senden an Webhook \d+$/ }).click();
          await expect.poll(alertShown(page, /^Test an Webhook \d+ nicht zugestellt: /)).toBe(true);
          await expect.poll(() => page.getByRole('heading', { name: /^Zustellungen von Webhook \d+$/ }).isVisible()).toBe(true);
          const deliveries = page.getByRole('table', { name: 'Zustellungen' });
          await expect.poll(() => deliveries.getByRole('row').filter({ hasText: 'webhook.test' }).isVisible()).toBe(true);
          await expect.poll(() => deliveries.getByRole('columnheader', { name: 'Versuche' }).isVisible()).toBe(true);
          await row.getByRole('button', { name: 'Deaktivieren' }).click();
          await expect.poll(alertShown(page, /^Webhook \d+ deaktiviert/)).toBe(true);
          await expect.poll(() => row.getByText('inaktiv', { exact: true }).isVisible()).toBe(true);
          await looksRight(page, `de-webhooks`);

          await goto(page, web.portal, '/docs');
          await expect.poll(() => page.getByRole('heading', { name: 'Hilfe', exact: true }).isVisible()).toBe(true);
          await expect.poll(() => page.getByText('Wer einen Kunden löscht, löscht seine Benutzer').isVisible()).toBe(true);
          await expect.poll(() => page.getByRole('heading', { name: 'API-Schlüssel' }).isVisible()).toBe(true);
          await looksRight(page, `de-help`);
          expect(page.problems()).toEqual([]);
          expect(intlErrors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      `says too many failed logins in German, with the time to try again (${size} px)`,
      async () => {
        const member = await web.portal.createUser();
        // Three failures lock the email (LOGIN_FAILURES_PER_EMAIL above); the browser's attempt is refused for that.
        for (let attempt = 0; attempt < 3; attempt++) await web.portal.login(member.email, 'not the password').catch(() => undefined);
        const { context, page, intlErrors } = await germanPage(web.browser, viewport);
        try {
          await goto(page, web.portal, '/login');
          await page.getByLabel('E-Mail').fill(member.email);
          await page.getByLabel('Passwort', { exact: true }).fill('still not the password');
          await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
          const tooMany = /^Zu viele fehlgeschlagene Anmeldungen; versuchen Sie es in \d+ Minuten? erneut \(um \d\d:\d\d Uhr\)\.$/;
          await expect.poll(() => page.getByRole('alert').filter({ hasText: tooMany }).isVisible()).toBe(true);
          expect(await page.getByLabel('E-Mail').inputValue()).toBe(member.email);
          await looksRight(page, `de-login-too-many`);
          expect(page.problems()).toEqual([]);
          expect(intlErrors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );

    it(
      `says too many reset requests in German, with the minutes to wait (${size} px)`,
      async () => {
        // The browser asks from the test's own address: spend that address's reset requests first
        // (20 an hour; the second viewport finds them spent already).
        for (let request = 0; request < 21; request++) {
          const refused = await web.portal.anonymous.auth.forgotPassword({ Email: `nobody-${request}@example.com` }).then(
            () => false,
            () => true,
          );
          if (refused) break;
        }
        const { context, page, intlErrors } = await germanPage(web.browser, viewport);
        try {
          await goto(page, web.portal, '/reset');
          await page.getByLabel('E-Mail').fill('someone@example.com');
          await page.getByRole('button', { name: 'Link senden' }).click();
          const tooMany = /^Zu viele Versuche; versuchen Sie es in \d+ Minuten? noch einmal\.$/;
          await expect.poll(() => page.getByRole('alert').filter({ hasText: tooMany }).isVisible()).toBe(true);
          await looksRight(page, `de-reset-too-many`);
          expect(page.problems()).toEqual([]);
          expect(intlErrors).toEqual([]);
        } finally {
          await context.close();
        }
      },
      SLOW,
    );
  }
});
