/**
 * A crash during a delivery loses nothing (docs/webhooks.md, Delivery): the portal process is
 * killed with SIGKILL while its receiver holds the request unanswered; a new process leaves the
 * delivery alone while the dead process's 60-second lease runs, then claims it and delivers it,
 * with the same webhook-id. Real server processes, on SQLite or PostgreSQL; the new process's
 * clock is moved past the lease rather than waited for.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movableClock, spawnServer, useProcessPortals } from './support/processes.js';
import { becomesTrue } from './support/support.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

// docs/webhooks.md, Delivery: a claim is a lease of 60 seconds.
const LEASE_MS = 60_000;

describe('webhooks through kill -9', () => {
  const portals = useProcessPortals({ WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_SECONDS: '1', WEBHOOK_RETRY_SECONDS: '1' });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  it('a delivery under way when the process dies is delivered by the next one after its lease', async () => {
    const first = await spawnServer(portals.env);
    let secret: string;
    let hookId: number;
    try {
      const api = await portals.signIn(first);
      receiver.answer = 'hold';
      const hook = await api.webhooks.create({ url: receiver.url, events: ['client.create'] });
      ({ secret, id: hookId } = hook);
      await api.clients.create('Crash Hooks Ltd');
      // The attempt is under way: the receiver has the request and does not answer.
      expect(await becomesTrue(async () => receiver.ofType('client.create').length === 1, 30_000, 50)).toBe(true);
    } finally {
      await first.kill();
    }
    receiver.answer = 200;

    const second = await spawnServer(portals.env, undefined, { nodeArgs: movableClock(LEASE_MS) });
    try {
      const api = await portals.signIn(second);
      // Its sender looks when it starts and every second after: the dead process's lease holds.
      expect((await api.webhooks.deliveries(hookId))[0]).toMatchObject({ status: 'pending', attempts: 1 });
      expect(receiver.ofType('client.create')).toHaveLength(1);
      // The dead process's lease runs out: claimed again at the next poll.
      second.moveClock();
      expect(await becomesTrue(async () => (await api.webhooks.deliveries(hookId))[0]?.status === 'delivered', 30_000, 200)).toBe(true);
      const requests = receiver.ofType('client.create');
      expect(requests).toHaveLength(2);
      expect(requests[1]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
      expect(requests[1]!.body).toBe(requests[0]!.body);
      expect(new Webhook(secret).verify(requests[1]!.body, requests[1]!.headers)).toEqual(requests[1]!.payload);
      expect((await api.webhooks.deliveries(hookId))[0]).toMatchObject({ attempts: 2, lastCode: 200 });
    } finally {
      await second.stop();
    }
  }, 150_000);
});
