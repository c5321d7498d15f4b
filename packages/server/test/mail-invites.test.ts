/**
 * Invitations that send themselves (docs/email.md): the server builds the link, `send: true`
 * mails it through the outbox, and without mail `send` is refused.
 */
import { describe, expect, it } from 'vitest';
import { useMailedPortal } from './support/smtp.js';
import { createApp, failure, unique, useTestPortal } from './support/support.js';

const HOSTILE = `<b>Acme & "Sons" 'Ltd'</b>`;

describe('invites with mail configured', () => {
  const { portal, smtp } = useMailedPortal();

  it('answers the link through the first app as sent, in the create answer and the list', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const [first, second] = [await createApp(portal.admin), await createApp(portal.admin)];
    const email = `${unique('linked')}@example.com`;
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [second.id, first.id] });
    expect(invite.link).toBe(`${portal.url}/${encodeURIComponent(second.name)}/register?token=${encodeURIComponent(invite.token)}`);
    expect((await portal.admin.invites.list()).find((row) => row.id === invite.id)?.link).toBe(invite.link);

    const bare = await portal.admin.invites.create({ email: `${unique('bare')}@example.com`, clientid: client.id, apps: [] });
    expect(bare.link).toBe(`${portal.url}/auth/register?token=${encodeURIComponent(bare.token)}`);
    // The app the link named is deleted: the link falls back to the portal itself.
    await portal.admin.apps.delete(second.id);
    expect((await portal.admin.invites.list()).find((row) => row.id === invite.id)?.link).toBe(
      `${portal.url}/auth/register?token=${encodeURIComponent(invite.token)}`,
    );
    expect((await portal.admin.auth.options()).passwordReset).toBe(true);
  });

  it('send: true mails the link to the invitee; the link works and leads to registration', async () => {
    const client = await portal.admin.clients.create(HOSTILE);
    const app = await createApp(portal.admin);
    const email = `${unique('invitee')}@example.com`;
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [app.id], send: true });
    const [mail] = await smtp.waitFor(email);
    expect(mail.subject).toBe('Your invitation to Tools-Server');
    expect(mail.text).toContain(invite.link);
    expect(mail.text).toContain(HOSTILE);
    expect(mail.html).not.toContain(HOSTILE);
    expect(mail.html).toContain('&lt;b&gt;Acme &amp; &quot;Sons&quot; &#39;Ltd&#39;&lt;/b&gt;');

    // Follow the mailed link as a browser would: the portal sends it to the set-password screen.
    const link = /^http\S+register\?token=\S+$/m.exec(mail.text)![0];
    const answer = await fetch(link, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(`/auth/#/login/${encodeURIComponent(app.url)}/${encodeURIComponent(invite.token)}`);
    const token = new URL(link).searchParams.get('token')!;
    const { accesstoken } = await portal.anonymous.auth.register({ Token: token, Password: 'a fine new password' });
    expect((await portal.client(accesstoken).users.me()).email).toBe(email);

    const events = await portal.admin.logs.page(1, 20);
    expect(events.some((event) => event.event === `invited ${email} to client ${HOSTILE} (link sent by mail)`)).toBe(true);
  });

  it('without send, nothing is mailed', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const email = `${unique('quiet')}@example.com`;
    await portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    expect((await portal.admin.mail.list()).some((entry) => entry.to === email)).toBe(false);
  });

  it('send must be a boolean', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const result = await failure(
      portal.admin.request('POST', '/registrationtoken/', { email: `${unique('x')}@example.com`, clientid: client.id, send: 'yes' }),
    );
    expect(result).toMatchObject({ code: 'invalid_input', field: 'send' });
  });
});

describe('invites without mail', () => {
  const portal = useTestPortal();

  it('send: true answers 400 naming send, and creates no invite', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const email = `${unique('nomail')}@example.com`;
    const result = await failure(portal.admin.invites.create({ email, clientid: client.id, apps: [], send: true }));
    expect(result).toMatchObject({ code: 'invalid_input', field: 'send' });
    expect((await portal.admin.invites.list()).some((invite) => invite.email === email)).toBe(false);
    expect(await portal.admin.auth.options()).toMatchObject({ google: false, passwordReset: false, defaultLanguage: 'en' });
  });

  it('Resend answers 400 naming send', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const invite = await portal.admin.invites.create({ email: `${unique('nomail')}@example.com`, clientid: client.id, apps: [] });
    expect(await failure(portal.admin.invites.resend(invite.id))).toMatchObject({ code: 'invalid_input', field: 'send' });
  });
});

describe('Resend: an open invite mailed again', () => {
  const { portal, smtp } = useMailedPortal();

  it('mails the same link again and logs it; an unknown or used invite is 404, and only admins may', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const email = `${unique('again')}@example.com`;
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    const resent = await portal.admin.invites.resend(invite.id);
    expect(resent.link).toBe(invite.link);
    const [mail] = await smtp.waitFor(email);
    expect(mail.text).toContain(invite.link);
    const events = await portal.admin.logs.page(1, 20, { type: 'invite.resend' });
    expect(events.map((event) => event.event)).toContain(`sent the invitation to ${email} again`);

    expect(await failure(portal.admin.invites.resend(999_999))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.request('POST', '/registrationtoken/abc/send'))).toMatchObject({ code: 'invalid_input' });
    const member = await portal.createUser();
    expect(await failure(member.api.invites.resend(invite.id))).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.anonymous.invites.resend(invite.id))).toMatchObject({ code: 'unauthenticated' });

    await portal.anonymous.auth.register({ Token: invite.token, Password: 'a fine new password' });
    expect(await failure(portal.admin.invites.resend(invite.id))).toMatchObject({ code: 'not_found' });

    // An expired invite is not sent again: 409, and no mail.
    const stale = await portal.admin.invites.create({ email: `${unique('stale')}@example.com`, clientid: client.id, apps: [] });
    await portal.deps
      .db('invites')
      .where({ id: stale.id })
      .update({ expires_at: Date.now() - 1000 });
    expect(await failure(portal.admin.invites.resend(stale.id))).toMatchObject({ code: 'conflict' });
    expect((await portal.admin.mail.list()).some((entry) => entry.to === stale.email)).toBe(false);
  });
});
