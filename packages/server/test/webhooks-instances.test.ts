/**
 * Webhook deliveries across instances (docs/webhooks.md): two portals on one database, entries
 * written on both, every delivery made exactly once (one webhook-id, one request each).
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { becomesTrue, unique, useTwoPortals } from './support/support.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

describe('webhooks on two instances', () => {
  const { a, b } = useTwoPortals({ WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_SECONDS: '1', WEBHOOK_RETRY_SECONDS: '1' });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  it('delivers each entry once, whichever instance wrote it, signed with the secret made on the other', async () => {
    const hook = await a.admin.webhooks.create({ url: receiver.url, events: ['client.create'] });
    const names = Array.from({ length: 24 }, () => unique('twice'));
    await Promise.all(names.map((name, i) => (i % 2 ? a : b).admin.clients.create(name)));
    const mine = () => receiver.ofType('client.create').filter((request) => names.some((name) => String(request.payload.data.event).includes(name)));
    expect(await becomesTrue(async () => mine().length >= names.length, 20_000, 100)).toBe(true);
    // A few more polls of both senders: nothing arrives twice.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(mine()).toHaveLength(names.length);
    expect(new Set(mine().map((request) => request.headers['webhook-id'])).size).toBe(names.length);
    for (const request of mine()) expect(new Webhook(hook.secret).verify(request.body, request.headers)).toEqual(request.payload);
    const deliveries = await b.admin.webhooks.deliveries(hook.id);
    expect(deliveries.filter((delivery) => delivery.status === 'delivered' && delivery.attempts === 1)).toHaveLength(names.length);
  });
});
