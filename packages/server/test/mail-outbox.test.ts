/**
 * The outbox (docs/email.md): mail queued in the database is delivered by the senders of every
 * instance exactly once, survives an SMTP outage, and gives up after 24 hours with an event.
 */
import { ConfigError, loadConfig } from '@tools-portal/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDue, enqueueMail, GIVE_UP_AFTER_MS, KEEP_DONE_MS, markFailed, markSent, pruneOutbox, retryDelayMs } from '../src/services/mail/outbox.js';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { startTestSmtp, type TestSmtp } from './support/smtp.js';
import { becomesTrue, failure, startTestPortal, unique, useTestPortal, type TestPortal } from './support/support.js';

const FAST = { MAIL_POLL_SECONDS: '1', MAIL_RETRY_SECONDS: '1' };

const message = (to: string, subject = unique('subject')) => ({ kind: 'test', to, subject, text: `text of ${subject}`, html: `<p>html of ${subject}</p>` });

describe('mail configuration', () => {
  it("is off without SMTP_URL, and MAIL_FROM defaults to no-reply at PUBLIC_URL's host", () => {
    expect(loadConfig({}).mail).toBeUndefined();
    expect(loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.com:587', PUBLIC_URL: 'https://tools.example.com' }).mail).toEqual({
      smtpUrl: 'smtp://u:p@mail.example.com:587',
      from: 'Tools-Server <no-reply@tools.example.com>',
      pollSeconds: 10,
      retrySeconds: 60,
    });
    // The display name is PORTAL_NAME, quoted when it holds what a From header reads as syntax.
    const from = (name: string) => loadConfig({ SMTP_URL: 'smtp://mail.example.com', PUBLIC_URL: 'https://tools.example.com', PORTAL_NAME: name }).mail?.from;
    expect(from('Acme Tools')).toBe('Acme Tools <no-reply@tools.example.com>');
    expect(from('Acme, Inc. "Tools"')).toBe('"Acme, Inc. \\"Tools\\"" <no-reply@tools.example.com>');
  });

  it('refuses a bad SMTP_URL (without echoing its password) and a MAIL_FROM that could add a header', () => {
    let problems = '';
    try {
      loadConfig({ SMTP_URL: 'http://user:secret@mail.example.com', MAIL_FROM: 'a@example.com\r\nBcc: all@example.com', MAIL_RETRY_SECONDS: '0' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems.join('\n');
    }
    expect(problems).toContain('SMTP_URL must be smtp://');
    expect(problems).not.toContain('secret');
    expect(problems).toContain('MAIL_FROM must be');
    expect(problems).toContain('MAIL_RETRY_SECONDS');
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.com', MAIL_FROM: 'ops@example.com' }).mail?.from).toBe('ops@example.com');
  });
});

describe('delivery', () => {
  let smtp: TestSmtp;
  const env: Record<string, string> = { ...FAST };
  beforeAll(async () => {
    smtp = await startTestSmtp({ user: 'mailer', pass: 'p@ss:word/1' });
    env.SMTP_URL = smtp.url;
    env.MAIL_FROM = 'Tools Portal <tools@example.com>';
  });
  afterAll(async () => smtp?.stop());
  const portal = useTestPortal(env);

  it('delivers a queued mail with the configured sender, through SMTP AUTH, and keeps no body', async () => {
    const to = `${unique('to')}@example.com`;
    const mail = message(to);
    await portal.deps.db.transaction((trx) => enqueueMail({ db: trx, policy: portal.deps.config, now: Date.now }, mail));
    const [arrived] = await smtp.waitFor(to);
    expect(arrived.subject).toBe(mail.subject);
    expect(arrived.parsed.from?.value[0]).toMatchObject({ name: 'Tools Portal', address: 'tools@example.com' });
    expect(arrived.text.trim()).toBe(mail.text);
    expect(arrived.html).toContain(mail.html);

    expect(await becomesTrue(async () => (await portal.admin.mail.list()).some((entry) => entry.to === to && entry.status === 'sent'), 5000)).toBe(true);
    const entry = (await portal.admin.mail.list()).find((row) => row.to === to)!;
    expect(entry).toMatchObject({ kind: 'test', subject: mail.subject, attempts: 1, lastError: null, nextAttemptTimestamp: null });
    expect(Object.keys(entry)).not.toContain('text');
    const row = await portal.deps.db('mail_outbox').where({ recipient: to }).first();
    expect([row.text_body, row.html_body]).toEqual([null, null]);
  });

  it('queues nothing when the transaction that caused the mail rolls back', async () => {
    const to = `${unique('rolled-back')}@example.com`;
    await expect(
      portal.deps.db.transaction(async (trx) => {
        await enqueueMail({ db: trx, policy: portal.deps.config, now: Date.now }, message(to));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await portal.deps.db('mail_outbox').where({ recipient: to }).select('id')).toEqual([]);
  });

  it('shows the queue to admins only', async () => {
    const user = await portal.createUser();
    expect((await failure(user.api.mail.list())).code).toBe('forbidden');
    expect((await failure(portal.anonymous.mail.list())).code).toBe('unauthenticated');
  });
});

describe('without SMTP_URL', () => {
  const portal = useTestPortal();
  it('queues nothing and the queue is empty', async () => {
    expect(await enqueueMail({ db: portal.deps.db, policy: portal.deps.config, now: Date.now }, message('nobody@example.com'))).toBe(false);
    expect(await portal.admin.mail.list()).toEqual([]);
  });
});

describe('an SMTP outage with two instances on one database', () => {
  let smtp: TestSmtp;
  let database: TestDatabase;
  let a: TestPortal;
  let b: TestPortal;
  beforeAll(async () => {
    smtp = await startTestSmtp({ running: false });
    database = createTestDatabase();
    const env = { ...FAST, SMTP_URL: smtp.url };
    a = await startTestPortal(env, { database });
    b = await startTestPortal(env, { database });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database?.drop();
    await smtp?.stop();
  });

  it('delays every mail while SMTP is down, then delivers each exactly once', async () => {
    const to = (i: number) => `outage-${i}@example.com`;
    const count = 30;
    for (let i = 0; i < count; i++) {
      const portal = i % 2 === 0 ? a : b;
      await portal.deps.db.transaction((trx) => enqueueMail({ db: trx, policy: portal.deps.config, now: Date.now }, message(to(i), `outage mail ${i}`)));
    }
    // Both senders have tried and failed (a last error on every row), and nothing was lost.
    // (The admin's sign-in on B, a browser new to the account, queued a notice of its own.)
    const outage = async (portal: TestPortal) => (await portal.admin.mail.list()).filter((entry) => entry.kind === 'test');
    expect(await becomesTrue(async () => (await outage(a)).filter((entry) => entry.lastError !== null).length === count, 15_000)).toBe(true);
    const queued = await outage(b);
    expect(queued.every((entry) => (entry.status === 'queued' || entry.status === 'sending') && entry.attempts >= 1)).toBe(true);

    await smtp.start();
    const arrived = () => smtp.received.filter((mail) => mail.subject.startsWith('outage mail'));
    expect(await becomesTrue(async () => arrived().length >= count, 20_000, 100)).toBe(true);
    // A few more polls of both senders: nothing arrives twice.
    expect(await becomesTrue(async () => (await outage(a)).every((entry) => entry.status === 'sent'), 10_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(
      arrived()
        .map((mail) => mail.subject)
        .sort(),
    ).toEqual(Array.from({ length: count }, (_, i) => `outage mail ${i}`).sort());
    expect(new Set(arrived().map((mail) => mail.messageId)).size).toBe(count);
  });
});

describe('giving up', () => {
  // Nothing listens on this port: every attempt fails.
  const portal = useTestPortal({ ...FAST, SMTP_URL: 'smtp://127.0.0.1:9' });

  it('backs off 1, 2, 4 … times the base, at most an hour', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(60, attempts))).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(60, 40)).toBe(60 * 60 * 1000);
  });

  it('retries until 24 hours after queueing, then marks the mail failed, drops its body and logs an event', async () => {
    const db = portal.deps.db;
    // Queued "in the future", out of reach of the running sender; the clock is passed by hand.
    const start = Date.now() + 10 * GIVE_UP_AFTER_MS;
    const to = `${unique('give-up')}@example.com`;
    await enqueueMail({ db, policy: portal.deps.config, now: () => start }, message(to, 'will fail'));

    const [first] = await claimDue(db, 10, start);
    expect(first).toMatchObject({ recipient: to, attempts: 1, status: 'sending' });
    // A second sender finds nothing to claim while the first holds the row.
    expect(await claimDue(db, 10, start)).toEqual([]);
    expect(await markFailed(db, { row: first, error: 'connection refused', retrySeconds: 60, now: start })).toBe(false);
    let row = await db('mail_outbox').where({ id: first.id }).first();
    expect(row).toMatchObject({ status: 'queued', last_error: 'connection refused' });
    expect(Number(row.next_attempt_at)).toBe(start + 60_000);

    const late = start + GIVE_UP_AFTER_MS;
    const [last] = await claimDue(db, 10, late);
    expect(last.id).toBe(first.id);
    expect(await markFailed(db, { row: last, error: 'connection refused', retrySeconds: 60, now: late })).toBe(true);
    row = await db('mail_outbox').where({ id: first.id }).first();
    expect(row).toMatchObject({ status: 'failed', attempts: 2, text_body: null, html_body: null });
    expect(await claimDue(db, 10, late + GIVE_UP_AFTER_MS)).toEqual([]);
    const events = await portal.admin.logs.page(1, 20);
    expect(events.find((event) => event.user === to)?.event).toMatch(/^mail failed: will fail to .* after 2 attempts \(connection refused\)$/);
  });

  it('a row whose sender crashed mid-delivery is claimed again once its lease runs out', async () => {
    const db = portal.deps.db;
    const start = Date.now() + 20 * GIVE_UP_AFTER_MS;
    const to = `${unique('lease')}@example.com`;
    await enqueueMail({ db, policy: portal.deps.config, now: () => start }, message(to));
    const [claimed] = await claimDue(db, 10, start);
    expect(await claimDue(db, 10, start + 60_000)).toEqual([]);
    const [again] = await claimDue(db, 10, start + 10 * 60_000);
    expect(again).toMatchObject({ id: claimed.id, attempts: 2 });
  });

  it('forgets delivered and given-up mail after 30 days, never queued mail', async () => {
    const db = portal.deps.db;
    const start = Date.now() + 40 * GIVE_UP_AFTER_MS;
    const [sent, queued] = [`${unique('old-sent')}@example.com`, `${unique('old-queued')}@example.com`];
    await enqueueMail({ db, policy: portal.deps.config, now: () => start }, message(sent));
    const row = (await claimDue(db, 10, start)).find((claimed) => claimed.recipient === sent)!;
    await markSent(db, row, start);
    await enqueueMail({ db, policy: portal.deps.config, now: () => start + KEEP_DONE_MS * 2 }, message(queued));
    await pruneOutbox(db, start + KEEP_DONE_MS - 1);
    expect(await db('mail_outbox').whereIn('recipient', [sent, queued]).pluck('recipient')).toHaveLength(2);
    await pruneOutbox(db, start + KEEP_DONE_MS + 1);
    expect(await db('mail_outbox').whereIn('recipient', [sent, queued]).pluck('recipient')).toEqual([queued]);
  });
});
