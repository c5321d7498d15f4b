/**
 * A real SMTP server for the tests (smtp-server), on 127.0.0.1, that keeps every mail it
 * accepted, parsed by mailparser. It can be stopped and started again on the same port, to play
 * an outage; with credentials set it demands them (AUTH over the plain connection).
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';
import { becomesTrue, freePort, useTestPortal, type TestPortal } from './support.js';

interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  parsed: ParsedMail;
}

export interface TestSmtp {
  /** The SMTP_URL for the portal, with the credentials when the server demands them. */
  url: string;
  port: number;
  received: ReceivedMail[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Waits (bounded) until `count` mails to `to` have arrived; answers those mails. */
  waitFor(to: string, count?: number, limitMs?: number): Promise<ReceivedMail[]>;
  to(address: string): ReceivedMail[];
}

export async function startTestSmtp(options: { user?: string; pass?: string; running?: boolean } = {}): Promise<TestSmtp> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  const credentials = options.user ? `${encodeURIComponent(options.user)}:${encodeURIComponent(options.pass ?? '')}@` : '';

  const smtp: TestSmtp = {
    url: `smtp://${credentials}127.0.0.1:${port}`,
    port,
    received,
    async start() {
      if (server) return;
      server = new SMTPServer({
        logger: false,
        hideSTARTTLS: true,
        disabledCommands: ['STARTTLS'],
        authOptional: !options.user,
        allowInsecureAuth: true,
        onAuth(auth, _session, callback) {
          if (auth.username === options.user && auth.password === options.pass) callback(null, { user: auth.username });
          else callback(new Error('invalid credentials'));
        },
        onData(stream, _session, callback) {
          simpleParser(stream).then(
            (parsed) => {
              received.push({
                to: parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '',
                from: parsed.from?.text ?? '',
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                messageId: parsed.messageId ?? '',
                parsed,
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        },
      });
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.server.once('error', reject);
        listening.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async stop() {
      const closing = server;
      server = undefined;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    to: (address) => received.filter((mail) => mail.to === address),
    async waitFor(to, count = 1, limitMs = 15_000) {
      await becomesTrue(async () => smtp.to(to).length >= count, limitMs, 100);
      return smtp.to(to);
    },
  };
  if (options.running !== false) await smtp.start();
  return smtp;
}

/**
 * A portal that mails through a test SMTP server of its own (the outbox polled every second),
 * both started before the tests of the describe block it is called in and stopped after.
 */
export function useMailedPortal(env: Record<string, string> = {}): { portal: TestPortal; smtp: TestSmtp } {
  const smtp = {} as TestSmtp;
  const portalEnv: Record<string, string> = { MAIL_POLL_SECONDS: '1', MAIL_RETRY_SECONDS: '1', ...env };
  beforeAll(async () => {
    Object.assign(smtp, await startTestSmtp());
    portalEnv.SMTP_URL = smtp.url;
  });
  afterAll(async () => smtp.stop?.());
  return { portal: useTestPortal(portalEnv), smtp };
}
