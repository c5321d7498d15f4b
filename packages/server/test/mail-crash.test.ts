/**
 * A crash between commit and delivery loses no mail (docs/email.md): invitations are sent while
 * the SMTP server is down, the portal process is killed with SIGKILL, SMTP comes back, and a new
 * process delivers every mail exactly once. Real server processes, on SQLite or PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PortalClient } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testDialect } from './support/database.js';
import { spawnServer } from './support/processes.js';
import { startTestSmtp, type TestSmtp } from './support/smtp.js';
import { becomesTrue } from './support/support.js';

const ADMIN = { Email: 'admin@example.com', Password: 'crash test password' };

describe('mail through kill -9', () => {
  let smtp: TestSmtp;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    smtp = await startTestSmtp({ running: false });
    let databaseUrl: string;
    if (testDialect() === 'postgres') {
      const database = await createPostgresDatabase();
      databaseUrl = database.url;
      cleanup = () => database.drop();
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tools-portal-mail-crash-'));
      databaseUrl = `sqlite:${path.join(dir, 'portal.db')}`;
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    env = {
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: ADMIN.Email,
      ADMIN_PASSWORD: ADMIN.Password,
      SMTP_URL: smtp.url,
      MAIL_POLL_SECONDS: '1',
      MAIL_RETRY_SECONDS: '1',
      SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    };
  });
  afterAll(async () => {
    await smtp?.stop();
    await cleanup?.();
  });

  it('every invitation committed before the kill arrives once after the restart', async () => {
    const first = await spawnServer(env);
    const emails: string[] = [];
    try {
      const { accesstoken } = await new PortalClient({ baseUrl: first.url }).auth.login(ADMIN);
      const api = new PortalClient({ baseUrl: first.url, token: accesstoken });
      const client = await api.clients.create('Crash Ltd');
      for (let i = 0; i < 10; i++) {
        const invite = await api.invites.create({ email: `crash-${i}@example.com`, clientid: client.id, apps: [], send: true });
        emails.push(invite.email);
      }
      // Committed, tried and failed (SMTP is down): the mail is in the queue, not delivered.
      expect(await becomesTrue(async () => (await api.mail.list()).every((mail) => mail.attempts >= 1), 10_000)).toBe(true);
      expect((await api.mail.list()).filter((mail) => mail.kind === 'invite')).toHaveLength(emails.length);
    } finally {
      await first.kill();
    }

    await smtp.start();
    const second = await spawnServer(env);
    try {
      // (The admin's sign-ins are from a client without a device cookie: a new-browser notice each.)
      const invitations = () => smtp.received.filter((mail) => mail.subject === 'Your invitation to Tools-Server');
      expect(await becomesTrue(async () => invitations().length >= emails.length, 20_000, 100)).toBe(true);
      const { accesstoken } = await new PortalClient({ baseUrl: second.url }).auth.login(ADMIN);
      const api = new PortalClient({ baseUrl: second.url, token: accesstoken });
      expect(await becomesTrue(async () => (await api.mail.list()).every((mail) => mail.status === 'sent'), 10_000)).toBe(true);
      // A few more polls: nothing arrives twice.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(
        invitations()
          .map((mail) => mail.to)
          .sort(),
      ).toEqual([...emails].sort());
      const invites = await api.invites.list();
      for (const mail of invitations()) expect(mail.text).toContain(invites.find((invite) => invite.email === mail.to)!.link);
    } finally {
      await second.stop();
    }
  }, 90_000);
});
