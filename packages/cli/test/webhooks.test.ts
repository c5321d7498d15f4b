// toolsctl webhooks (docs/cli.md, docs/webhooks.md): list, create, test, deliveries, delete against
// a real portal delivering to a real receiver on 127.0.0.1.
import type { Webhook, WebhookDelivery, WebhookWithSecret } from '@tools-portal/core';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestPortal } from '../../server/test/support/support.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../server/test/support/webhook-receiver.js';
import { json, removeTempHomes, tempHome, toolsctl, type RunOptions } from './toolsctl.js';

let home: string;
let receiver: WebhookReceiver;
beforeAll(async () => {
  home = tempHome();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  removeTempHomes();
  await receiver?.stop();
});
const portal = useTestPortal({ WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_SECONDS: '1' });
const run = (args: string[], options: RunOptions = {}) =>
  toolsctl(home, args, { ...options, env: { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token, ...options.env } });

describe('toolsctl webhooks', () => {
  it('creates a hook and prints its secret once, lists it, tests it, lists its deliveries, deletes it', async () => {
    const created = await run(['webhooks', 'create', receiver.url, '--events', 'login., app.create', '--description', 'from the cli']);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/created webhook \d+ to http:\/\/127\.0\.0\.1:\d+\/hook for app\.create, login\./);
    expect(created.stdout).toContain('warning: plain http');
    const secret = /whsec_\S+/.exec(created.stdout)![0];
    const [hook] = json<Webhook[]>(await run(['webhooks', 'list', '--json']));
    expect(hook).toMatchObject({ url: receiver.url, events: ['app.create', 'login.'], description: 'from the cli', enabled: true });
    expect((await run(['webhooks', 'list'])).stdout).toMatch(/│ id\s+│ url\s+│ events\s+│ enabled/);

    const tested = await run(['webhooks', 'test', String(hook!.id)]);
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/delivered: the receiver answered 200 in \d+ ms/);
    const request = receiver.ofType('webhook.test')[0]!;
    expect(new Verifier(secret).verify(request.body, request.headers)).toEqual(request.payload);

    const deliveries = json<WebhookDelivery[]>(await run(['webhooks', 'deliveries', String(hook!.id), '--json']));
    expect(deliveries[0]).toMatchObject({ eventType: 'webhook.test', status: 'delivered', lastCode: 200 });
    expect((await run(['webhooks', 'deliveries', String(hook!.id)])).stdout).toContain('webhook.test');

    expect((await run(['webhooks', 'delete', String(hook!.id)], { input: '' })).code).toBe(2);
    expect((await run(['webhooks', 'delete', String(hook!.id), '--yes'])).code).toBe(0);
    expect(json<Webhook[]>(await run(['webhooks', 'list', '--json']))).toEqual([]);
  });

  it('prints only the secret with --quiet, and exits 1 for a refused URL and 4 for an unknown hook', async () => {
    const quiet = await run(['webhooks', 'create', receiver.url, '--events', 'mfa.', '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout.trim()).toMatch(/^whsec_\S+$/);
    const refused = await run(['webhooks', 'create', 'http://169.254.169.254/', '--events', 'login.']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/url: .*link-local/);
    expect((await run(['webhooks', 'test', '999999'])).code).toBe(4);
    expect((await run(['webhooks', 'deliveries', 'three'])).code).toBe(2);
    const created = json<WebhookWithSecret>(await run(['webhooks', 'create', receiver.url, '--events', 'user.', '--json']));
    expect(created.secret).toMatch(/^whsec_/);
  });
});
