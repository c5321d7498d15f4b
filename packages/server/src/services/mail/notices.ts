/**
 * Security notices by mail (docs/email.md): password changed or reset, a second factor added or
 * removed, the account locked after failed logins, a sign-in from a browser the account has not
 * used before. Queued in the caller's transaction, like every mail; nothing when mail is off.
 */
import { passwordResetLink } from '@tools-portal/core';
import { notice, type NoticeInput, type NoticeKind } from '../../mail/templates.js';
import type { Origin } from '../support/context.js';
import { enqueueMail, type MailContext } from './outbox.js';

export type { NoticeKind } from '../../mail/templates.js';

/** Queues a notice to `email` about something that happened just now, from `origin`. */
export async function queueNotice(
  ctx: MailContext,
  { kind, ...input }: { kind: NoticeKind; email: string; origin: Origin; detail?: string; apiKeys?: NoticeInput['apiKeys'] },
): Promise<boolean> {
  const now = ctx.now();
  const mail = notice(kind, {
    email: input.email,
    at: now,
    origin: input.origin,
    detail: input.detail,
    resetLink: passwordResetLink(ctx.policy.publicUrl),
    apiKeys: input.apiKeys,
  });
  return enqueueMail({ ...ctx, now: () => now }, { kind: `notice.${kind}`, to: input.email, ...mail });
}
