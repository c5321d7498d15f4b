// The Webhooks screen (docs/webhooks.md) in a real browser: an admin creates a hook with the event
// picker, copies its secret shown once, sends a test to a real receiver on 127.0.0.1, reads the
// deliveries, rotates the secret, turns the hook off and deletes it; axe finds nothing at laptop
// and phone width; screenshots at both.
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../../../server/test/support/webhook-receiver.js';
import { ADMIN, LAPTOP, PHONE, axeViolations, chromiumAvailable, columnTexts, goto, openPage, screenshot, useBrowserPortal, signIn } from './support';

const web = useBrowserPortal({ env: { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_SECONDS: '1' }, page: LAPTOP });
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.stop();
});

const alertShown = (text: string | RegExp) => () => web.page.getByRole('alert').filter({ hasText: text }).first().isVisible();

describe.skipIf(!chromiumAvailable)('the Webhooks screen', () => {
  it('creates a hook with the event picker and shows its secret once', async () => {
    await signIn(web.page, web.portal, ADMIN);
    await web.page.waitForURL(/#\/applist\/?$/);
    // The console's sidebar: Admin console, then Webhooks.
    await web.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /^Admin console/ })
      .click();
    await web.page.getByRole('navigation', { name: 'Admin console' }).getByRole('link', { name: 'Webhooks', exact: true }).click();
    await web.page.waitForURL(/#\/webhooks$/);
    await expect.poll(() => web.page.getByRole('heading', { name: 'Webhooks' }).isVisible()).toBe(true);
    // Like the other console screens, it says under its title what it is for.
    expect(await web.page.getByText('Entries of the event log, sent to receivers of yours as they happen').isVisible()).toBe(true);
    await expect.poll(() => web.page.getByText('No webhooks yet.').isVisible()).toBe(true);

    await web.page.getByRole('button', { name: 'New Webhook' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'New Webhook' });
    // A link-local address is refused: the server's reason shows beside the URL.
    await dialog.getByLabel('URL').fill('http://169.254.169.254/latest/meta-data/');
    await dialog.getByLabel('every login. event').check();
    await dialog.getByRole('button', { name: 'Create Webhook' }).click();
    await expect.poll(() => dialog.getByText(/link-local/).isVisible()).toBe(true);
    await expect.poll(alertShown('failed to create new webhook')).toBe(true);

    await dialog.getByLabel('URL').fill(receiver.url);
    await dialog.getByLabel('Description (optional)').fill('SIEM');
    // A whole area covers its types, which the picker then shows ticked and fixed.
    expect(await dialog.getByLabel('login.failure', { exact: true }).isChecked()).toBe(true);
    expect(await dialog.getByLabel('login.failure', { exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel('app.create', { exact: true }).check();
    expect(await axeViolations(web.page), 'New Webhook dialog').toEqual([]);
    await screenshot(web.page, 'webhooks-new');
    await dialog.getByRole('button', { name: 'Create Webhook' }).click();

    const secretDialog = web.page.getByRole('dialog', { name: 'Signing secret' });
    await expect.poll(() => secretDialog.isVisible()).toBe(true);
    const secret = await secretDialog.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expect.poll(() => secretDialog.getByText(/plain http/).isVisible()).toBe(true);
    expect(await axeViolations(web.page), 'Signing secret dialog').toEqual([]);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => columnTexts(web.page, 'Webhooks', 2)).toEqual(['app.create, login.']);
    expect((await columnTexts(web.page, 'Webhooks', 1))[0]).toContain('plain http');
    expect(await columnTexts(web.page, 'Webhooks', 4)).toEqual(['enabled']);

    // Send test: delivered to the receiver, signed with the secret shown.
    await web.page.getByRole('button', { name: /^Send test to webhook/ }).click();
    await expect.poll(alertShown(/test delivered to webhook \d+: answered 200 in \d+ ms/)).toBe(true);
    const request = receiver.ofType('webhook.test')[0]!;
    expect(new Verifier(secret).verify(request.body, request.headers)).toEqual(request.payload);
    await expect.poll(() => columnTexts(web.page, 'Deliveries', 1)).toEqual(['webhook.test']);
    expect(await columnTexts(web.page, 'Deliveries', 2)).toEqual(['delivered']);
    expect(await axeViolations(web.page), 'Webhooks screen').toEqual([]);
    await screenshot(web.page, 'webhooks');
  });

  it('rotates the secret, turns the hook off and on, and deletes it', async () => {
    await web.page.getByRole('button', { name: /^Rotate secret of webhook/ }).click();
    const secretDialog = web.page.getByRole('dialog', { name: 'Signing secret' });
    await expect.poll(() => secretDialog.isVisible()).toBe(true);
    await expect.poll(alertShown(/rotated the signing secret of webhook \d+/)).toBe(true);
    await secretDialog.getByRole('button', { name: 'Done' }).click();

    await web.page.getByRole('button', { name: 'Disable', exact: true }).click();
    await expect.poll(() => columnTexts(web.page, 'Webhooks', 4)).toEqual(['disabled']);
    await web.page.getByRole('button', { name: 'Enable', exact: true }).click();
    await expect.poll(() => columnTexts(web.page, 'Webhooks', 4)).toEqual(['enabled']);

    await web.page.getByRole('button', { name: 'Delete', exact: true }).click();
    await web.page.getByRole('button', { name: 'Really?' }).click();
    await expect.poll(alertShown(/deleted webhook \d+/)).toBe(true);
    await expect.poll(() => web.page.getByText('No webhooks yet.').isVisible()).toBe(true);
  });

  it('has no axe violation on a phone, with a hook and its deliveries', async () => {
    const hook = await web.portal.admin.webhooks.create({ url: receiver.url, events: ['user.', 'mfa.enable'], description: 'Chat' });
    await web.portal.admin.webhooks.test(hook.id);
    const { context, page } = await openPage(web.browser, PHONE);
    try {
      await signIn(page, web.portal, ADMIN);
      await page.waitForURL(/#\/applist\/?$/);
      await goto(page, web.portal, '/webhooks');
      await expect.poll(() => columnTexts(page, 'Webhooks', 2)).toEqual(['mfa.enable, user.']);
      await page.getByRole('button', { name: `Deliveries of webhook ${hook.id}` }).click();
      await expect.poll(() => columnTexts(page, 'Deliveries', 1)).toEqual(['webhook.test']);
      expect(await axeViolations(page), 'Webhooks on a phone').toEqual([]);
      await screenshot(page, 'webhooks');
      await page.getByRole('button', { name: 'New Webhook' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'New Webhook' }).isVisible()).toBe(true);
      expect(await axeViolations(page), 'New Webhook on a phone').toEqual([]);
      await screenshot(page, 'webhooks-new');
    } finally {
      await context.close();
    }
  });
});
