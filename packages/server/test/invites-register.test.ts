import { PASSWORD_CONTAINS_EMAIL, PASSWORD_CONTAINS_PRODUCT, PASSWORD_TOO_SHORT } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { createApp, failure, unique, USER_PASSWORD, useTestPortal } from './support/support.js';

const portal = useTestPortal();

const newEmail = () => `${unique('invitee')}@example.com`;

describe('invites', () => {
  it('creates an invite with client and apps, lists it, and deletes it', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const app = await createApp(portal.admin);
    const email = newEmail();
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [app.id] });
    expect(invite).toMatchObject({ id: expect.any(Number), email, client, apps: [app.id] });
    expect(invite.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(invite.expires_timestamp) - Date.parse(invite.sent_timestamp)).toBe(7 * 24 * 3600 * 1000);
    expect(await portal.admin.invites.list()).toContainEqual(invite);
    await portal.admin.invites.delete(invite.id);
    expect((await portal.admin.invites.list()).map((i) => i.id)).not.toContain(invite.id);
    expect(await failure(portal.admin.invites.delete(invite.id))).toMatchObject({ code: 'not_found' });
  });

  it('normalises the email and refuses a malformed one', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const email = newEmail();
    const invite = await portal.admin.invites.create({ email: `  ${email.toUpperCase()} `, clientid: client.id, apps: [] });
    expect(invite.email).toBe(email);
    expect(await failure(portal.admin.invites.create({ email: 'not-an-email', clientid: client.id, apps: [] }))).toMatchObject({
      code: 'invalid_input',
      field: 'email',
    });
  });

  it('refuses unknown clients and apps, duplicates and existing users', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    expect(await failure(portal.admin.invites.create({ email: newEmail(), clientid: 999999, apps: [] }))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.invites.create({ email: newEmail(), clientid: client.id, apps: [999999] }))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.invites.create({ email: newEmail(), clientid: client.id, apps: ['x' as never] }))).toMatchObject({ field: 'apps.0' });
    const email = newEmail();
    await portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    expect(await failure(portal.admin.invites.create({ email, clientid: client.id, apps: [] }))).toMatchObject({ code: 'conflict' });
    const { email: existing } = await portal.createUser();
    expect(await failure(portal.admin.invites.create({ email: existing, clientid: client.id, apps: [] }))).toMatchObject({ code: 'conflict' });
  });

  it('is admin-only', async () => {
    const { api } = await portal.createUser();
    expect(await failure(api.invites.list())).toMatchObject({ code: 'forbidden' });
    expect(await failure(portal.anonymous.invites.list())).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('registration', () => {
  it('registers from an invite into its client with its apps, signed in, once', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const app = await createApp(portal.admin);
    const email = newEmail();
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [app.id] });
    const answer = await portal.anonymous.auth.register({ Token: invite.token, Password: USER_PASSWORD });
    expect(answer).toEqual({ accesstoken: expect.any(String), redirect: '/auth/#/applist/' });
    const api = portal.client(answer.accesstoken);
    expect(await api.users.me()).toMatchObject({ email, client, admin: false });
    expect(await api.apps.list()).toEqual([{ ...app, favourite: false }]);
    expect(await failure(portal.anonymous.auth.register({ Token: invite.token, Password: USER_PASSWORD }))).toMatchObject({ code: 'conflict' });
    expect((await portal.admin.invites.list()).map((i) => i.id)).not.toContain(invite.id);
    await portal.login(email, USER_PASSWORD);
  });

  it('applies the length rules of docs/product.md §5', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const invite = await portal.admin.invites.create({ email: newEmail(), clientid: client.id, apps: [] });
    expect(await failure(portal.anonymous.auth.register({ Token: invite.token, Password: 'short' }))).toEqual({
      code: 'invalid_input',
      field: 'Password',
      message: `Password: ${PASSWORD_TOO_SHORT}`,
    });
    expect(await failure(portal.anonymous.auth.register({ Token: invite.token, Password: 'password1' }))).toMatchObject({ field: 'Password' });
    expect(await failure(portal.anonymous.auth.register({ Token: invite.token, Password: 'x'.repeat(257) }))).toMatchObject({ field: 'Password' });
    // A refused password leaves the invite open.
    await portal.anonymous.auth.register({ Token: invite.token, Password: 'ok-passphrase-😀' });
  });

  it('refuses common passwords, the email and the product name, leaving the invite open (issue 12, point 10)', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const email = `${unique('marianne')}@example.com`;
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    for (const password of ['Summer2024', 'qwerty12345', 'Company123', 'password123!']) {
      const refusal = await failure(portal.anonymous.auth.register({ Token: invite.token, Password: password }));
      expect(refusal, password).toMatchObject({ code: 'invalid_input', field: 'Password' });
      expect(refusal.message).toMatch(/^Password: This password is .*common/);
    }
    expect(await failure(portal.anonymous.auth.register({ Token: invite.token, Password: `${email.split('@')[0]}-is-me` }))).toMatchObject({
      message: `Password: ${PASSWORD_CONTAINS_EMAIL}`,
    });
    expect(await failure(portal.anonymous.auth.register({ Token: invite.token, Password: 'my tools-server login' }))).toMatchObject({
      message: `Password: ${PASSWORD_CONTAINS_PRODUCT}`,
    });
    expect((await portal.admin.invites.list()).map((open) => open.id)).toContain(invite.id);
    await portal.anonymous.auth.register({ Token: invite.token, Password: 'velvet orbit canyon' });
  });

  it('refuses an unknown or expired token', async () => {
    expect(await failure(portal.anonymous.auth.register({ Token: 'no-such-token', Password: USER_PASSWORD }))).toMatchObject({ code: 'not_found' });
    const client = await portal.admin.clients.create(unique('client'));
    const invite = await portal.admin.invites.create({ email: newEmail(), clientid: client.id, apps: [] });
    await portal.deps
      .db('invites')
      .where({ id: invite.id })
      .update({ expires_at: Date.now() - 1000 });
    expect(await failure(portal.anonymous.auth.register({ Token: invite.token, Password: USER_PASSWORD }))).toMatchObject({
      code: 'invalid_input',
      field: 'Token',
    });
    // An expired invite gives way to a new one for the same email.
    const renewed = await portal.admin.invites.create({ email: invite.email, clientid: client.id, apps: [] });
    await portal.anonymous.auth.register({ Token: renewed.token, Password: USER_PASSWORD });
  });

  it('follows a safe redirect and refuses a foreign one', async () => {
    const app = await createApp(portal.admin, { url: 'https://grafana.example.com/dashboards' });
    const client = await portal.admin.clients.create(unique('client'));
    const register = async (redirect: string) => {
      const invite = await portal.admin.invites.create({ email: newEmail(), clientid: client.id, apps: [app.id] });
      return (await portal.anonymous.auth.register({ Token: invite.token, Password: USER_PASSWORD, redirect })).redirect;
    };
    expect(await register('https://grafana.example.com/d/1?x=2')).toBe('https://grafana.example.com/d/1?x=2');
    expect(await register('/auth/#/userapps')).toBe('/auth/#/userapps');
    expect(await register('https://evil.example.net/')).toBe('/auth/#/applist/');
    expect(await register('//evil.example.net/')).toBe('/auth/#/applist/');
  });

  it('sends an invitation link to the set-password screen, then on to the app', async () => {
    const app = await createApp(portal.admin, { url: 'https://wiki.example.com/' });
    const client = await portal.admin.clients.create(unique('client'));
    const invite = await portal.admin.invites.create({ email: newEmail(), clientid: client.id, apps: [app.id] });
    const viaApp = await portal.fetch(`/${encodeURIComponent(app.name)}/register?token=${invite.token}`, { redirect: 'manual' });
    expect(viaApp.status).toBe(302);
    expect(viaApp.headers.get('location')).toBe(`/auth/#/login/${encodeURIComponent('https://wiki.example.com/')}/${invite.token}`);
    const viaPortal = await portal.fetch('/auth/register?token=t%2Fx', { redirect: 'manual' });
    expect(viaPortal.headers.get('location')).toBe(`/auth/#/login/${encodeURIComponent('/auth/#/applist/')}/t%2Fx`);
  });

  it('lets exactly one of 20 parallel registrations with one invite succeed', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const email = newEmail();
    const invite = await portal.admin.invites.create({ email, clientid: client.id, apps: [] });
    const attempts = await Promise.all(
      Array.from({ length: 20 }, () =>
        portal.fetch('/api/auth/v1/register/', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ Token: invite.token, Password: USER_PASSWORD }),
        }),
      ),
    );
    const statuses = attempts.map((response) => response.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(409)]);
    const users = (await portal.admin.users.list()).filter((user) => user.email === email);
    expect(users).toHaveLength(1);
  });
});
