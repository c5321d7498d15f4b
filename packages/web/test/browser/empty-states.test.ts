// Empty states (issue 27, item 4) on a portal of its own, fresh: an admin of a portal without apps
// sees Get started; a user without apps sees "You don't have any apps yet" with Request access.
import { describe, expect, it } from 'vitest';
import { ADMIN, LAPTOP, PHONE, axeViolations, chromiumAvailable, openPage, screenshot, useBrowserPortal, signIn } from './support';

const web = useBrowserPortal();

describe.skipIf(!chromiumAvailable)('empty states', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    it(`a fresh admin gets started: add an app, invite someone, or toolsctl seed (${viewport.width} px)`, async () => {
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, ADMIN);
        await page.waitForURL(/#\/applist\/?$/);
        await expect.poll(() => page.getByRole('heading', { name: 'Get started' }).isVisible()).toBe(true);
        expect(await page.getByRole('link', { name: 'Invite someone' }).getAttribute('href')).toBe('#/registrationtokens');
        await expect.poll(() => page.getByText('toolsctl seed fixtures/demo.json').isVisible()).toBe(true);
        expect(await axeViolations(page), 'get started').toEqual([]);
        await screenshot(page, '70-get-started');
        await page.getByRole('link', { name: 'Add an app' }).click();
        await expect.poll(() => page.getByRole('dialog', { name: 'New App' }).isVisible()).toBe(true);
        expect(page.url()).toMatch(/#\/manage\/apps$/);
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByText('No apps yet: New App adds the first.').isVisible()).toBe(true);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it(`a user without apps is told so, with Request access first and who to ask (${viewport.width} px)`, async () => {
      const member = await web.portal.createUser();
      const { context, page } = await openPage(web.browser, viewport);
      try {
        await signIn(page, web.portal, member);
        await page.waitForURL(/#\/applist\/?$/);
        await expect.poll(() => page.getByRole('heading', { name: "You don't have any apps yet" }).isVisible()).toBe(true);
        const request = page.getByRole('main').getByRole('link', { name: 'Request access' });
        expect(await request.getAttribute('class')).toContain('btn-primary');
        await expect.poll(() => page.getByText('Ask the admins of this portal').isVisible()).toBe(true);
        expect(await page.getByRole('searchbox', { name: 'Search apps' }).count()).toBe(0);
        expect(await axeViolations(page), 'no apps yet').toEqual([]);
        await screenshot(page, '71-no-apps-yet');
        await request.click();
        await page.waitForURL(/#\/requests$/);
        expect(page.problems()).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
