// The Teams screens and an app's owners in German (issue 32, docs/web.md, Languages): the words
// of teams.de.ts, `lang="de"`, no axe violations, screenshots at laptop and phone width, and no
// message id falling back (react-intl says so on the console). Set up as german.test.ts is.
import { describe, expect, it } from 'vitest';
import { ADMIN, LAPTOP, PHONE, axeViolations, chromiumAvailable, columnTexts, goto, screenshot, unique, useBrowserPortal, signIn } from './support';
import { germanPage, htmlLang } from './german-support';

const web = useBrowserPortal();

describe.skipIf(!chromiumAvailable)('the Teams screens in German', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows Teams and a team's Mitglieder and Apps with their dialogs in German (${viewport.width} px)`, async () => {
      const app = await web.portal.admin.apps.create({ name: unique('wiki'), url: 'https://wiki.example.com/', roles: ['leser', 'autor'] });
      const member = await web.portal.createUser();
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await goto(page, web.portal, '/teams');
        await expect.poll(() => page.getByRole('heading', { name: 'Teams', level: 1 }).isVisible()).toBe(true);
        expect(await htmlLang(page)).toBe('de');
        await expect.poll(() => page.getByRole('columnheader', { name: 'Teamname' }).isVisible()).toBe(true);
        const name = unique('Redaktion');
        await page.getByRole('button', { name: 'Neues Team' }).click();
        const create = page.getByRole('dialog', { name: 'Neues Team' });
        await create.getByLabel('Teamname').fill(name);
        await create.getByLabel('Beschreibung').fill('Schreibt das Wiki');
        expect(await axeViolations(page), 'Neues Team').toEqual([]);
        await create.getByRole('button', { name: 'Speichern' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `Team ${name} angelegt` })
              .isVisible(),
          )
          .toBe(true);
        expect(await axeViolations(page), 'Teams').toEqual([]);
        await screenshot(page, 'de-teams');

        await page.getByRole('link', { name }).click();
        await expect.poll(() => page.getByRole('table', { name: 'Mitglieder' }).getByText('Keine Mitglieder.').isVisible()).toBe(true);
        await page.getByRole('button', { name: 'Mitglied hinzufügen' }).click();
        const addMember = page.getByRole('dialog', { name: 'Mitglied hinzufügen' });
        await expect.poll(() => addMember.getByRole('option', { name: member.email }).count()).toBe(1);
        await addMember.getByLabel('Benutzer').selectOption({ label: member.email });
        expect(await axeViolations(page), 'Mitglied hinzufügen').toEqual([]);
        await addMember.getByRole('button', { name: 'Hinzufügen' }).click();
        await expect.poll(() => columnTexts(page, 'Mitglieder', 1)).toEqual([member.email]);
        expect(await columnTexts(page, 'Mitglieder', 3)).toEqual(['nie']);

        await page.getByRole('button', { name: 'App hinzufügen' }).click();
        const addApp = page.getByRole('dialog', { name: 'App hinzufügen' });
        await expect.poll(() => addApp.getByRole('option', { name: app.name }).count()).toBe(1);
        await addApp.getByLabel('App', { exact: true }).selectOption({ label: app.name });
        await expect.poll(() => addApp.getByRole('option', { name: 'leser (Standard)' }).count()).toBe(1);
        await addApp.getByLabel('Rolle').selectOption('autor');
        expect(await axeViolations(page), 'App hinzufügen').toEqual([]);
        await addApp.getByRole('button', { name: 'Hinzufügen' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `Zugriff auf App ${app.name} für Team ${name} gewährt` })
              .isVisible(),
          )
          .toBe(true);
        await expect.poll(() => columnTexts(page, 'Apps', 2)).toEqual(['autor']);
        expect(await axeViolations(page), 'Team').toEqual([]);
        await screenshot(page, 'de-team-detail');
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows an app's Verantwortliche on its page and in the app form in German (${viewport.width} px)`, async () => {
      const app = await web.portal.admin.apps.create({ name: unique('wiki'), url: 'https://wiki.example.com/' });
      const { name } = await web.portal.admin.teams.create({ name: unique('Redaktion') });
      const { context, page, intlErrors } = await germanPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await goto(page, web.portal, `/app/${app.id}`);
        expect(await htmlLang(page)).toBe('de');
        const section = page.getByRole('region', { name: 'Verantwortliche' });
        await expect.poll(() => section.getByText('Keine Verantwortlichen: Nur Administratoren verwalten den Zugriff auf diese App.').isVisible()).toBe(true);
        await section.getByRole('button', { name: 'Verantwortliche bearbeiten' }).click();
        const form = page.getByRole('dialog', { name: 'App bearbeiten' });
        const owners = form.getByRole('group', { name: 'Verantwortliche' });
        await owners.getByLabel('Verantwortliche per E-Mail').fill('niemand@example.com');
        await owners.getByRole('button', { name: 'Benutzer hinzufügen' }).click();
        await expect.poll(() => owners.getByText('Kein Benutzer niemand@example.com: Wählen Sie eine E-Mail aus den Vorschlägen.').isVisible()).toBe(true);
        await expect.poll(() => owners.locator(`option[value="${name}"]`).count()).toBe(1);
        await owners.getByLabel('Verantwortliches Team').fill(name);
        await owners.getByRole('button', { name: 'Team hinzufügen' }).click();
        await expect
          .poll(() => owners.getByRole('list', { name: 'Verantwortliche' }).getByRole('listitem').allInnerTexts())
          .toEqual([expect.stringContaining(`Team ${name}`)]);
        expect(await axeViolations(page), 'App bearbeiten, Verantwortliche').toEqual([]);
        await screenshot(page, 'de-app-form-owners');
        await form.getByRole('button', { name: 'Speichern' }).click();
        await expect.poll(() => section.getByRole('listitem').allInnerTexts()).toEqual([`Team ${name}`]);
        expect(await axeViolations(page), 'Verantwortliche').toEqual([]);
        expect(page.problems()).toEqual([]);
        expect(intlErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
