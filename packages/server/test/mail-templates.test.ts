/** The mail templates (docs/email.md): every value escaped, subjects on one line, signed Tools-Server. */
import { describe, expect, it } from 'vitest';
import { mailWords } from '../src/mail/i18n.js';
import { accessDecided, accessRequested, escapeHtml, invitation, notice, passwordReset, type NoticeKind } from '../src/mail/templates.js';

const EN = mailWords({ language: 'en', portalName: 'Tools-Server' });
const DE = mailWords({ language: 'de', portalName: 'Werkzeugkasten' });

const HOSTILE = `<script>alert("x")</script> & 'quoted' "double" <img src=x onerror=alert(1)>`;
const LINK = `https://tools.example.com/auth/register?token=a&b="c"<d>'e'`;

const all = () => [
  invitation(EN, { email: `${HOSTILE}@example.com`, client: HOSTILE, link: LINK, expiresAt: Date.UTC(2026, 10, 30, 12, 0) }),
  passwordReset(EN, { email: HOSTILE, link: LINK, minutes: 60, at: Date.UTC(2026, 10, 23), origin: { ip: HOSTILE, userAgent: HOSTILE }, byAdmin: false }),
  passwordReset(EN, { email: HOSTILE, link: LINK, minutes: 60, at: Date.UTC(2026, 10, 23), origin: { ip: '', userAgent: '' }, byAdmin: true }),
  ...(['password-changed', 'password-reset', 'second-factor-added', 'second-factor-removed', 'account-locked', 'new-browser'] as NoticeKind[]).map((kind) =>
    notice(EN, {
      kind,
      email: HOSTILE,
      at: Date.UTC(2026, 10, 23, 8, 30),
      origin: { ip: HOSTILE, userAgent: HOSTILE },
      factors: { names: [{ kind: 'passkey', name: HOSTILE }] },
      resetLink: LINK,
    }),
  ),
  notice(EN, {
    kind: 'password-reset',
    email: HOSTILE,
    at: Date.UTC(2026, 10, 23, 8, 30),
    origin: { ip: HOSTILE, userAgent: HOSTILE },
    resetLink: LINK,
    apiKeys: { keys: [{ token: 'apikey-AbCd…wxyz', name: HOSTILE, lastUsedTimestamp: null }], link: LINK },
  }),
];

