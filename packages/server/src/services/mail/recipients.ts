/**
 * In which language a mail speaks to its recipient (docs/email.md): a user's own choice
 * (`users.language`), else DEFAULT_LANGUAGE; an invitation its own (`invites.language`), else
 * DEFAULT_LANGUAGE. The mail is written at queuing time, so a later change of the choice leaves
 * queued mail as it was.
 */
import { ADMIN_CLIENT_NAME, type Language } from '@tools-portal/core';
import type { Knex } from 'knex';
import { mailWords, type MailWords } from '../../mail/i18n.js';
import { isLive } from '../access/app-access.js';
import type { MailContext, MailPolicy } from './outbox.js';

/** Someone to mail, with the language of their mail. */
export interface Recipient {
  email: string;
  language: Language | null;
}

/** The words of mail in `language`, or in DEFAULT_LANGUAGE when none is given. */
export function wordsIn(policy: MailPolicy, language: Language | null | undefined): MailWords {
  return mailWords({ language: language ?? policy.defaultLanguage, portalName: policy.branding.portalName });
}

/** The words of mail to the user with this email (DEFAULT_LANGUAGE for an address that is no user's). */
export async function wordsForUser(ctx: MailContext, email: string): Promise<MailWords> {
  const row: { language: Language | null } | undefined = await ctx.db('users').where({ email: email.toLowerCase() }).first('language');
  return wordsIn(ctx.policy, row?.language);
}

/** The admins (users of client Admin), to mail. */
export async function adminRecipients(db: Knex): Promise<Recipient[]> {
  return db('users').join('clients', 'clients.id', 'users.client_id').where('clients.name', ADMIN_CLIENT_NAME).select('users.email', 'users.language');
}

/**
 * The owners of any of `appIds`, to mail: one row per owner and app, directly or through an
 * unexpired team membership (so a user may come more than once).
 */
export async function ownerRecipients(db: Knex, { appIds, now }: { appIds: number[]; now: number }): Promise<(Recipient & { appId: number })[]> {
  const [direct, throughTeams] = (await Promise.all([
    db('users')
      .join('app_owner_users', 'app_owner_users.user_id', 'users.id')
      .whereIn('app_owner_users.app_id', appIds)
      .select('users.email', 'users.language', 'app_owner_users.app_id'),
    isLive(
      db('users')
        .join('team_members', 'team_members.user_id', 'users.id')
        .join('app_owner_teams', 'app_owner_teams.team_id', 'team_members.team_id')
        .whereIn('app_owner_teams.app_id', appIds),
      'team_members.expires_at',
      now,
    ).select('users.email', 'users.language', 'app_owner_teams.app_id'),
  ])) as (Recipient & { app_id: number })[][];
  return [...direct, ...throughTeams].map(({ app_id, ...recipient }) => ({ ...recipient, appId: Number(app_id) }));
}
