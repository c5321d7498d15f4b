/**
 * Every mail the portal sends, as text and HTML (docs/email.md). A mail is a few paragraphs and
 * links; every value put into one is escaped for HTML, and stripped of line breaks in the
 * subject. Links are built from PUBLIC_URL by the callers. Short and plain, signed Tools-Server.
 */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A paragraph of text, or a link on a line of its own. */
type Block = string | { link: string };

const SIGNATURE = 'Tools-Server';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

// Control characters (a line break above all) would end the header and start another.
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();

function render(subject: string, blocks: Block[]): RenderedMail {
  const all: Block[] = [...blocks, SIGNATURE];
  const text = all.map((block) => (typeof block === 'string' ? block : block.link)).join('\n\n');
  const html = [
    '<!doctype html>',
    '<html><body style="font-family: sans-serif; line-height: 1.4">',
    ...all.map((block) =>
      typeof block === 'string'
        ? `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`
        : `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.link)}</a></p>`,
    ),
    '</body></html>',
  ].join('\n');
  return { subject: oneLine(subject), text: `${text}\n`, html };
}

import type { Origin } from '../services/support/context.js';

/** A moment as people read it in a mail: `2026-11-23 14:05 UTC`. */
function formatWhen(at: number | Date): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

// A user agent is whatever the caller sent: kept to plain characters and no URL that a mail
// client would turn into a link (a notice must not carry someone else's "click here").
const browser = (userAgent: string) =>
  userAgent
    .replace(/[^A-Za-z0-9 ._/;:()+,-]/g, '')
    .replace(/:\/\//g, ' ')
    .replace(/\bwww\./gi, 'www ')
    .slice(0, 160)
    .trim();

const from = ({ ip, userAgent }: Origin) => {
  const agent = browser(userAgent);
  return `${ip || 'an unknown address'}${agent ? ` (${agent})` : ''}`;
};

export function invitation(input: { email: string; client: string; link: string; expiresAt: number }): RenderedMail {
  return render('Your invitation to Tools-Server', [
    `Hello,\n\nyou are invited to Tools-Server as ${input.email} (${input.client}). Open this link to set your password:`,
    { link: input.link },
    `The link works once, until ${formatWhen(input.expiresAt)}. If you did not expect this invitation, ignore this mail.`,
  ]);
}

export function passwordReset(input: { email: string; link: string; minutes: number; at: number; origin: Origin; byAdmin: boolean }): RenderedMail {
  const who = input.byAdmin ? 'An administrator sent you this link' : `Someone asked, from ${from(input.origin)} at ${formatWhen(input.at)},`;
  return render('Reset your Tools-Server password', [
    `Hello,\n\n${who} to set a new password for ${input.email} at Tools-Server. Open it to choose one:`,
    { link: input.link },
    `The link works once, for ${input.minutes} minutes; a newer link replaces it. If you did not ask for it, ignore this mail: your password stays as it is.`,
  ]);
}

export type NoticeKind =
  'password-changed' | 'password-reset' | 'second-factor-added' | 'second-factor-removed' | 'recovery-codes-renewed' | 'account-locked' | 'new-browser';

export interface NoticeInput {
  email: string;
  at: number;
  origin: Origin;
  /** What the notice is about in a few words, e.g. the kind of second factor. */
  detail?: string;
  /** Where to ask for a new password: `{PUBLIC_URL}/auth/#/reset`. */
  resetLink: string;
  /** The password-reset notice: the user's active API keys, and where to delete them. */
  apiKeys?: { keys: NoticeKey[]; link: string };
}

/** An API key as a notice names it: masked, with its name and last use. */
interface NoticeKey {
  token: string;
  name: string | null;
  lastUsedTimestamp: string | null;
}

const keyLine = (key: NoticeKey) =>
  `- ${key.token}${key.name ? ` (${oneLine(key.name)})` : ''}, ${key.lastUsedTimestamp ? `last used ${formatWhen(Date.parse(key.lastUsedTimestamp))}` : 'never used'}`;

// A reset changes the password only: keys made before it keep working, so the notice names them.
function apiKeyBlocks(apiKeys: NoticeInput['apiKeys']): Block[] {
  if (!apiKeys || apiKeys.keys.length === 0) return [];
  const count = apiKeys.keys.length === 1 ? 'one active API key' : `${apiKeys.keys.length} active API keys`;
  return [
    `A password reset does not end API keys. Your account has ${count}:\n${apiKeys.keys.map(keyLine).join('\n')}`,
    'If you do not know one of them, or it may have leaked, delete it on the Access Tokens page:',
    { link: apiKeys.link },
  ];
}

const NOTICES: Record<NoticeKind, { subject: string; what: (detail?: string) => string }> = {
  'password-changed': { subject: 'Your Tools-Server password was changed', what: () => 'The password of your account was changed' },
  'password-reset': { subject: 'Your Tools-Server password was reset', what: () => 'The password of your account was reset with a link sent by mail' },
  'second-factor-added': {
    subject: 'A second factor was added to your Tools-Server account',
    what: (detail) => `A second factor${detail ? ` (${detail})` : ''} was added to your account`,
  },
  'second-factor-removed': {
    subject: 'A second factor was removed from your Tools-Server account',
    what: (detail) => `A second factor${detail ? ` (${detail})` : ''} was removed from your account`,
  },
  'recovery-codes-renewed': {
    subject: 'New recovery codes for your Tools-Server account',
    what: () => 'New recovery codes were made for your account; the old ones no longer work',
  },
  'account-locked': {
    subject: 'Your Tools-Server account was locked after failed logins',
    what: (detail) => `Your account was locked${detail ? ` for ${detail}` : ''} after too many failed logins`,
  },
  'new-browser': { subject: 'New sign-in to your Tools-Server account', what: () => 'Your account was signed in to from a browser it had not used before' },
};

/** A security notice: what happened, when, from where, and what to do if it was not you. */
export function notice(kind: NoticeKind, input: NoticeInput): RenderedMail {
  const { subject, what } = NOTICES[kind];
  return render(subject, [
    `Hello,\n\n${what(input.detail)} (${input.email}).\n\nWhen: ${formatWhen(input.at)}\nFrom: ${from(input.origin)}`,
    'If this was you, there is nothing to do. If it was not, set a new password with this link at once and tell an administrator:',
    { link: input.resetLink },
    ...apiKeyBlocks(input.apiKeys),
  ]);
}

/** To each admin: a user asks for an app (docs/api.md, Access requests). */
export function accessRequested(input: { email: string; app: string; reason: string; link: string }): RenderedMail {
  return render(`Access request: ${input.app} for ${input.email}`, [
    `Hello,\n\n${input.email} asks for access to ${input.app}.`,
    input.reason ? `Their reason: ${input.reason}` : 'They gave no reason.',
    'Approve or deny it on the Access requests screen:',
    { link: input.link },
  ]);
}

/** To the user: their request was approved or denied. */
export function accessDecided(input: { app: string; approved: boolean; expiresAt?: number; decision: string; link: string }): RenderedMail {
  if (input.approved) {
    const until = input.expiresAt ? ` until ${formatWhen(input.expiresAt)}` : '';
    return render(`Access to ${input.app} approved`, [
      `Hello,\n\nyour request for ${input.app} was approved: you may use it now${until}.`,
      { link: input.link },
    ]);
  }
  return render(`Access to ${input.app} denied`, [
    `Hello,\n\nyour request for ${input.app} was denied.`,
    input.decision ? `The reason given: ${input.decision}` : 'No reason was given.',
    { link: input.link },
  ]);
}

/** To each admin: the portal turned a webhook off (docs/webhooks.md). */
export function webhookDisabled(input: { id: number; url: string; reason: string; link: string }): RenderedMail {
  return render(`Webhook ${input.id} turned off`, [
    `Hello,\n\nthe portal turned off webhook ${input.id} to ${input.url}: ${input.reason}.`,
    'Events are not sent to it until an admin turns it back on, on the Webhooks screen:',
    { link: input.link },
  ]);
}
