/** The mail templates (docs/email.md): every value escaped, subjects on one line, signed Tools-Server. */
import { describe, expect, it } from 'vitest';
import { escapeHtml, invitation, notice, passwordReset, type NoticeKind } from '../src/mail/templates.js';

const HOSTILE = `<script>alert("x")</script> & 'quoted' "double" <img src=x onerror=alert(1)>`;
const LINK = `https://tools.example.com/auth/register?token=a&b="c"<d>'e'`;

const all = () => [
  invitation({ email: `${HOSTILE}@example.com`, client: HOSTILE, link: LINK, expiresAt: Date.UTC(2026, 10, 30, 12, 0) }),
  passwordReset({ email: HOSTILE, link: LINK, minutes: 60, at: Date.UTC(2026, 10, 23), origin: { ip: HOSTILE, userAgent: HOSTILE }, byAdmin: false }),
  passwordReset({ email: HOSTILE, link: LINK, minutes: 60, at: Date.UTC(2026, 10, 23), origin: { ip: '', userAgent: '' }, byAdmin: true }),
  ...(['password-changed', 'password-reset', 'second-factor-added', 'second-factor-removed', 'account-locked', 'new-browser'] as NoticeKind[]).map((kind) =>
    notice(kind, { email: HOSTILE, at: Date.UTC(2026, 10, 23, 8, 30), origin: { ip: HOSTILE, userAgent: HOSTILE }, detail: HOSTILE, resetLink: LINK }),
  ),
  notice('password-reset', {
    email: HOSTILE,
    at: Date.UTC(2026, 10, 23, 8, 30),
    origin: { ip: HOSTILE, userAgent: HOSTILE },
    resetLink: LINK,
    apiKeys: { keys: [{ token: 'apikey-AbCd…wxyz', name: HOSTILE, lastUsedTimestamp: null }], link: LINK },
  }),
];

describe('mail templates', () => {
  it("list a password reset's surviving API keys: masked, named on one line, last use in UTC, and where to delete them", () => {
    const mail = notice('password-reset', {
      email: 'ann@example.com',
      at: Date.UTC(2026, 10, 23, 8, 30),
      origin: { ip: '192.0.2.1', userAgent: '' },
      resetLink: 'https://tools.example.com/auth/#/reset',
      apiKeys: {
        keys: [
          { token: 'apikey-AbCd…wxyz', name: 'deploy\nbot', lastUsedTimestamp: '2026-11-22T10:05:00.000Z' },
          { token: 'apikey-EfGh…stuv', name: null, lastUsedTimestamp: null },
        ],
        link: 'https://tools.example.com/auth/#/accesstokens',
      },
    });
    expect(mail.text).toContain(
      'A password reset does not end API keys. Your account has 2 active API keys:\n- apikey-AbCd…wxyz (deploy bot), last used 2026-11-22 10:05 UTC\n- apikey-EfGh…stuv, never used',
    );
    expect(mail.text.split('\n')).toContain('https://tools.example.com/auth/#/accesstokens');
    const without = notice('password-reset', {
      email: 'ann@example.com',
      at: 0,
      origin: { ip: '', userAgent: '' },
      resetLink: 'https://x/',
      apiKeys: { keys: [], link: 'https://x/k' },
    });
    expect(without.text).not.toContain('API key');
  });

  it('escape every value in the HTML: no tag, quote or ampersand of a value survives', () => {
    for (const mail of all()) {
      expect(mail.html).not.toMatch(/<script|<img|onerror=alert\(1\)>|"double"|'quoted'/);
      expect(mail.html).not.toContain('a&b=');
      expect(mail.html).toContain(`href="${escapeHtml(LINK)}"`);
      // The only tags are the template's own.
      const tags = new Set([...mail.html.matchAll(/<\/?([a-z!]+)/gi)].map((match) => match[1].toLowerCase()));
      expect([...tags].every((tag) => ['!doctype', 'html', 'body', 'p', 'a', 'br'].includes(tag))).toBe(true);
    }
  });

  it('keep values as they are in the text part, and put the link on a line of its own', () => {
    const [invite] = all();
    expect(invite.text).toContain(`you are invited to Tools-Server as ${HOSTILE}@example.com (${HOSTILE})`);
    expect(invite.text.split('\n')).toContain(LINK);
    expect(invite.text).toContain('until 2026-11-30 12:00 UTC');
  });

  it('are signed Tools-Server and say when, from where, and what to do', () => {
    for (const mail of all()) expect(mail.text.trimEnd().endsWith('\n\nTools-Server')).toBe(true);
    const locked = notice('account-locked', {
      email: 'ann@example.com',
      at: Date.UTC(2026, 10, 23, 8, 30),
      origin: { ip: '203.0.113.9', userAgent: 'Mozilla/5.0' },
      detail: '10 minutes',
      resetLink: 'https://t.example/auth/#/reset',
    });
    expect(locked.subject).toBe('Your Tools-Server account was locked after failed logins');
    expect(locked.text).toContain('When: 2026-11-23 08:30 UTC');
    expect(locked.text).toContain('From: 203.0.113.9 (Mozilla/5.0)');
    expect(locked.text).toContain('If it was not, set a new password');
  });

  it("never carry a line break into the subject, nor a caller's URL into a notice", () => {
    const mail = notice('new-browser', {
      email: 'a@example.com',
      at: 0,
      origin: { ip: '1.2.3.4', userAgent: 'Evil\r\nBcc: x@example.com https://evil.example/unlock www.evil.example' },
      resetLink: LINK,
    });
    expect(mail.text).not.toContain('https://evil');
    expect(mail.text).not.toContain('www.evil');
    expect(mail.text).not.toMatch(/Evil\r?\nBcc/);
    expect(invitation({ email: 'a@example.com', client: 'x', link: LINK, expiresAt: 0 }).subject).not.toMatch(/[\r\n]/);
  });
});
