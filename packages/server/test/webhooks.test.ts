/**
 * Signed webhooks (docs/webhooks.md) against a real receiver on 127.0.0.1: the entry's delivery,
 * its Standard Webhooks signature checked by the `standardwebhooks` library, rotation, tests,
 * retries, 410, counted entries, destinations refused, and the 3-day rule on a fixed clock.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_DELIVERY_LIST_SIZE, type Webhook as Hook, type WebhookWithSecret } from '@tools-portal/core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logEvent, logRepeated } from '../src/services/log/audit.js';
import { claimDueDeliveries, deliverClaimed, DISABLE_AFTER_FAILING_MS, GIVE_UP_AFTER_MS, pruneDeliveries } from '../src/services/webhooks/deliveries.js';
import { queueDeliveries } from '../src/services/webhooks/fan-out.js';
import { addressProblem, resolveDestination } from '../src/webhooks/destinations.js';
import { DELIVERY_TIMEOUT_MS, MAX_ANSWER_BYTES, postWebhook } from '../src/webhooks/post.js';
import { startTestSmtp, type TestSmtp } from './support/smtp.js';
import { becomesTrue, createApp, failure, startTestPortal, unique, useTestPortal, type TestPortal } from './support/support.js';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

const FAST = { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_POLL_SECONDS: '1', WEBHOOK_RETRY_SECONDS: '1' };

describe('webhooks', () => {
  const portal = useTestPortal(FAST);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const hookFor = (events: string[], url = receiver.url) => portal.admin.webhooks.create({ url, events, description: 'test' });

  it('creates a hook with its secret shown once; lists, reads, changes and deletes it', async () => {
    const created = await hookFor(['login.', 'app.create']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created).toMatchObject({ url: receiver.url, events: ['app.create', 'login.'], description: 'test', enabled: true });
    expect(created.warning).toMatch(/plain http/);
    const { secret: _secret, ...hook } = created;
    expect(await portal.admin.webhooks.get(created.id)).toEqual(hook);
    expect(await portal.admin.webhooks.list()).toContainEqual(hook);
    expect(JSON.stringify(await portal.admin.webhooks.list())).not.toContain('whsec_');
    const changed = await portal.admin.webhooks.update(created.id, { events: ['user.'], description: 'changed', enabled: false });
    expect(changed).toMatchObject({ events: ['user.'], description: 'changed', enabled: false });
    await portal.admin.webhooks.delete(created.id);
    expect((await failure(portal.admin.webhooks.get(created.id))).code).toBe('not_found');
    expect((await failure(portal.admin.webhooks.deliveries(created.id))).code).toBe('not_found');
    const log = await portal.admin.logs.page(1, 10, { type: 'webhook.' });
    expect(log.map((entry) => entry.type)).toEqual(expect.arrayContaining(['webhook.create', 'webhook.update', 'webhook.delete']));
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const bad = async (input: unknown) => failure(portal.admin.request('POST', '/webhook', input));
    expect(await bad({ url: 'ftp://example.com/', events: ['login.'] })).toMatchObject({ code: 'invalid_input', field: 'url' });
    expect(await bad({ url: 'https://user:pw@example.com/', events: ['login.'] })).toMatchObject({ field: 'url' });
    expect(await bad({ url: receiver.url, events: [] })).toMatchObject({ field: 'events' });
    expect(await bad({ url: receiver.url, events: ['no.such_type'] })).toMatchObject({ field: 'events.0' });
    expect(await bad({ url: receiver.url, events: ['nothing.'] })).toMatchObject({ field: 'events.0' });
    expect(await bad({ url: receiver.url, events: ['webhook.test'] })).toMatchObject({ field: 'events.0' });
    expect(await bad({ url: receiver.url, events: 'login.' })).toMatchObject({ field: 'events' });
    expect(await bad({ url: receiver.url, events: ['login.'], description: 7 })).toMatchObject({ field: 'description' });
    expect((await failure(portal.admin.request('PUT', '/webhook/1', { enabled: 'yes' }))).field).toBe('enabled');
  });

  it('refuses link-local, multicast and unresolvable destinations at creation (loopback allowed by WEBHOOK_ALLOW_LOOPBACK)', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/', 'http://[::ffff:169.254.169.254]/', 'http://224.0.0.1/']) {
      const refused = await failure(portal.admin.webhooks.create({ url, events: ['login.'] }));
      expect(refused, url).toMatchObject({ code: 'invalid_input', field: 'url' });
    }
    expect(await failure(portal.admin.webhooks.create({ url: 'https://no-such-host.invalid/', events: ['login.'] }))).toMatchObject({ field: 'url' });
    const hook = await hookFor(['login.']);
    expect((await failure(portal.admin.webhooks.update(hook.id, { url: 'http://169.254.169.254/' }))).field).toBe('url');
    await portal.admin.webhooks.delete(hook.id);
  });

  it('delivers an entry signed by the Standard Webhooks library, data as the JSON Lines export writes it', async () => {
    const hook = await hookFor(['app.create']);
    const app = await createApp(portal.admin);
    expect(await becomesTrue(async () => receiver.ofType('app.create').some((request) => request.body.includes(app.name)), 10_000, 100)).toBe(true);
    const request = receiver.ofType('app.create').find((one) => one.body.includes(app.name))!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toMatch(/^msg_/);
    expect(request.headers['webhook-signature']).toMatch(/^v1,\S+$/);
    // The library accepts our signature...
    expect(new Webhook(hook.secret).verify(request.body, request.headers)).toEqual(request.payload);
    // ...and refuses a tampered body, another secret, and (5 minutes later) an old timestamp.
    expect(() => new Webhook(hook.secret).verify(request.body.replace(app.name, 'other'), request.headers)).toThrow();
    const other = (await hookFor(['user.create'])) as WebhookWithSecret;
    expect(() => new Webhook(other.secret).verify(request.body, request.headers)).toThrow();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60 * 1000 });
    try {
      expect(() => new Webhook(hook.secret).verify(request.body, request.headers)).toThrow(/timestamp/i);
    } finally {
      vi.useRealTimers();
    }
    const exported = await (await portal.admin.logs.export('jsonl', { type: 'app.create', q: app.name })).text();
    expect(request.payload).toEqual({ type: 'app.create', timestamp: JSON.parse(exported).timestamp, data: JSON.parse(exported) });
    expect(await becomesTrue(async () => (await portal.admin.webhooks.deliveries(hook.id))[0]?.status === 'delivered', 5000, 100)).toBe(true);
    const [delivery] = await portal.admin.webhooks.deliveries(hook.id);
    expect(delivery).toMatchObject({ eventType: 'app.create', status: 'delivered', attempts: 1, lastCode: 200, error: null });
    expect(delivery!.durationMs).toBeGreaterThanOrEqual(0);
    expect(delivery!.deliveredAt).not.toBeNull();
    await portal.admin.webhooks.delete(hook.id);
    await portal.admin.webhooks.delete(other.id);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const hook = await hookFor(['app.update']);
    const rotated = await portal.admin.webhooks.rotateSecret(hook.id);
    expect(rotated.secret).not.toBe(hook.secret);
    const delivery = await portal.admin.webhooks.test(hook.id);
    expect(delivery).toMatchObject({ eventType: 'webhook.test', status: 'delivered', attempts: 1, lastCode: 200 });
    const request = receiver.ofType('webhook.test').at(-1)!;
    expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(rotated.secret).verify(request.body, request.headers)).toEqual(request.payload);
    expect(new Webhook(hook.secret).verify(request.body, request.headers)).toEqual(request.payload);
    expect(request.payload.data).toMatchObject({ type: 'webhook.test', actor: 'admin@example.com' });
    await portal.admin.webhooks.delete(hook.id);
  });

  it('sends a test only to the hook tested, and answers its failure', async () => {
    const tested = await hookFor(['webhook.']);
    const bystander = await hookFor(['webhook.']);
    receiver.answer = 503;
    try {
      const delivery = await portal.admin.webhooks.test(tested.id);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastCode: 503, error: 'answered 503: answered 503' });
    } finally {
      receiver.answer = 200;
    }
    const bystanderTests = (await portal.admin.webhooks.deliveries(bystander.id)).filter((one) => one.eventType === 'webhook.test');
    expect(bystanderTests).toEqual([]);
    await portal.admin.webhooks.delete(tested.id);
    await portal.admin.webhooks.delete(bystander.id);
  });

  it('retries while the receiver is down and delivers once it is up', async () => {
    const down = await startWebhookReceiver({ running: false });
    const hook = await portal.admin.webhooks.create({ url: down.url, events: ['client.create'] });
    try {
      const name = unique('down');
      await portal.admin.clients.create(name);
      expect(await becomesTrue(async () => ((await portal.admin.webhooks.deliveries(hook.id))[0]?.attempts ?? 0) >= 2, 10_000, 100)).toBe(true);
      const [failing] = await portal.admin.webhooks.deliveries(hook.id);
      expect(failing).toMatchObject({ status: 'pending', lastCode: null });
      expect(failing!.error).toMatch(/ECONNREFUSED/);
      // Waiting: counted in the metrics.
      const metrics = await (await portal.fetch('/metrics')).text();
      expect(Number(/^portal_webhook_queue_length (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
      await down.start();
      expect(await becomesTrue(async () => (await portal.admin.webhooks.deliveries(hook.id))[0]?.status === 'delivered', 15_000, 200)).toBe(true);
      expect(down.received).toHaveLength(1);
      expect(down.received[0]!.payload.data.event).toContain(name);
    } finally {
      await portal.admin.webhooks.delete(hook.id);
      await down.stop();
    }
  });

  it('turns a hook off when its receiver answers 410, and back on with PUT enabled', async () => {
    const gone = await startWebhookReceiver();
    gone.answer = 410;
    const hook = await portal.admin.webhooks.create({ url: gone.url, events: ['client.create'] });
    try {
      await portal.admin.clients.create(unique('gone'));
      expect(await becomesTrue(async () => !(await portal.admin.webhooks.get(hook.id)).enabled, 10_000, 100)).toBe(true);
      expect((await portal.admin.webhooks.deliveries(hook.id))[0]).toMatchObject({ status: 'failed', lastCode: 410 });
      expect((await portal.admin.logs.page(1, 5, { type: 'webhook.disable' }))[0]!.event).toMatch(/410 Gone/);
      // Off: no delivery of new entries.
      await portal.admin.clients.create(unique('gone'));
      expect(await portal.admin.webhooks.deliveries(hook.id)).toHaveLength(1);
      gone.answer = 200;
      expect((await portal.admin.webhooks.update(hook.id, { enabled: true })).enabled).toBe(true);
      const name = unique('back');
      await portal.admin.clients.create(name);
      expect(await becomesTrue(async () => gone.received.some((request) => request.body.includes(name)), 10_000, 100)).toBe(true);
    } finally {
      await portal.admin.webhooks.delete(hook.id);
      await gone.stop();
    }
  });

  it('delivers a counted entry once, with its final count, when its group has ended', async () => {
    const hook = await hookFor(['verify.denied']);
    const audit = { actor: null, ip: '192.0.2.7', userAgent: 'counting' };
    const group = { key: unique('group'), endsAt: Date.now() + 500 };
    for (let i = 0; i < 3; i++) await logRepeated(portal.deps.db, audit, { type: 'verify.denied', event: `forward auth denied: ${group.key}`, group });
    expect(await becomesTrue(async () => receiver.received.some((request) => request.body.includes(group.key)), 12_000, 200)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const requests = receiver.received.filter((request) => request.body.includes(group.key));
    expect(requests).toHaveLength(1);
    expect(requests[0]!.payload.data.count).toBe(3);
    await portal.admin.webhooks.delete(hook.id);
  });

  it('answers 404 for unknown hooks and lists at most 100 deliveries', async () => {
    // One call at a time: a call made before the previous one is awaited could reject unobserved.
    for (const call of [() => portal.admin.webhooks.get(999999), () => portal.admin.webhooks.test(999999), () => portal.admin.webhooks.rotateSecret(999999)]) {
      expect((await failure(call())).code).toBe('not_found');
    }
    expect(WEBHOOK_DELIVERY_LIST_SIZE).toBe(100);
  });
});

describe('webhook destinations', () => {
  it('refuses loopback without WEBHOOK_ALLOW_LOOPBACK, link-local always, private addresses never', async () => {
    expect(addressProblem('127.0.0.1', false)).toMatch(/loopback/);
    expect(addressProblem('::1', false)).toMatch(/loopback/);
    expect(addressProblem('0.0.0.0', false)).toMatch(/loopback/);
    expect(addressProblem('::ffff:127.0.0.1', false)).toMatch(/loopback/);
    expect(addressProblem('64:ff9b::a9fe:a9fe', true)).toMatch(/link-local/);
    expect(addressProblem('169.254.169.254', true)).toMatch(/link-local/);
    expect(addressProblem('fe80::1', true)).toMatch(/link-local/);
    expect(addressProblem('127.0.0.1', true)).toBeNull();
    for (const address of ['10.0.0.1', '172.16.5.4', '192.168.1.1', 'fd00::1', '100.64.0.1', '93.184.216.34']) {
      expect(addressProblem(address, false), address).toBeNull();
    }
    // A name is judged by what it resolves to.
    await expect(resolveDestination(new URL('http://localhost:8080/'), { allowLoopback: false, timeoutMs: 5000 })).rejects.toThrow(
      /localhost resolves to .*loopback/,
    );
  });

  it('a portal without WEBHOOK_ALLOW_LOOPBACK refuses a receiver on 127.0.0.1', async () => {
    const strict = await startTestPortal();
    try {
      const refused = await failure(strict.admin.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['login.'] }));
      expect(refused).toMatchObject({ code: 'invalid_input', field: 'url' });
      expect(refused.message).toMatch(/WEBHOOK_ALLOW_LOOPBACK/);
    } finally {
      await strict.close();
    }
  });
});

describe('an attempt', () => {
  const servers: http.Server[] = [];
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  async function serve(handler: http.RequestListener): Promise<string> {
    const server = http.createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }
  const post = (url: string) => postWebhook({ url, headers: { 'content-type': 'application/json' }, body: '{}', allowLoopback: true });

  it('does not follow a redirect', async () => {
    let followed = false;
    const target = await serve((_request, response) => {
      followed = true;
      response.end();
    });
    const url = await serve((_request, response) => response.writeHead(307, { location: target }).end());
    expect(await post(url)).toMatchObject({ code: 307, error: 'answered 307: redirects are not followed' });
    expect(followed).toBe(false);
  });

  it('reads at most 64 KB of an answer', async () => {
    let finished = false;
    const url = await serve((_request, response) => {
      response.writeHead(500);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      // 64 MB unless the portal stops reading: it closes the connection after the first 64 KB.
      let written = 0;
      const more = () => {
        while (written < 1024 && !response.destroyed) {
          written++;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        if (!response.destroyed) response.end(() => (finished = true));
      };
      more();
    });
    const outcome = await post(url);
    expect(outcome.code).toBe(500);
    expect(outcome.error).toBe(`answered 500: ${'x'.repeat(200)}`);
    expect(MAX_ANSWER_BYTES).toBe(64 * 1024);
    expect(finished).toBe(false);
  });

  it('gives up after 5 seconds without an answer', async () => {
    const url = await serve(() => {});
    const outcome = await post(url);
    expect(outcome).toMatchObject({ code: null, error: 'no answer within 5 s' });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS - 50);
    expect(outcome.durationMs).toBeLessThan(DELIVERY_TIMEOUT_MS + 2000);
  }, 15_000);
});

describe('webhooks on a fixed clock', () => {
  let smtp: TestSmtp;
  let portal: TestPortal;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    smtp = await startTestSmtp();
    receiver = await startWebhookReceiver();
    // Polls rarely: this test claims and delivers itself, at times of its choosing.
    portal = await startTestPortal({ ...FAST, WEBHOOK_POLL_SECONDS: '3600', SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '1' });
  });
  afterAll(async () => {
    await portal?.close();
    await receiver?.stop();
    await smtp?.stop();
  });

  // A year ahead: the portal's own sender (on the real clock) never finds these due.
  const start = Date.now() + 365 * 24 * 60 * 60 * 1000;
  const context = (now: number) => ({ db: portal.deps.db, secrets: portal.deps.secrets, policy: portal.deps.config, now: () => now });
  async function entryAt(hook: Hook, now: number): Promise<void> {
    // An entry of a type no hook takes, queued by hand for the hook at `now`.
    const logId = await logEvent(portal.deps.db, { actor: null, ip: '', userAgent: '' }, { type: 'mail.failed', event: `entry for hook ${hook.id}` });
    await queueDeliveries(portal.deps.db, { logId, type: 'log.prune', now, dueAt: now });
  }
  async function attemptAt(now: number) {
    const rows = await claimDueDeliveries(portal.deps.db, 10, now);
    for (const row of rows) await deliverClaimed(context(now), row);
    return rows.length;
  }

  it('gives a delivery up after 24 hours, and turns off a hook whose deliveries all failed for 3 days, mailing the admins', async () => {
    receiver.answer = 500;
    const hook = await portal.admin.webhooks.create({ url: receiver.url, events: ['log.prune'] });
    await entryAt(hook, start);
    expect(await attemptAt(start)).toBeGreaterThanOrEqual(1);
    const [first] = await portal.admin.webhooks.deliveries(hook.id);
    expect(first).toMatchObject({ status: 'pending', attempts: 1, lastCode: 500 });
    // Retried with backoff; given up once 24 hours have passed.
    await attemptAt(start + 60_000);
    await attemptAt(start + GIVE_UP_AFTER_MS);
    expect((await portal.admin.webhooks.deliveries(hook.id)).find((one) => one.createdAt === new Date(start).toISOString())).toMatchObject({
      status: 'failed',
      attempts: 3,
    });
    expect((await portal.admin.webhooks.get(hook.id)).enabled).toBe(true);
    // A new entry two days later fails too; three days after the first failure the hook is off.
    await entryAt(hook, start + 2 * GIVE_UP_AFTER_MS);
    await attemptAt(start + 2 * GIVE_UP_AFTER_MS);
    expect((await portal.admin.webhooks.get(hook.id)).enabled).toBe(true);
    await attemptAt(start + DISABLE_AFTER_FAILING_MS);
    expect((await portal.admin.webhooks.get(hook.id)).enabled).toBe(false);
    expect((await portal.admin.logs.page(1, 5, { type: 'webhook.disable' }))[0]!.event).toMatch(/every delivery failed for 3 days/);
    // Queued for the admins in the same transaction (due on the fixed clock, a year ahead).
    const mails = (await portal.admin.mail.list()).filter((mail) => mail.subject === `Webhook ${hook.id} turned off`);
    expect(mails.map((mail) => mail.to)).toEqual(['admin@example.com']);
    receiver.answer = 200;
  });

  it('a success clears the failures: the 3 days count from the first failure after it', async () => {
    receiver.answer = 500;
    const hook = await portal.admin.webhooks.create({ url: receiver.url, events: ['log.prune'] });
    await entryAt(hook, start);
    await attemptAt(start);
    receiver.answer = 200;
    await entryAt(hook, start + 2 * GIVE_UP_AFTER_MS);
    await attemptAt(start + 2 * GIVE_UP_AFTER_MS);
    receiver.answer = 500;
    await entryAt(hook, start + DISABLE_AFTER_FAILING_MS);
    await attemptAt(start + DISABLE_AFTER_FAILING_MS);
    expect((await portal.admin.webhooks.get(hook.id)).enabled).toBe(true);
    receiver.answer = 200;
  });

  it("keeps a failed delivery's body 7 days, a delivered one not at all, and forgets finished deliveries after 30 days", async () => {
    receiver.answer = 500;
    const hook = await portal.admin.webhooks.create({ url: receiver.url, events: ['log.prune'] });
    const at = start + 400 * 24 * 60 * 60 * 1000;
    await entryAt(hook, at);
    await attemptAt(at);
    await attemptAt(at + GIVE_UP_AFTER_MS);
    receiver.answer = 200;
    await entryAt(hook, at);
    await attemptAt(at + GIVE_UP_AFTER_MS);
    const bodies = async () =>
      (await portal.deps.db('webhook_deliveries').where({ webhook_id: hook.id }).orderBy('id').select('status', 'body')).map(
        (row: { status: string; body: string | null }) => [row.status, row.body !== null],
      );
    expect(await bodies()).toEqual([
      ['failed', true],
      ['delivered', false],
    ]);
    await pruneDeliveries(portal.deps.db, at + 6 * 24 * 60 * 60 * 1000);
    expect(await bodies()).toEqual([
      ['failed', true],
      ['delivered', false],
    ]);
    await pruneDeliveries(portal.deps.db, at + 8 * 24 * 60 * 60 * 1000);
    expect(await bodies()).toEqual([
      ['failed', false],
      ['delivered', false],
    ]);
    await pruneDeliveries(portal.deps.db, at + 31 * 24 * 60 * 60 * 1000);
    expect(await portal.admin.webhooks.deliveries(hook.id)).toEqual([]);
  });

  it('a receiver down for 10 minutes gets the delivery at the first retry after it is back (backoff 1, 2, 4, 8 minutes)', async () => {
    const hook = await portal.admin.webhooks.create({ url: receiver.url, events: ['log.prune'] });
    const t0 = start + 500 * 24 * 60 * 60 * 1000;
    const backUpAt = t0 + 10 * 60_000;
    // The default backoff (WEBHOOK_RETRY_SECONDS=60), not this portal's fast one.
    const policy = { ...portal.deps.config, webhooks: { ...portal.deps.config.webhooks, retrySeconds: 60 } };
    await entryAt(hook, t0);
    const attempts: number[] = [];
    let now = t0;
    for (let step = 0; step < 10; step++) {
      receiver.answer = now < backUpAt ? 503 : 200;
      // Deliveries of the tests before, due by now, go too; this hook's is the one followed.
      const rows = await claimDueDeliveries(portal.deps.db, 10, now);
      for (const other of rows) await deliverClaimed({ ...context(now), policy }, other);
      const row = rows.find((one) => Number(one.webhook_id) === hook.id);
      if (!row) break;
      attempts.push((now - t0) / 60_000);
      const after = await portal.deps.db('webhook_deliveries').where({ id: row.id }).first('status', 'next_attempt_at');
      if (after.status !== 'queued') break;
      now = Number(after.next_attempt_at);
    }
    receiver.answer = 200;
    expect(attempts).toEqual([0, 1, 3, 7, 15]);
    expect((await portal.admin.webhooks.deliveries(hook.id))[0]).toMatchObject({ status: 'delivered', attempts: 5, lastCode: 200 });
    expect((await portal.admin.webhooks.get(hook.id)).enabled).toBe(true);
  });

  it('checks the resolved address again at every delivery: a name that now resolves to a refused address gets nothing', async () => {
    const port = new URL(receiver.url).port;
    const hook = await portal.admin.webhooks.create({ url: `http://localhost:${port}/hook`, events: ['log.prune'] });
    const at = start + 600 * 24 * 60 * 60 * 1000;
    await entryAt(hook, at);
    const before = receiver.received.length;
    // As if the name had moved to a refused address since creation: this delivery's check refuses it.
    const strict = { ...portal.deps.config, webhooks: { ...portal.deps.config.webhooks, allowLoopback: false } };
    for (const row of await claimDueDeliveries(portal.deps.db, 10, at)) await deliverClaimed({ ...context(at), policy: strict }, row);
    expect(receiver.received).toHaveLength(before);
    const [refused] = await portal.admin.webhooks.deliveries(hook.id);
    expect(refused).toMatchObject({ status: 'pending', lastCode: null });
    expect(refused!.error).toMatch(/^localhost resolves to .* a loopback address/);
  });
});
