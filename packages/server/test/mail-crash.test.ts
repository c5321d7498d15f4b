/**
 * A crash between commit and delivery loses no mail (docs/email.md): invitations are sent while
 * the SMTP server is down, the portal process is killed with SIGKILL, SMTP comes back, and a new
 * process delivers every mail exactly once. Real server processes, on SQLite or PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnServer, useProcessPortals } from './support/processes.js';
import { startTestSmtp, type TestSmtp } from './support/smtp.js';
import { becomesTrue } from './support/support.js';

describe('mail through kill -9', () => {
  const portals = useProcessPortals({ MAIL_POLL_SECONDS: '1', MAIL_RETRY_SECONDS: '1' });
  let smtp: TestSmtp;
  let env: Record<string, string>;
  beforeAll(async () => {
    smtp = await startTestSmtp({ running: false });
    env = { ...portals.env, SMTP_URL: smtp.url };
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  it('every invitation committed before the kill arrives once after the restart', async () => {
    const first = await spawnServer(env);
    const emails: string[] = [];
    try {
      const api = await portals.signIn(first);
      const client = await api.clients.create('Crash Ltd');
      for (let i = 0; i < 10; i++) {
        const invite = await api.invites.create({ email: `crash-${i}@example.com`, clientid: client.id, apps: [], send: true });
        emails.push(invite.email);
      }
      // Committed, tried and failed (SMTP is down): the mail is in the queue, not delivered.
      expect(await becomesTrue(async () => (await api.mail.list()).every((mail) => mail.attempts >= 1), 30_000)).toBe(true);
      expect((await api.mail.list()).filter((mail) => mail.kind === 'invite')).toHaveLength(emails.length);
    } finally {
      await first.kill();
    }

    await smtp.start();
    const second = await spawnServer(env);
    try {
      // (The admin's sign-ins are from a client without a device cookie: a new-browser notice each.)
      const invitations = () => smtp.received.filter((mail) => mail.subject === 'Your invitation to Tools-Server');
      expect(await becomesTrue(async () => invitations().length >= emails.length, 30_000, 100)).toBe(true);
      const api = await portals.signIn(second);
      expect(await becomesTrue(async () => (await api.mail.list()).every((mail) => mail.status === 'sent'), 30_000)).toBe(true);
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
  }, 150_000);
});
