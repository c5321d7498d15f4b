/**
 * In which language a mail speaks to its recipient (docs/email.md): a user's own choice
 * (`users.language`), else DEFAULT_LANGUAGE; an invitation its own (`invites.language`), else
 * DEFAULT_LANGUAGE. The mail is written at queuing time, so a later change of the choice leaves
 * queued mail as it was.
 */
import type { Language } from '@tools-portal/core';
import { mailWords, type MailWords } from '../../mail/i18n.js';
import type { MailContext, MailPolicy } from './outbox.js';

/** The words of mail in `language`, or in DEFAULT_LANGUAGE when none is given. */
export function wordsIn(policy: MailPolicy, language: Language | null | undefined): MailWords {
  return mailWords({ language: language ?? policy.defaultLanguage, portalName: policy.branding.portalName });
}

/** The words of mail to the user with this email (DEFAULT_LANGUAGE for an address that is no user's). */
export async function wordsForUser(ctx: MailContext, email: string): Promise<MailWords> {
  const row: { language: Language | null } | undefined = await ctx.db('users').where({ email: email.toLowerCase() }).first('language');
  return wordsIn(ctx.policy, row?.language);
}
