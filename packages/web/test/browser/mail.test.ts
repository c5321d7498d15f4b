// Mail in a real browser (docs/email.md): Forgot password? → Reset password → the mailed link →
// Set a new password; New Invite's "Send the link by email"; an admin's "Send password reset".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '../../../server/test/support/smtp.js';
import { ADMIN, LAPTOP, PHONE, axeViolations, chromiumAvailable, columnTexts, goto, openPage, screenshot, useBrowserPortal, unique, signIn } from './support';

let smtp: TestSmtp;

beforeAll(async () => {
  if (!chromiumAvailable) return;
  smtp = await startTestSmtp();
});

afterAll(async () => {
  await smtp?.stop();
});

const web = useBrowserPortal({ env: () => ({ SMTP_URL: smtp.url, MAIL_POLL_SECONDS: '1', MAIL_RETRY_SECONDS: '1' }), page: LAPTOP });

const linkIn = (text: string, pattern: RegExp) => pattern.exec(text)?.[0] ?? '';
const RESET_LINK = /http\S+\/auth\/#\/reset\/[A-Za-z0-9_-]+/;

describe.skipIf(!chromiumAvailable)('mail in the portal', () => {
  it('Forgot password? leads to Reset password, a neutral answer, and a mailed link that sets a new password', async () => {
    const user = await web.portal.createUser();
    for (const viewport of [LAPTOP, PHONE]) {
      const visitor = await openPage(web.browser, viewport);
      try {
        await goto(visitor.page, web.portal, '/login');
        await visitor.page.getByRole('link', { name: 'Forgot password?' }).click();
        await visitor.page.waitForURL(/#\/reset$/);
        await expect.poll(() => visitor.page.getByRole('heading', { name: 'Reset password' }).isVisible()).toBe(true);
        await screenshot(visitor.page, '20-reset-password');
        await visitor.page.getByLabel('Email').fill(viewport === LAPTOP ? user.email : `${unique('nobody')}@example.com`);
        await visitor.page.getByRole('button', { name: 'Send link' }).click();
        await expect.poll(() => visitor.page.getByText('If the address belongs to an account, a link is on its way.').isVisible()).toBe(true);
        await screenshot(visitor.page, '20-reset-password-sent');
        expect(visitor.page.problems()).toEqual([]);
      } finally {
        await visitor.context.close();
      }
    }

    const [mail] = await smtp.waitFor(user.email);
    const link = linkIn(mail.text, RESET_LINK);
    expect(link.startsWith(`${web.portal.url}/auth/#/reset/`)).toBe(true);
    const owner = await openPage(web.browser, PHONE);
    try {
      await owner.page.goto(link);
      await expect.poll(() => owner.page.getByRole('heading', { name: 'Set a new password' }).isVisible()).toBe(true);
      const password = owner.page.getByLabel('Password', { exact: true });
      const repeat = owner.page.getByLabel('Repeat Password');
      await password.fill('a new password 1');
      await repeat.fill('a new password 2');
      await owner.page.getByRole('button', { name: 'Save Password' }).click();
      await expect.poll(() => owner.page.getByRole('alert').filter({ hasText: "Your passwords don't match!" }).isVisible()).toBe(true);
      await screenshot(owner.page, '21-set-new-password');
      await repeat.fill('a new password 1');
      await owner.page.getByRole('button', { name: 'Save Password' }).click();
      await expect.poll(() => owner.page.getByRole('heading', { name: 'Your password was changed.' }).isVisible()).toBe(true);
      await owner.page.getByRole('link', { name: 'Continue' }).click();
      await owner.page.waitForURL(/#\/applist\/?$/);
      expect(owner.page.problems()).toEqual([]);

      // The link works once.
      await owner.page.goto(link);
      await expect.poll(() => owner.page.getByRole('heading', { name: 'Set a new password' }).isVisible()).toBe(true);
      await password.fill('another password 3');
      await repeat.fill('another password 3');
      await owner.page.getByRole('button', { name: 'Save Password' }).click();
      await expect.poll(() => owner.page.getByRole('alert').filter({ hasText: 'this password reset link has already been used' }).isVisible()).toBe(true);
      await expect.poll(() => owner.page.getByRole('link', { name: 'Ask for a new link' }).isVisible()).toBe(true);
      await screenshot(owner.page, '21-set-new-password-used');
    } finally {
      await owner.context.close();
    }
    expect(await web.portal.login(user.email, 'a new password 1')).toBeTruthy();
  });

  it('New Invite sends the link by email by default, and still shows it', async () => {
    await signIn(web.page, web.portal, ADMIN);
    await web.page.waitForURL(/#\/applist\/?$/);
    const client = await web.portal.admin.clients.create(unique('Mailed'));
    const email = `${unique('mailed')}@example.com`;
    await goto(web.page, web.portal, '/registrationtokens');
    await web.page.getByRole('button', { name: 'New Invite' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'New Invite' });
    await dialog.getByLabel('Email', { exact: true }).fill(email);
    await expect.poll(() => dialog.getByLabel('Client').locator('option').allInnerTexts()).toContain(client.name);
    await dialog.getByLabel('Client').selectOption({ label: client.name });
    await expect.poll(() => dialog.getByLabel('Send the link by email').isChecked()).toBe(true);
    await screenshot(web.page, '22-new-invite-send');
    await dialog.getByRole('button', { name: 'Save' }).click();

    const linkDialog = web.page.getByRole('dialog', { name: 'Please copy the registration link' });
    await expect.poll(() => linkDialog.isVisible()).toBe(true);
    const link = await linkDialog.getByLabel('Registration link').inputValue();
    await expect.poll(() => linkDialog.getByText(`The link was sent by email to ${email}.`, { exact: false }).isVisible()).toBe(true);
    await screenshot(web.page, '22-new-invite-sent');
    const [mail] = await smtp.waitFor(email);
    expect(mail.text).toContain(link);
    await linkDialog.getByRole('button', { name: 'OK' }).click();

    // Unchecked: nothing is mailed.
    const quiet = `${unique('quiet')}@example.com`;
    await web.page.getByRole('button', { name: 'New Invite' }).click();
    await dialog.getByLabel('Email', { exact: true }).fill(quiet);
    await expect.poll(() => dialog.getByLabel('Client').locator('option').allInnerTexts()).toContain(client.name);
    await dialog.getByLabel('Client').selectOption({ label: client.name });
    await dialog.getByLabel('Send the link by email').uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => linkDialog.getByText('Send this link to the invited email address:').isVisible()).toBe(true);
    expect((await web.portal.admin.mail.list()).some((entry) => entry.to === quiet)).toBe(false);
    await linkDialog.getByRole('button', { name: 'OK' }).click();

    // The Language choice: the invitation mail in German, whatever DEFAULT_LANGUAGE says.
    const german = `${unique('deutsch')}@example.com`;
    await web.page.getByRole('button', { name: 'New Invite' }).click();
    await dialog.getByLabel('Email', { exact: true }).fill(german);
    await expect.poll(() => dialog.getByLabel('Client').locator('option').allInnerTexts()).toContain(client.name);
    await dialog.getByLabel('Client').selectOption({ label: client.name });
    expect(await dialog.getByLabel('Language').locator('option').allInnerTexts()).toEqual(["The portal's default (English)", 'English', 'German']);
    await dialog.getByLabel('Language').selectOption('de');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => linkDialog.isVisible()).toBe(true);
    const [germanMail] = await smtp.waitFor(german);
    expect(germanMail.subject).toContain('Ihre Einladung zu');
    await linkDialog.getByRole('button', { name: 'OK' }).click();
    expect(web.page.problems()).toEqual([]);
  });

  it('an admin sends a password reset from the user page and sees the link', async () => {
    const user = await web.portal.createUser();
    await goto(web.page, web.portal, `/user/${user.user.id}`);
    await web.page.getByRole('button', { name: 'Send password reset' }).click();
    // A confirmation first: nothing is sent until Send.
    const confirm = web.page.getByRole('dialog', { name: 'Send a password reset?' });
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await axeViolations(web.page), 'confirm password reset').toEqual([]);
    expect((await web.portal.admin.mail.list()).some((entry) => entry.to === user.email)).toBe(false);
    await confirm.getByRole('button', { name: 'Send' }).click();
    const dialog = web.page.getByRole('dialog', { name: 'Password reset link' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const link = await dialog.getByLabel('Password reset link').inputValue();
    expect(link).toMatch(RESET_LINK);
    await expect
      .poll(() =>
        web.page
          .getByRole('alert')
          .filter({ hasText: `sent password reset to ${user.email}` })
          .isVisible(),
      )
      .toBe(true);
    await screenshot(web.page, '23-user-detail-password-reset');
    const [mail] = await smtp.waitFor(user.email);
    expect(mail.text).toContain(link);
    await dialog.getByRole('button', { name: 'OK' }).click();

    await web.page.setViewportSize(PHONE);
    await web.page.getByRole('button', { name: 'Send password reset' }).click();
    await confirm.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await screenshot(web.page, '23-user-detail-password-reset');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await web.page.setViewportSize(LAPTOP);
    expect(web.page.problems()).toEqual([]);
  });

  it('Invites lists client, apps, status; Resend mails the link again; Copy link copies it', async () => {
    const client = await web.portal.admin.clients.create(unique('Resend client'));
    const app = await web.portal.admin.apps.create({ name: unique('resend-app'), url: `${web.portal.url}/healthz?app=resend` });
    const email = `${unique('resend')}@example.com`;
    const invite = await web.portal.admin.invites.create({ email, clientid: client.id, apps: [app.id] });
    await web.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await goto(web.page, web.portal, '/registrationtokens');
    const row = web.page.getByRole('row').filter({ hasText: email });
    await expect.poll(() => row.isVisible()).toBe(true);
    const text = await row.innerText();
    expect(text).toContain(client.name);
    expect(text).toContain(app.name);
    expect(text).toContain('open');
    expect(await columnTexts(web.page, 'Invites', 1)).toContain(email);
    await row.getByRole('button', { name: 'Resend' }).click();
    await expect
      .poll(() =>
        web.page
          .getByRole('alert')
          .filter({ hasText: `sent the invitation to ${email} again` })
          .isVisible(),
      )
      .toBe(true);
    const [mail] = await smtp.waitFor(email);
    expect(mail.text).toContain(invite.link);
    await row.getByRole('button', { name: 'Copy link' }).click();
    await expect
      .poll(() =>
        web.page
          .getByRole('alert')
          .filter({ hasText: `copied the registration link of ${email}` })
          .isVisible(),
      )
      .toBe(true);
    expect(await web.page.evaluate(() => navigator.clipboard.readText())).toBe(invite.link);
    expect(await axeViolations(web.page), 'invites').toEqual([]);
    await screenshot(web.page, '06-invites-resend');
    await web.page.setViewportSize(PHONE);
    // The table scrolls sideways inside its frame; the page itself does not.
    await expect.poll(() => web.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(web.page, '06-invites-resend');
    expect(await axeViolations(web.page), 'invites on a phone').toEqual([]);
    await web.page.setViewportSize(LAPTOP);
    expect(web.page.problems()).toEqual([]);
  });
});
