/**
 * docs/product.md, Security rules: anonymous and non-admin callers cannot tell an app that exists from
 * one that does not, and never see a registered URL they did not send. Each test asks about an
 * app that exists and one that does not and compares the answers byte for byte.
 */
import type { App } from '@tools-portal/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp, unique, USER_PASSWORD, useTestPortal, type TestUser } from './support/support.js';

const portal = useTestPortal();

const SECRET_URL = `https://${unique('secret')}.example.com/hidden/`;

/** Status, the headers that could carry anything (not the date or the request's own id), and the body. */
async function answer(response: Response): Promise<Record<string, unknown>> {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !['date', 'keep-alive', 'connection', 'x-request-id'].includes(name)));
  return { status: response.status, headers, body: await response.text() };
}

const verify = (query: string, headers: Record<string, string> = {}) => portal.fetch(`/api/auth/v1/verify${query}`, { headers, redirect: 'manual' });

describe('an app that exists looks like one that does not', () => {
  let secret: App;
  let outsider: TestUser;
  const missing = unique('no-such-app');
  beforeAll(async () => {
    secret = await createApp(portal.admin, { name: unique('secret-app'), url: SECRET_URL });
    outsider = await portal.createUser({ apps: [] });
  });

  it('to an anonymous /verify?app=NAME: the same 401, and no registered URL in it', async () => {
    const extras: Record<string, string>[] = [{}, { accept: 'text/html' }, { 'x-requested-with': 'XMLHttpRequest' }];
    for (const extra of extras) {
      const existing = await answer(await verify(`?app=${encodeURIComponent(secret.name)}`, extra));
      const absent = await answer(await verify(`?app=${encodeURIComponent(missing)}`, extra));
      expect(existing).toEqual(absent);
      expect(existing.status).toBe(401);
      expect(JSON.stringify(existing)).not.toContain(new URL(SECRET_URL).host);
    }
  });

  it('to an anonymous /verify with an original URL: the login comes back to the URL sent, nothing else', async () => {
    const sent = `${SECRET_URL}page`;
    const response = await verify('', { 'x-original-url': sent });
    expect(response.status).toBe(401);
    expect(response.headers.get('location')).toBe(`${portal.url}/auth/#/login/${encodeURIComponent(sent)}`);
    const byName = await verify(`?app=${encodeURIComponent(secret.name)}`, { 'x-original-url': 'https://elsewhere.example.com/x' });
    expect(byName.headers.get('location')).toBe(`${portal.url}/auth/#/login/${encodeURIComponent('https://elsewhere.example.com/x')}`);
  });

  it('to a non-admin /verify: the same 403, by name and by URL, for cookie and Bearer', async () => {
    const credentials: Record<string, string>[] = [{ cookie: `accesstoken=${outsider.token}` }, { authorization: `Bearer ${outsider.token}` }];
    for (const credential of credentials) {
      const existing = await answer(await verify(`?app=${encodeURIComponent(secret.name)}`, credential));
      const absent = await answer(await verify(`?app=${encodeURIComponent(missing)}`, credential));
      expect(existing).toEqual(absent);
      expect(existing.status).toBe(403);
      const byUrl = await answer(await verify('', { ...credential, 'x-original-url': `${SECRET_URL}page` }));
      const byOtherUrl = await answer(await verify('', { ...credential, 'x-original-url': `https://${unique('nothing')}.example.com/page` }));
      expect(byUrl).toEqual(byOtherUrl);
      expect(byUrl).toEqual(existing);
      expect(JSON.stringify(existing)).not.toContain(secret.name);
    }
  });

  it('to an invitation link without a valid invite: the same redirect to the portal', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const used = await portal.admin.invites.create({ email: `${unique('used')}@example.com`, clientid: client.id, apps: [secret.id] });
    await portal.anonymous.auth.register({ Token: used.token, Password: USER_PASSWORD });
    const other = await portal.admin.invites.create({ email: `${unique('other')}@example.com`, clientid: client.id, apps: [] });
    for (const token of ['', 'abc', 'x'.repeat(43), used.token, other.token]) {
      const link = (app: string) => portal.fetch(`/${encodeURIComponent(app)}/register?token=${encodeURIComponent(token)}`, { redirect: 'manual' });
      const existing = await answer(await link(secret.name));
      const absent = await answer(await link(missing));
      expect([token, existing]).toEqual([token, absent]);
      expect(existing.status).toBe(302);
      expect(JSON.stringify(existing)).not.toContain(new URL(SECRET_URL).host);
    }
  });

  it('an invitation link with an open invite for that app still leads to the app', async () => {
    const client = await portal.admin.clients.create(unique('client'));
    const invite = await portal.admin.invites.create({ email: `${unique('invitee')}@example.com`, clientid: client.id, apps: [secret.id] });
    const response = await portal.fetch(`/${encodeURIComponent(secret.name)}/register?token=${invite.token}`, { redirect: 'manual' });
    expect(response.headers.get('location')).toBe(`/auth/#/login/${encodeURIComponent(SECRET_URL)}/${invite.token}`);
  });
});
