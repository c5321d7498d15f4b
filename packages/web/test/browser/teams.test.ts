// The Teams screens in a real browser (docs/api.md, Teams, roles and owners): the list with New
// Team, a team's members (Add Member with an expiry) and apps (Add App with a role), an app's
// owners in the app form, an owner's Add Team, at laptop and phone width, with screenshots and no
// axe violation on any screen or dialog.
import { describe, expect, it } from 'vitest';
import { ADMIN, LAPTOP, PHONE, axeViolations, chromiumAvailable, columnTexts, goto, openPage, screenshot, useBrowserPortal, unique, signIn } from './support';

const web = useBrowserPortal();

describe.skipIf(!chromiumAvailable)('the Teams screens', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    it(`lists teams, creates one, adds a member with an expiry and an app with a role at ${viewport.width} px`, async () => {
      const app = await web.portal.admin.apps.create({ name: unique('grafana'), url: 'https://grafana.example.com/', roles: ['viewer', 'editor'] });
      const member = await web.portal.createUser();
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        await goto(page, web.portal, '/teams');
        await expect.poll(() => page.getByRole('heading', { name: 'Teams' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('columnheader', { name: 'Team Name' }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'teams').toEqual([]);

        const name = unique('Platform');
        await page.getByRole('button', { name: 'New Team' }).click();
        const dialog = page.getByRole('dialog', { name: 'New Team' });
        await expect.poll(() => dialog.isVisible()).toBe(true);
        await dialog.getByLabel('Team name').fill(name);
        await dialog.getByLabel('Description').fill('Runs the dashboards');
        expect(await axeViolations(page), 'New Team dialog').toEqual([]);
        await screenshot(page, 'teams-new-team');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `created new team ${name}` })
              .isVisible(),
          )
          .toBe(true);
        await expect.poll(() => columnTexts(page, 'Teams', 1)).toContain(name);
        await screenshot(page, 'teams');

        await page.getByRole('link', { name }).click();
        await expect.poll(() => page.getByRole('heading', { name, level: 1 }).isVisible()).toBe(true);
        await expect.poll(() => page.getByText('Runs the dashboards').isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('table', { name: 'Members' }).getByText('No members.').isVisible()).toBe(true);

        await page.getByRole('button', { name: 'Add Member' }).click();
        const addMember = page.getByRole('dialog', { name: 'Add Member' });
        await expect.poll(() => addMember.getByRole('option', { name: member.email }).count()).toBe(1);
        await addMember.getByLabel('User').selectOption({ label: member.email });
        await addMember.getByLabel('Membership expiry').selectOption('30');
        expect(await axeViolations(page), 'Add Member dialog').toEqual([]);
        await addMember.getByRole('button', { name: 'Add' }).click();
        await expect.poll(() => columnTexts(page, 'Members', 1)).toEqual([member.email]);
        expect((await columnTexts(page, 'Members', 3))[0]).not.toBe('never');

        await page.getByRole('button', { name: 'Add App' }).click();
        const addApp = page.getByRole('dialog', { name: 'Add App' });
        await expect.poll(() => addApp.getByRole('option', { name: app.name }).count()).toBe(1);
        await addApp.getByLabel('App').selectOption({ label: app.name });
        await addApp.getByLabel('Role').selectOption('editor');
        expect(await axeViolations(page), 'Add App dialog').toEqual([]);
        await screenshot(page, 'team-add-app');
        await addApp.getByRole('button', { name: 'Add' }).click();
        await expect.poll(() => columnTexts(page, 'Apps', 2)).toEqual(['editor']);
        expect(await columnTexts(page, 'Apps', 1)).toEqual([app.name]);
        expect(await axeViolations(page), 'team detail').toEqual([]);
        await screenshot(page, 'team-detail');

        // The app's page shows who may use it and how: via the team, with the role.
        await goto(page, web.portal, `/app/${app.id}`);
        await expect.poll(() => columnTexts(page, 'App access', 1)).toEqual([member.email]);
        expect(await columnTexts(page, 'App access', 2)).toEqual(['editor']);
        expect((await columnTexts(page, 'App access', 3))[0]).toMatch(new RegExp(`^via team ${name} \\(editor\\)`));
        await expect.poll(() => page.getByText('Roles: viewer, editor.').isVisible()).toBe(true);
        expect(await axeViolations(page), 'app page with access').toEqual([]);
        await screenshot(page, 'app-access');
        // Add Team grants the app to another team, with the default role.
        const other = await web.portal.admin.teams.create({ name: unique('Beta') });
        await page.getByRole('button', { name: 'Add Team' }).click();
        const addTeam = page.getByRole('dialog', { name: 'Add Team' });
        await expect.poll(() => addTeam.getByRole('option', { name: other.name }).count()).toBe(1);
        await addTeam.getByLabel('Team').selectOption({ label: other.name });
        expect(await addTeam.getByLabel('Role').inputValue()).toBe('');
        expect(await axeViolations(page), 'Add Team dialog').toEqual([]);
        await addTeam.getByRole('button', { name: 'Add' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `granted app ${app.name} to team ${other.name}` })
              .isVisible(),
          )
          .toBe(true);
        expect(await web.portal.admin.teams.apps(other.id)).toEqual([{ id: app.id, name: app.name, role: 'viewer' }]);

        // The member's page shows the app with where it comes from.
        await goto(page, web.portal, `/user/${member.user.id}`);
        await expect.poll(() => columnTexts(page, 'User apps', 4)).toEqual([`team ${name} (editor)`]);
        expect(await axeViolations(page), 'user page with a team app').toEqual([]);
        await screenshot(page, 'user-apps-via-team');

        // What the browser did is what the portal holds.
        const [team] = (await web.portal.admin.teams.list()).filter((listed) => listed.name === name);
        expect(await web.portal.admin.teams.apps(team.id)).toEqual([{ id: app.id, name: app.name, role: 'editor' }]);
        expect((await web.portal.admin.teams.users(team.id)).map((user) => user.email)).toEqual([member.email]);
      } finally {
        await context.close();
      }
    });
  }

  for (const viewport of [LAPTOP, PHONE]) {
    it(`edits an app's owners in the app form, users by email and teams by name, shown on its page at ${viewport.width} px`, async () => {
      const app = await web.portal.admin.apps.create({ name: unique('owned'), url: 'https://owned.example.com/', description: 'Kept as it is' });
      const owner = await web.portal.createUser();
      const team = await web.portal.admin.teams.create({ name: unique('Ops') });
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        await goto(page, web.portal, `/app/${app.id}`);
        const section = page.getByRole('region', { name: 'Owners' });
        await expect.poll(() => section.getByText("No owners: only admins manage this app's access.").isVisible()).toBe(true);
        await section.getByRole('button', { name: 'Edit owners' }).click();
        const dialog = page.getByRole('dialog', { name: 'Edit App' });
        const owners = dialog.getByRole('group', { name: 'Owners' });
        await expect.poll(() => owners.isVisible()).toBe(true);

        // Someone the portal does not know is refused at the field it was typed in.
        const email = owners.getByLabel('Owner by email');
        await email.fill('nobody@example.com');
        await owners.getByRole('button', { name: 'Add user' }).click();
        await expect.poll(() => owners.getByText('No user nobody@example.com: pick an email from the suggestions.').isVisible()).toBe(true);
        expect(await email.getAttribute('aria-invalid')).toBe('true');
        const teamField = owners.getByLabel('Owner team');
        await teamField.fill('No such team');
        await teamField.press('Enter');
        await expect.poll(() => owners.getByText('No team No such team: pick a team from the suggestions.').isVisible()).toBe(true);
        expect(await axeViolations(page), 'owners editor with refusals').toEqual([]);

        // The suggestions come from the portal: the ones named here are among them.
        await expect.poll(() => owners.locator(`option[value="${owner.email}"]`).count()).toBe(1);
        await expect.poll(() => owners.locator(`option[value="${team.name}"]`).count()).toBe(1);
        await email.fill(owner.email.toUpperCase());
        await owners.getByRole('button', { name: 'Add user' }).click();
        await teamField.fill(team.name);
        await teamField.press('Enter');
        const listed = owners.getByRole('list', { name: 'Owners' }).getByRole('listitem');
        await expect.poll(() => listed.allInnerTexts()).toEqual([expect.stringContaining(owner.email), expect.stringContaining(`team ${team.name}`)]);
        expect(await email.getAttribute('aria-invalid')).toBeNull();
        // Enter added the team; the dialog is still open, nothing saved yet.
        expect((await web.portal.admin.apps.get(app.id)).owners).toEqual({ users: [], teams: [] });
        expect(await axeViolations(page), 'owners editor').toEqual([]);
        await screenshot(page, 'app-form-owners');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await expect.poll(() => dialog.isVisible()).toBe(false);

        // The page shows them; what the browser did is what the portal holds, the rest unchanged.
        await expect.poll(() => section.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining(owner.email), `team ${team.name}`]);
        expect(await web.portal.admin.apps.get(app.id)).toMatchObject({ description: 'Kept as it is', owners: { users: [owner.user.id], teams: [team.id] } });
        expect(await axeViolations(page), 'app page with owners').toEqual([]);
        await screenshot(page, 'app-owners');

        // Reopened, the form shows them; removing one and saving removes it.
        await section.getByRole('button', { name: 'Edit owners' }).click();
        await expect.poll(() => listed.count()).toBe(2);
        await owners.getByRole('button', { name: `Remove owner ${owner.email}` }).click();
        await dialog.getByRole('button', { name: 'Save' }).click();
        await expect.poll(() => section.getByRole('listitem').allInnerTexts()).toEqual([`team ${team.name}`]);
        expect((await web.portal.admin.apps.get(app.id)).owners).toEqual({ users: [], teams: [team.id] });
      } finally {
        await context.close();
      }
    });
  }

  it("sets an app's roles and owners in the New App dialog", async () => {
    const name = unique('roles');
    const team = await web.portal.admin.teams.create({ name: unique('Owners') });
    const { context, page } = await openPage(web.browser, LAPTOP);
    try {
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/manage/apps');
      await page.getByRole('button', { name: 'New App' }).click();
      const dialog = page.getByRole('dialog', { name: 'New App' });
      await dialog.getByLabel('app name').fill(name);
      await dialog.getByLabel('app url').fill('https://roles.example.com/');
      await dialog.getByLabel(/^Roles/).fill('viewer, editor');
      const teamField = dialog.getByRole('group', { name: 'Owners' }).getByLabel('Owner team');
      await expect.poll(() => dialog.locator(`option[value="${team.name}"]`).count()).toBe(1);
      await teamField.fill(team.name);
      await teamField.press('Enter');
      await expect
        .poll(() => dialog.getByRole('list', { name: 'Owners' }).getByRole('listitem').allInnerTexts())
        .toEqual([expect.stringContaining(`team ${team.name}`)]);
      expect(await axeViolations(page), 'New App with roles').toEqual([]);
      await screenshot(page, 'new-app-roles');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(async () => (await web.portal.admin.apps.all()).find((app) => app.name === name)?.roles).toEqual(['viewer', 'editor']);
      const created = (await web.portal.admin.apps.all()).find((app) => app.name === name)!;
      expect((await web.portal.admin.apps.get(created.id)).owners).toEqual({ users: [], teams: [team.id] });
    } finally {
      await context.close();
    }
  });

  for (const viewport of [LAPTOP, PHONE]) {
    it(`shows an owner Apps you own with the app's access, open requests to decide, and Add Team with teams they are not in at ${viewport.width} px`, async () => {
      const owner = await web.portal.createUser();
      const app = await web.portal.admin.apps.create({
        name: unique('owned'),
        url: 'https://owned.example.com/',
        requestable: true,
        roles: ['viewer', 'editor'],
        owners: { users: [owner.user.id], teams: [] },
      });
      const asker = await web.portal.createUser();
      await asker.api.accessRequests.create({ appid: app.id, reason: 'for the report' });
      // A team the owner is not a member of.
      const team = await web.portal.admin.teams.create({ name: unique('Readers') });
      const reader = await web.portal.createUser();
      await web.portal.admin.teams.addUser(team.id, { userid: reader.user.id });
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, owner);
        await page.waitForURL(/#\/(applist|userapps)/);
        await goto(page, web.portal, '/owned');
        await expect.poll(() => page.getByRole('heading', { name: 'Apps you own' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('heading', { name: app.name }).isVisible()).toBe(true);
        const requests = `Open requests for ${app.name}`;
        await expect.poll(() => columnTexts(page, requests, 1)).toEqual([asker.email]);
        expect(await columnTexts(page, requests, 2)).toEqual(['for the report']);
        expect(await axeViolations(page), 'Apps you own').toEqual([]);
        await screenshot(page, 'owned-apps');
        await page.getByRole('table', { name: requests }).getByRole('button', { name: 'Approve' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `approved ${app.name} for ${asker.email}` })
              .isVisible(),
          )
          .toBe(true);
        await expect.poll(() => columnTexts(page, requests, 1)).toEqual([]);
        expect((await web.portal.admin.apps.access(app.id)).map((user) => [user.email, user.roles])).toEqual([[asker.email, ['viewer']]]);

        // Add Team lists the teams the app may be granted to, not only the owner's own.
        await page.getByRole('button', { name: 'Add Team' }).click();
        const addTeam = page.getByRole('dialog', { name: 'Add Team' });
        await expect.poll(() => addTeam.getByRole('option', { name: team.name }).count()).toBe(1);
        await addTeam.getByLabel('Team').selectOption({ label: team.name });
        await addTeam.getByLabel('Role').selectOption('editor');
        expect(await axeViolations(page), 'Add Team as an owner').toEqual([]);
        await screenshot(page, 'owned-add-team');
        await addTeam.getByRole('button', { name: 'Add' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `granted app ${app.name} to team ${team.name}` })
              .isVisible(),
          )
          .toBe(true);
        expect(await web.portal.admin.teams.apps(team.id)).toEqual([{ id: app.id, name: app.name, role: 'editor' }]);
        // The user and the team are named, not linked: their pages are the admin console's.
        const access = page.getByRole('table', { name: 'App access' });
        await expect.poll(() => access.getByText(reader.email).isVisible()).toBe(true);
        expect(await access.getByText(`via team ${team.name}`).count()).toBe(1);
        expect(await access.getByRole('link').count()).toBe(0);
      } finally {
        await context.close();
      }
    });

    it(`lets an owner add a user by exact email and remove a direct grant on Apps you own at ${viewport.width} px`, async () => {
      const owner = await web.portal.createUser();
      const app = await web.portal.admin.apps.create({
        name: unique('owned'),
        url: 'https://owned.example.com/',
        roles: ['viewer', 'editor'],
        owners: { users: [owner.user.id], teams: [] },
      });
      const colleague = await web.portal.createUser();
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, owner);
        await page.waitForURL(/#\/(applist|userapps)/);
        await goto(page, web.portal, '/owned');
        await expect.poll(() => page.getByRole('heading', { name: app.name }).isVisible()).toBe(true);

        // An email nobody has is refused at its field, and nothing is granted.
        await page.getByRole('button', { name: 'Add User' }).click();
        const addUser = page.getByRole('dialog', { name: 'Add User' });
        await addUser.getByLabel('Email').fill(`nobody-${unique('x')}@example.com`);
        await addUser.getByRole('button', { name: 'Add' }).click();
        await expect.poll(() => addUser.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
        expect(await web.portal.admin.apps.access(app.id)).toEqual([]);
        expect(await axeViolations(page), 'Add User refused').toEqual([]);
        await screenshot(page, 'owned-add-user-unknown');

        // A whole address in another case names the user; the role and the grant arrive.
        await addUser.getByLabel('Email').fill(colleague.email.toUpperCase());
        await addUser.getByLabel('Role').selectOption('editor');
        await addUser.getByRole('button', { name: 'Add' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `granted ${app.name} to ${colleague.email.toUpperCase()}` })
              .isVisible(),
          )
          .toBe(true);
        expect((await web.portal.admin.apps.access(app.id)).map((user) => [user.email, user.roles])).toEqual([[colleague.email, ['editor']]]);
        const access = page.getByRole('table', { name: 'App access' });
        await expect.poll(() => access.getByRole('row').filter({ hasText: colleague.email }).isVisible()).toBe(true);

        // Remove access asks twice, then the grant is gone.
        const row = access.getByRole('row').filter({ hasText: colleague.email });
        await row.getByRole('button', { name: 'Remove access' }).click();
        await row.getByRole('button', { name: /^Really\?/ }).click();
        await expect.poll(async () => (await web.portal.admin.apps.access(app.id)).length).toBe(0);
        await expect.poll(() => access.getByRole('row').filter({ hasText: colleague.email }).count()).toBe(0);
        expect(await axeViolations(page), 'Apps you own after Remove access').toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
