/**
 * Every mail the portal sends, as text and HTML (docs/email.md), in the recipient's language: the
 * words come from the catalogues (catalogue/, through i18n.ts). A mail is a few paragraphs and
 * links; every value put into one is escaped for HTML, and stripped of line breaks in the
 * subject. Links are built from PUBLIC_URL by the callers. Short and plain, signed PORTAL_NAME.
 */
import type { Origin } from '../services/support/context.js';
import type { MailKey } from './catalogue/en.js';
import type { MailWords } from './i18n.js';

export type { MailWords } from './i18n.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A paragraph of text, or a link on a line of its own. */
type Block = string | { link: string };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

// Control characters (a line break above all) would end the header and start another.
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();

function render(words: MailWords, { subject, blocks }: { subject: string; blocks: Block[] }): RenderedMail {
  const all: Block[] = [...blocks, oneLine(words.portalName)];
  const text = all.map((block) => (typeof block === 'string' ? block : block.link)).join('\n\n');
  const html = [
    '<!doctype html>',
    `<html lang="${words.language}"><body style="font-family: sans-serif; line-height: 1.4">`,
    ...all.map((block) =>
      typeof block === 'string'
        ? `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`
        : `<p><a href="${escapeHtml(block.link)}">${escapeHtml(block.link)}</a></p>`,
    ),
    '</body></html>',
  ].join('\n');
  return { subject: oneLine(subject), text: `${text}\n`, html };
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

const from = (words: MailWords, { ip, userAgent }: Origin) => {
  const agent = browser(userAgent);
  return `${ip || words.t('notice.unknownAddress')}${agent ? ` (${agent})` : ''}`;
};

/** The greeting, then the first paragraph: one block, as the mails always had it. */
const greeted = (words: MailWords, text: string) => `${words.t('mail.greeting')}\n\n${text}`;

export function invitation(words: MailWords, input: { email: string; client: string; link: string; expiresAt: number }): RenderedMail {
  return render(words, {
    subject: words.t('invitation.subject'),
    blocks: [
      greeted(words, words.t('invitation.body', { email: input.email, client: input.client })),
      { link: input.link },
      words.t('invitation.footer', { expires: words.when(input.expiresAt) }),
    ],
  });
}

export function passwordReset(
  words: MailWords,
  input: { email: string; link: string; minutes: number; at: number; origin: Origin; byAdmin: boolean },
): RenderedMail {
  const body = input.byAdmin
    ? words.t('reset.body.byAdmin', { email: input.email })
    : words.t('reset.body.asked', { email: input.email, from: from(words, input.origin), when: words.when(input.at) });
  return render(words, {
    subject: words.t('reset.subject'),
    blocks: [greeted(words, body), { link: input.link }, words.t('reset.footer', { minutes: input.minutes })],
  });
}

export type NoticeKind =
  'password-changed' | 'password-reset' | 'second-factor-added' | 'second-factor-removed' | 'recovery-codes-renewed' | 'account-locked' | 'new-browser';

/** A second factor as a notice names it. */
export type FactorName = { kind: 'authenticator-app' } | { kind: 'passkey'; name: string } | { kind: 'passkeys' };

export interface NoticeInput {
  email: string;
  at: number;
  origin: Origin;
  /** The second factors added or removed (and whether an administrator removed them). */
  factors?: { names: FactorName[]; byAdmin?: boolean };
  /** How long a locked account stays locked. */
  lockMinutes?: number;
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

const keyLine = (words: MailWords, key: NoticeKey) =>
  `- ${key.token}${key.name ? ` (${oneLine(key.name)})` : ''}, ${
    key.lastUsedTimestamp ? words.t('apiKeys.lastUsed', { when: words.when(Date.parse(key.lastUsedTimestamp)) }) : words.t('apiKeys.neverUsed')
  }`;

// A reset changes the password only: keys made before it keep working, so the notice names them.
function apiKeyBlocks(words: MailWords, apiKeys: NoticeInput['apiKeys']): Block[] {
  if (!apiKeys || apiKeys.keys.length === 0) return [];
  return [
    `${words.t('apiKeys.intro', { count: apiKeys.keys.length })}\n${apiKeys.keys.map((key) => keyLine(words, key)).join('\n')}`,
    words.t('apiKeys.action'),
    { link: apiKeys.link },
  ];
}

function factorsText(words: MailWords, factors: NoticeInput['factors']): string {
  const names = (factors?.names ?? []).map((factor) =>
    factor.kind === 'passkey'
      ? words.t('factor.passkey', { name: oneLine(factor.name) })
      : words.t(factor.kind === 'passkeys' ? 'factor.passkeys' : 'factor.authenticatorApp'),
  );
  const list = words.list(names);
  return factors?.byAdmin ? words.t('factor.byAdmin', { factors: list }) : list;
}

const NOTICES: Record<NoticeKind, { subject: MailKeyOf<'subject'>; what: (words: MailWords, input: NoticeInput) => string }> = {
  'password-changed': { subject: 'notice.passwordChanged.subject', what: (words) => words.t('notice.passwordChanged.what') },
  'password-reset': { subject: 'notice.passwordReset.subject', what: (words) => words.t('notice.passwordReset.what') },
  'second-factor-added': {
    subject: 'notice.secondFactorAdded.subject',
    what: (words, input) => words.t('notice.secondFactorAdded.what', { factors: factorsText(words, input.factors) }),
  },
  'second-factor-removed': {
    subject: 'notice.secondFactorRemoved.subject',
    what: (words, input) => words.t('notice.secondFactorRemoved.what', { factors: factorsText(words, input.factors) }),
  },
  'recovery-codes-renewed': { subject: 'notice.recoveryCodesRenewed.subject', what: (words) => words.t('notice.recoveryCodesRenewed.what') },
  'account-locked': {
    subject: 'notice.accountLocked.subject',
    what: (words, input) => words.t('notice.accountLocked.what', { minutes: input.lockMinutes ?? 0 }),
  },
  'new-browser': { subject: 'notice.newBrowser.subject', what: (words) => words.t('notice.newBrowser.what') },
};

type MailKeyOf<Suffix extends string> = Extract<MailKey, `${string}.${Suffix}`>;

/** A security notice: what happened, when, from where, and what to do if it was not you. */
export function notice(words: MailWords, { kind, ...input }: NoticeInput & { kind: NoticeKind }): RenderedMail {
  const { subject, what } = NOTICES[kind];
  return render(words, {
    subject: words.t(subject),
    blocks: [
      greeted(words, words.t('notice.body', { what: what(words, input), email: input.email, when: words.when(input.at), from: from(words, input.origin) })),
      words.t('notice.action'),
      { link: input.resetLink },
      ...apiKeyBlocks(words, input.apiKeys),
    ],
  });
}

/** To each admin: a user asks for an app (docs/api.md, Access requests). */
export function accessRequested(words: MailWords, input: { email: string; app: string; reason: string; link: string }): RenderedMail {
  return render(words, {
    subject: words.t('accessRequest.subject', { app: input.app, email: input.email }),
    blocks: [
      greeted(words, words.t('accessRequest.body', { email: input.email, app: input.app })),
      input.reason ? words.t('accessRequest.reason', { reason: input.reason }) : words.t('accessRequest.noReason'),
      words.t('accessRequest.action'),
      { link: input.link },
    ],
  });
}

/** To the user: their request was approved or denied. */
export function accessDecided(words: MailWords, input: { app: string; approved: boolean; expiresAt?: number; decision: string; link: string }): RenderedMail {
  if (input.approved) {
    const body = input.expiresAt
      ? words.t('accessApproved.bodyUntil', { app: input.app, until: words.when(input.expiresAt) })
      : words.t('accessApproved.body', { app: input.app });
    return render(words, { subject: words.t('accessApproved.subject', { app: input.app }), blocks: [greeted(words, body), { link: input.link }] });
  }
  return render(words, {
    subject: words.t('accessDenied.subject', { app: input.app }),
    blocks: [
      greeted(words, words.t('accessDenied.body', { app: input.app })),
      input.decision ? words.t('accessDenied.reason', { reason: input.decision }) : words.t('accessDenied.noReason'),
      { link: input.link },
    ],
  });
}

/** To each admin: the portal turned a webhook off (docs/webhooks.md). */
export function webhookDisabled(words: MailWords, input: { id: number; url: string; reason: string; link: string }): RenderedMail {
  return render(words, {
    subject: words.t('webhookDisabled.subject', { id: input.id }),
    blocks: [
      greeted(words, words.t('webhookDisabled.body', { id: input.id, url: input.url, reason: input.reason })),
      words.t('webhookDisabled.action'),
      { link: input.link },
    ],
  });
}

/** To each reviewer: an access review started (docs/reviews.md). */
export function reviewStarted(
  words: MailWords,
  input: { name: string; apps: string[]; count: number; due: number; whenMissed: string; link: string },
): RenderedMail {
  return render(words, {
    subject: words.t('reviewStarted.subject', { name: input.name }),
    blocks: [
      greeted(words, words.t('reviewStarted.body', { name: input.name, count: input.count, apps: words.list(input.apps), due: words.when(input.due) })),
      words.t(input.whenMissed === 'revoke' ? 'reviewStarted.missedRevoke' : 'reviewStarted.missedKeep'),
      words.t('reviewStarted.action'),
      { link: input.link },
    ],
  });
}

/** To each reviewer with undecided items, three days before due. */
export function reviewReminder(words: MailWords, input: { name: string; count: number; due: number; link: string }): RenderedMail {
  const values = { name: input.name, count: input.count, due: words.when(input.due) };
  return render(words, {
    subject: words.t('reviewReminder.subject', values),
    blocks: [greeted(words, words.t('reviewReminder.body', values)), words.t('reviewStarted.action'), { link: input.link }],
  });
}

/** To whoever started it: the review closed, with its outcome. */
export function reviewClosed(words: MailWords, input: { name: string; kept: number; removed: number; missed: number; link: string }): RenderedMail {
  return render(words, {
    subject: words.t('reviewClosed.subject', { name: input.name }),
    blocks: [greeted(words, words.t('reviewClosed.body', input)), words.t('reviewClosed.action'), { link: input.link }],
  });
}