describe('mail templates', () => {
  it("list a password reset's surviving API keys: masked, named on one line, last use in UTC, and where to delete them", () => {
    const mail = notice(EN, {
      kind: 'password-reset',
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
    const without = notice(EN, {
      kind: 'password-reset',
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
    const locked = notice(EN, {
      kind: 'account-locked',
      email: 'ann@example.com',
      at: Date.UTC(2026, 10, 23, 8, 30),
      origin: { ip: '203.0.113.9', userAgent: 'Mozilla/5.0' },
      lockMinutes: 10,
      resetLink: 'https://t.example/auth/#/reset',
    });
    expect(locked.subject).toBe('Your Tools-Server account was locked after failed logins');
    expect(locked.text).toContain('When: 2026-11-23 08:30 UTC');
    expect(locked.text).toContain('From: 203.0.113.9 (Mozilla/5.0)');
    expect(locked.text).toContain('If it was not, set a new password');
  });

  it("never carry a line break into the subject, nor a caller's URL into a notice", () => {
    const mail = notice(EN, {
      kind: 'new-browser',
      email: 'a@example.com',
      at: 0,
      origin: { ip: '1.2.3.4', userAgent: 'Evil\r\nBcc: x@example.com https://evil.example/unlock www.evil.example' },
      resetLink: LINK,
    });
    expect(mail.text).not.toContain('https://evil');
    expect(mail.text).not.toContain('www.evil');
    expect(mail.text).not.toMatch(/Evil\r?\nBcc/);
    expect(invitation(EN, { email: 'a@example.com', client: 'x', link: LINK, expiresAt: 0 }).subject).not.toMatch(/[\r\n]/);
  });

  it("speak German to German readers: Sie-form, German dates, plurals, the portal's name", () => {
    const at = Date.UTC(2026, 10, 3, 8, 5);
    const invite = invitation(DE, { email: 'ann@example.com', client: 'Acme', link: LINK, expiresAt: at });
    expect(invite.subject).toBe('Ihre Einladung zu Werkzeugkasten');
    expect(invite.text).toContain('Guten Tag,\n\nSie wurden als ann@example.com (Acme) zu Werkzeugkasten eingeladen.');
    expect(invite.text).toContain('bis 03.11.2026, 08:05 UTC');
    expect(invite.text.trimEnd().endsWith('\n\nWerkzeugkasten')).toBe(true);
    expect(invite.html).toContain('<html lang="de">');
    const reset = passwordReset(DE, { email: 'ann@example.com', link: LINK, minutes: 1, at, origin: { ip: '', userAgent: '' }, byAdmin: false });
    expect(reset.text).toContain('am 03.11.2026, 08:05 UTC hat jemand von einer unbekannten Adresse aus ein neues Passwort');
    expect(reset.text).toContain('für 1 Minute;');
    expect(passwordReset(EN, { email: 'a@x', link: LINK, minutes: 1, at, origin: { ip: '', userAgent: '' }, byAdmin: true }).text).toContain('for 1 minute;');
    const locked = notice(DE, {
      kind: 'account-locked',
      email: 'ann@example.com',
      at,
      origin: { ip: '203.0.113.9', userAgent: '' },
      lockMinutes: 10,
      resetLink: LINK,
    });
    expect(locked.subject).toBe('Ihr Konto bei Werkzeugkasten wurde nach fehlgeschlagenen Anmeldeversuchen gesperrt');
    expect(locked.text).toContain('für 10 Minuten gesperrt (ann@example.com).\n\nWann: 03.11.2026, 08:05 UTC\nVon: 203.0.113.9');
    const removed = notice(DE, {
      kind: 'second-factor-removed',
      email: 'ann@example.com',
      at,
      origin: { ip: '203.0.113.9', userAgent: '' },
      factors: { names: [{ kind: 'authenticator-app' }, { kind: 'passkeys' }], byAdmin: true },
      resetLink: LINK,
    });
    expect(removed.text).toContain('Aus Ihrem Konto wurde ein zweiter Faktor (Authenticator-App und Passkeys, durch einen Administrator) entfernt');
    const keys = notice(DE, {
      kind: 'password-reset',
      email: 'ann@example.com',
      at,
      origin: { ip: '', userAgent: '' },
      resetLink: LINK,
      apiKeys: { keys: [{ token: 'apikey-AbCd…wxyz', name: null, lastUsedTimestamp: '2026-11-22T10:05:00.000Z' }], link: LINK },
    });
    expect(keys.text).toContain('Ihr Konto hat einen aktiven API-Schlüssel:\n- apikey-AbCd…wxyz, zuletzt verwendet am 22.11.2026, 10:05 UTC');
    expect(accessRequested(DE, { email: 'ann@example.com', app: 'wiki', reason: '', link: LINK }).subject).toBe('Zugriffsanfrage: wiki für ann@example.com');
    const approved = accessDecided(DE, { app: 'wiki', approved: true, expiresAt: at, decision: '', link: LINK });
    expect(approved.text).toContain('Sie können die App ab sofort bis 03.11.2026, 08:05 UTC nutzen.');
  });

  it('take values as text, never as ICU syntax or tags', () => {
    const tricky = "{portal} {count, plural, one {x} other {y}} <b>bold</b> 'quoted'";
    const mail = accessRequested(DE, { email: 'a@example.com', app: tricky, reason: tricky, link: LINK });
    expect(mail.text).toContain(`Begründung: ${tricky}`);
    expect(mail.subject).toBe(`Zugriffsanfrage: ${tricky} für a@example.com`);
  });
});
