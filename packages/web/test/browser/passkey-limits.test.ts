// The login screen when the server refuses to start a passkey sign-in: an address that started
// PASSKEY_CHALLENGES_PER_ADDRESS of them is told when to try again (429 from /passkey/options),
// not that its passkey was refused. The portal's PUBLIC_URL is http://localhost:PORT: Chromium
// refuses 127.0.0.1 as a passkey's relying party.
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, openPage, screenshot, useLocalhostBrowserPortal } from './support';

const web = useLocalhostBrowserPortal({ PASSKEY_CHALLENGES_PER_ADDRESS: '1' });

describe.skipIf(!chromiumAvailable)('Sign in with a passkey from an address past its limit', () => {
  it('says how long to wait, not that the passkey was refused', async () => {
    // This address's one passkey sign-in of the window, started outside the browser.
    const first = await fetch(`${web.origin}/api/auth/v1/passkey/options`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(first.status).toBe(200);
    const { context, page } = await openPage(web.browser);
    try {
      await page.goto(`${web.origin}/auth/#/login`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      const alerts = page.locator('.alert-stack');
      await expect.poll(() => alerts.innerText()).toContain('too many passkey sign-ins started from this address; try again in 5 minutes');
      expect(await alerts.innerText()).not.toContain('The passkey was not accepted.');
      await screenshot(page, '64-login-passkey-limit');
      expect(page.problems()).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
