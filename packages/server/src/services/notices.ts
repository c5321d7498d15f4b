/**
 * Security notices by mail (docs/email.md): password changed or reset, a second factor added or
 * removed, the account locked after failed logins, a sign-in from a browser the account has not
 * used before. Queued in the caller's transaction, like every mail; nothing when mail is off.
 */
import { passwordResetLink } from '@tools-portal/core';
import type { Knex } from 'knex';
import { notice, type NoticeInput, type NoticeKind } from '../mail/templates.js';
import type { Origin } from './context.js';
import { enqueueMail, type MailPolicy } from './outbox.js';

export type { NoticeKind } from '../mail/templates.js';

/** Queues a notice to `email` about something that happened just now, from `origin`. */
export async function queueNotice(
  db: Knex,
  policy: MailPolicy,
  kind: NoticeKind,
  input: { email: string; origin: Origin; detail?: string; apiKeys?: NoticeInput['apiKeys'] },
): Promise<boolean> {
  const now = Date.now();
  const mail = notice(kind, { email: input.email, at: now, origin: input.origin, detail: input.detail, resetLink: passwordResetLink(policy.publicUrl), apiKeys: input.apiKeys });
  return enqueueMail(db, policy, { kind: `notice.${kind}`, to: input.email, ...mail }, now);
}
