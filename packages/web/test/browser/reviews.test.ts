// The access-review screens in a real browser (docs/reviews.md): the console's Reviews with
// progress bars and Start review; a review's items filtered by "Not used in 90 days", every
// filtered item selected, then Remove; and an owner's Reviews waiting for you with its count. At
// laptop and phone width, with screenshots and no axe violation.
import { describe, expect, it } from 'vitest';
import { ADMIN, LAPTOP, PHONE, axeViolations, chromiumAvailable, columnTexts, goto, openPage, screenshot, useBrowserPortal, unique, signIn } from './support';

const web = useBrowserPortal();

describe.skipIf(!chromiumAvailable)('the Reviews screens', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    it(`start a review, filter and decide its items, and show an owner what waits at ${viewport.width} px`, async () => {
      const owner = await web.portal.createUser();
      const app = await web.portal.admin.apps.create({
        name: unique('wiki'),
        url: 'https://wiki.example.com/',
        owners: { users: [owner.user.id], teams: [] },
      });
      const [ann, bob] = await Promise.all([web.portal.createUser(), web.portal.createUser()]);
      await web.portal.admin.users.grant(ann.user.id, app.id);
      await web.portal.admin.users.grant(bob.user.id, app.id);
      const admin = await openPage(web.browser, viewport);
      const name = unique('Q4');
      try {
        const { page } = admin;
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        await goto(page, web.portal, '/reviews');
        await expect.poll(() => page.getByRole('heading', { name: 'Reviews', level: 1 }).isVisible()).toBe(true);
        await page.getByRole('button', { name: 'Start review' }).click();
        const dialog = page.getByRole('dialog', { name: 'Start review' });
        await expect.poll(() => dialog.isVisible()).toBe(true);
        await dialog.getByLabel('Review name').fill(name);
        await dialog.getByLabel(app.name).check();
        expect(await axeViolations(page), 'Start review dialog').toEqual([]);
        await screenshot(page, 'reviews-start');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() =>
            page
              .getByRole('alert')
              .filter({ hasText: `started review ${name}` })
              .isVisible(),
          )
          .toBe(true);
        await expect.poll(() => columnTexts(page, 'Reviews', 1)).toContain(name);
        await expect.poll(() => page.getByRole('progressbar', { name: `${name}: 0 of 2 decided` }).isVisible()).toBe(true);
        expect(await axeViolations(page), 'reviews').toEqual([]);
        await screenshot(page, 'reviews');

        await page.getByRole('link', { name }).click();
        await expect.poll(() => page.getByRole('heading', { name: `Review ${name}`, level: 1 }).isVisible()).toBe(true);
        await page.getByLabel('Not used in 90 days').check();
        await expect
          .poll(() => columnTexts(page, 'Review items', 2))
          .toEqual(expect.arrayContaining([expect.stringContaining(ann.email), expect.stringContaining(bob.email)]));
        await page.getByRole('checkbox', { name: 'Select all filtered items' }).check();
        await expect.poll(() => page.getByText('2 selected').isVisible()).toBe(true);
        expect(await axeViolations(page), 'review items').toEqual([]);
        await screenshot(page, 'review-items');
        await page.getByRole('button', { name: 'Remove', exact: true }).click();
        await expect.poll(() => page.getByRole('alert').filter({ hasText: 'marked for removal: 2 items' }).isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('progressbar', { name: `${name}: 2 of 2 decided` }).isVisible()).toBe(true);
      } finally {
        await admin.context.close();
      }

      // The owner: a second review waits for them, with its count in the portal's navigation.
      await web.portal.admin.reviews.start({
        name: unique('waiting'),
        apps: [app.id],
        reviewers: 'owners',
        due: new Date(Date.now() + 10 * 86_400_000).toISOString(),
        whenMissed: 'keep',
      });
      const ownerPage = await openPage(web.browser, viewport);
      try {
        const { page } = ownerPage;
        await signIn(page, web.portal, owner);
        await page.waitForURL(/#\/applist\/?$/);
        if (viewport === PHONE) await page.getByRole('button', { name: 'Toggle navigation' }).click();
        const entry = page.getByRole('link', { name: /^Reviews waiting for you/ });
        await expect.poll(() => entry.innerText()).toMatch(/Reviews waiting for you\s*2/);
        await entry.click();
        await expect.poll(() => page.getByRole('heading', { name: 'Reviews waiting for you', level: 1 }).isVisible()).toBe(true);
        await expect.poll(() => page.getByRole('main').getByRole('listitem').getByText('2 waiting').isVisible()).toBe(true);
        expect(await axeViolations(page), 'reviews waiting').toEqual([]);
        await screenshot(page, 'reviews-waiting');
      } finally {
        await ownerPage.context.close();
      }
    });
  }
});
