/**
 * Security notices by mail (docs/email.md): password changed or reset, a second factor added or
 * removed, the account locked after failed logins, a sign-in from a browser the account has not
 * used before. Queued in the caller's transaction, like every mail; nothing when mail is off.
 */
import { passwordResetLink } from '@tools-portal/core';
import { notice, type NoticeInput, type NoticeKind } from '../../mail/templates.js';
import { enqueueMail, type MailContext } from './outbox.js';
import { wordsForUser } from './recipients.js';

export type { NoticeKind } from '../../mail/templates.js';

/** Queues a notice to `email`, in its user's language, about something that happened just now, from `origin`. */
export async function queueNotice(
  ctx: MailContext,
  { kind, ...input }: { kind: NoticeKind } & Pick<NoticeInput, 'email' | 'origin' | 'factors' | 'lockMinutes' | 'apiKeys'>,
): Promise<boolean> {
  if (!ctx.policy.mail) return false;
  const now = ctx.now();
  const mail = notice(await wordsForUser(ctx, input.email), { kind, ...input, at: now, resetLink: passwordResetLink(ctx.policy.publicUrl) });
  return enqueueMail({ ...ctx, now: () => now }, { kind: `notice.${kind}`, to: input.email, ...mail });
}
