/**
 * A crash during a delivery loses nothing (docs/webhooks.md, Delivery): the portal process is
 * killed with SIGKILL while its receiver holds the request unanswered; a new process claims the
 * delivery once the 60-second lease has run out and delivers it, with the same webhook-id. Real
 * server processes, on SQLite or PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PortalClient } from '@tools-portal/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testDialect } from './support/database.js';
import { spawnServer } from './support/processes.js';
import { becomesTrue } from './support/support.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

const ADMIN = { Email: 'admin@example.com', Password: 'crash test password' };

describe('webhooks through kill -9', () => {
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    let databaseUrl: string;
    if (testDialect() === 'postgres') {
      const database = await createPostgresDatabase();
      databaseUrl = database.url;
      cleanup = () => database.drop();
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-webhook-crash-'));
      databaseUrl = `sqlite:${path.join(dir, 'portal.db')}`;
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    env = {
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: ADMIN.Email,
      ADMIN_PASSWORD: ADMIN.Password,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_POLL_SECONDS: '1',
      WEBHOOK_RETRY_SECONDS: '1',
      SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
  });
  afterAll(async () => {
    await receiver?.stop();
    await cleanup?.();
  });

  it('a delivery under way when the process dies is delivered by the next one after its lease', async () => {
    const first = await spawnServer(env);
    let secret: string;
    let hookId: number;
    try {
      const { accesstoken } = await new PortalClient({ baseUrl: first.url }).auth.login(ADMIN);
      const api = new PortalClient({ baseUrl: first.url, token: accesstoken });
      receiver.answer = 'hold';
      const hook = await api.webhooks.create({ url: receiver.url, events: ['client.create'] });
      ({ secret, id: hookId } = hook);
      await api.clients.create('Crash Hooks Ltd');
      // The attempt is under way: the receiver has the request and does not answer.
      expect(await becomesTrue(async () => receiver.ofType('client.create').length === 1, 10_000, 50)).toBe(true);
    } finally {
      await first.kill();
    }
    receiver.answer = 200;

    const second = await spawnServer(env);
    try {
      const { accesstoken } = await new PortalClient({ baseUrl: second.url }).auth.login(ADMIN);
      const api = new PortalClient({ baseUrl: second.url, token: accesstoken });
      expect((await api.webhooks.deliveries(hookId))[0]).toMatchObject({ status: 'pending', attempts: 1 });
      // Claimed again once the dead process's 60-second lease has run out.
      expect(await becomesTrue(async () => (await api.webhooks.deliveries(hookId))[0]?.status === 'delivered', 80_000, 500)).toBe(true);
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
