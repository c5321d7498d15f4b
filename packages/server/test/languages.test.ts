/**
 * German and English (issue 32, docs/glossary.md): the user's choice (`PUT /user/me`), the
 * invitation's own language, mail in the recipient's language through real SMTP, the German
 * description of apps, and DEFAULT_LANGUAGE.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useMailedPortal } from './support/smtp.js';
import { ADMIN_EMAIL, failure, unique } from './support/support.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('the language of a user, and mail in it', () => {
  const { portal, smtp } = useMailedPortal({ PORTAL_NAME: 'Werkzeugkasten' });

  it('PUT /user/me chooses it, GET /user/me tells it, null follows the browser; logged once per change', async () => {
    const { api, email } = await portal.createUser();
    expect((await api.users.me()).language).toBeNull();
    await api.users.setLanguage('de');
    expect((await api.users.me()).language).toBe('de');
    await api.users.setLanguage('de');
    await api.users.setLanguage(null);
    expect((await api.users.me()).language).toBeNull();
    const events = (await portal.admin.logs.page(1, 20, { type: 'account.language', user: email })).map((entry) => entry.event);
    expect(events).toEqual(['language: follow the browser', 'language: de']);
  });

  it('refuses any other value with a 400 naming language; anonymous callers 401', async () => {
    const { api } = await portal.createUser();
    for (const language of ['fr', 'DE', 'de-DE', '', 1, true, ['de'], { de: 1 }, undefined]) {
      const answer = await portal.fetch('/api/auth/v1/user/me', {
        method: 'PUT',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ language }),
      });
      expect(answer.status, JSON.stringify(language)).toBe(400);
      expect(((await answer.json()) as { error: { details: { field: string } } }).error.details.field).toBe('language');
    }
    expect((await api.users.me()).language).toBeNull();
    expect(await failure(portal.anonymous.users.setLanguage('de'))).toMatchObject({ code: 'unauthenticated' });
  });

  it("mails a German user in German: a password reset an admin sent, in Sie-form, with German dates and the portal's name", async () => {
    const { api, user, email } = await portal.createUser();
    await api.users.setLanguage('de');
    await portal.admin.users.passwordReset(user.id);
    const [mail] = await smtp.waitFor(email);
    expect(mail.subject).toBe('Neues Passwort für Werkzeugkasten');
    expect(mail.text).toContain('Guten Tag,');
    expect(mail.text).toContain(
      `ein Administrator hat Ihnen diesen Link geschickt, damit Sie ein neues Passwort für ${email} bei Werkzeugkasten festlegen können`,
    );
    expect(mail.text).toContain('für 60 Minuten');
    expect(mail.text.trimEnd().endsWith('Werkzeugkasten')).toBe(true);
    expect(mail.html).toContain('<html lang="de">');
  });

  it('mails a German user a security notice in German; an English one in English', async () => {
    const german = await portal.createUser();
    await german.api.users.setLanguage('de');
    await german.api.account.changePassword(german.password, 'ein neues, langes Passwort');
    const [notice] = await smtp.waitFor(german.email);
    expect(notice.subject).toBe('Ihr Passwort für Werkzeugkasten wurde geändert');
    expect(notice.text).toMatch(/Das Passwort Ihres Kontos wurde geändert \(.+\)\.\n\nWann: \d\d\.\d\d\.\d{4}, \d\d:\d\d UTC\nVon: /);
    expect(notice.text).toContain('Wenn Sie das waren, ist nichts zu tun.');

    const english = await portal.createUser();
    await english.api.users.setLanguage('en');
    await english.api.account.changePassword(english.password, 'a new and long password');
    const [mail] = await smtp.waitFor(english.email);
    expect(mail.subject).toBe('Your Werkzeugkasten password was changed');
    expect(mail.html).toContain('<html lang="en">');
  });

  it('invites in the language the invitation names; the user registering keeps it as their choice', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const email = `${unique('eingeladen')}@example.com`;
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [], send: true, language: 'de' });
    expect(invite.language).toBe('de');
    expect((await portal.admin.invites.list()).find((row) => row.id === invite.id)?.language).toBe('de');
    const [mail] = await smtp.waitFor(email);
    expect(mail.subject).toBe('Ihre Einladung zu Werkzeugkasten');
    expect(mail.text).toContain(`Sie wurden als ${email} (${client.name}) zu Werkzeugkasten eingeladen.`);
    expect(mail.text).toMatch(/Der Link ist einmal gültig, bis \d\d\.\d\d\.\d{4}, \d\d:\d\d UTC\./);
    const { accesstoken } = await portal.anonymous.auth.register({ Token: invite.token, Password: 'ein gutes neues Passwort' });
    expect((await portal.client(accesstoken).users.me()).language).toBe('de');

    const plain = await portal.admin.invites.create({ email: `${unique('plain')}@example.com`, clientid: client.id, apps: [], send: true });
    expect(plain.language).toBeNull();
    const [english] = await smtp.waitFor(plain.email);
    expect(english.subject).toBe('Your invitation to Werkzeugkasten');

    const bad = await portal.fetch('/api/auth/v1/registrationtoken', {
      method: 'POST',
      headers: { authorization: `Bearer ${portal.admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `${unique('bad')}@example.com`, clientid: client.id, apps: [], language: 'fr' }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { field: string } } }).error.details.field).toBe('language');
  });

  it('mails each admin an access request in their own language', async () => {
    const app = await portal.admin.apps.create({ name: unique('req'), url: 'https://req.example.com/', requestable: true });
    await portal.admin.users.setLanguage('de');
    try {
      const { api, email } = await portal.createUser();
      await api.accessRequests.create({ appid: app.id, reason: 'Brauche ich' });
      const [mail] = (await smtp.waitFor(ADMIN_EMAIL)).filter((entry) => entry.subject.includes(app.name));
      expect(mail.subject).toBe(`Zugriffsanfrage: ${app.name} für ${email}`);
      expect(mail.text).toContain('Begründung: Brauche ich');
    } finally {
      await portal.admin.users.setLanguage(null);
    }
  });
});

describe('DEFAULT_LANGUAGE', () => {
  const { portal, smtp } = useMailedPortal({ DEFAULT_LANGUAGE: 'de' });

  it('is the language of mail to users who chose none; a choice of English wins; /loginoptions tells the web', async () => {
    expect((await portal.anonymous.auth.options()).defaultLanguage).toBe('de');
    const { user, email } = await portal.createUser();
    await portal.admin.users.passwordReset(user.id);
    expect((await smtp.waitFor(email))[0]!.subject).toBe('Neues Passwort für Tools-Server');
    const english = await portal.createUser();
    await english.api.users.setLanguage('en');
    await portal.admin.users.passwordReset(english.user.id);
    expect((await smtp.waitFor(english.email))[0]!.subject).toBe('Reset your Tools-Server password');
  });

  it('any value but en or de stops the start with exit code 1, naming the setting', () => {
    // The compiled server is what `npm start` runs; tsc -b is incremental, a no-op when built.
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
    for (const value of ['fr', 'DE', 'de-DE', 'english']) {
      const run = spawnSync(process.execPath, [MAIN], {
        env: { PATH: process.env.PATH ?? '', DEFAULT_LANGUAGE: value, PORT: '0', DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain(`DEFAULT_LANGUAGE must be en or de, got "${value}"`);
    }
  }, 120_000);
});
