// openPage hands a later test a context an earlier one closed (./kept-contexts.ts): it must be as
// a new one, and a context changed beyond a reset must not come back.
import { describe, expect, it } from 'vitest';
import { LAPTOP, PHONE, chromiumAvailable, goto, openPage, useBrowserPortal, type WatchedPage } from './support';

const web = useBrowserPortal();

describe.skipIf(!chromiumAvailable)('contexts kept between tests', () => {
  it('come back with no cookies, storage, permissions or listeners, blank, at the asked viewport', async () => {
    const first = await openPage(web.browser, LAPTOP);
    await goto(first.page, web.portal, '/login');
    await first.context.addCookies([{ name: 'left', value: 'behind', url: web.portal.url }]);
    await first.page.evaluate(() => {
      localStorage.setItem('left', 'behind');
      sessionStorage.setItem('left', 'behind');
    });
    await first.context.grantPermissions(['clipboard-read']);
    let heard = 0;
    first.page.on('request', () => heard++);
    await first.context.close();

    const second = await openPage(web.browser, PHONE);
    try {
      expect(second.context).toBe(first.context);
      expect(second.page.url()).toBe('about:blank');
      expect(second.page.viewportSize()).toEqual(PHONE);
      expect(await second.context.cookies()).toEqual([]);
      const heardBefore = heard;
      await goto(second.page, web.portal, '/login');
      expect(heard).toBe(heardBefore);
      expect(await second.page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
      const clipboard = await second.page.evaluate(() =>
        navigator.permissions.query({ name: 'clipboard-read' as PermissionName }).then((status) => status.state),
      );
      expect(clipboard).not.toBe('granted');
      await second.page.requestsDone();
      expect(second.page.problems()).toEqual([]);
    } finally {
      await second.context.close();
    }
  });

  it('are not kept once a test routed, scripted, opened a second page or installed a clock in them', async () => {
    for (const change of [
      (page: WatchedPage) => page.route('**/nothing', (route) => route.abort()),
      (page: WatchedPage) => page.context().addInitScript('window.changed = true'),
      (page: WatchedPage) => page.context().newPage(),
      (page: WatchedPage) => page.clock.install(),
    ]) {
      const changed = await openPage(web.browser, LAPTOP, { locale: 'en-GB' });
      await change(changed.page);
      await changed.context.close();
      const next = await openPage(web.browser, LAPTOP, { locale: 'en-GB' });
      try {
        expect(next.context).not.toBe(changed.context);
      } finally {
        await next.context.close();
      }
    }
  });

  it('are kept apart by their options: a German context is never handed to an English test', async () => {
    const german = await openPage(web.browser, LAPTOP, { locale: 'de-DE' });
    await german.context.close();
    const english = await openPage(web.browser, LAPTOP, { locale: 'en-US' });
    try {
      expect(english.context).not.toBe(german.context);
      expect(await english.page.evaluate(() => navigator.language)).toBe('en-US');
    } finally {
      await english.context.close();
    }
  });
});
