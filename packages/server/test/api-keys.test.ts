/**
 * API keys (docs/security.md, docs/api.md): a key can neither create nor delete keys (403
 * `session_required`, like every call that needs a session); keys carry an optional name and
 * expiry, shown in lists with their last use; expired keys answer 401 everywhere, forward auth
 * included; an admin revokes every key of a user; the password-reset notice lists active keys.
 */
import { describe, expect, it } from 'vitest';
import { generateApiKey, maskApiKey } from '@tools-portal/core';
import { useMailedPortal } from './support/smtp.js';
import { createApp, failure, unique, useTestPortal, type TestPortal } from './support/support.js';

const API = '/api/auth/v1';

function call(portal: TestPortal, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  return portal.fetch(`${API}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function errorOf(response: Response): Promise<{ status: number; code: string; field?: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string; details?: { field?: string } } };
  return { status: response.status, code: body.error.code, field: body.error.details?.field, message: body.error.message };
}

const HOUR_MS = 60 * 60 * 1000;

describe('API keys and credentials', () => {
  const portal = useTestPortal();

  it('a key can neither create nor delete keys: 403 session_required, and the first key stays deletable', async () => {
    const user = await portal.createUser();
    const key = generateApiKey();
    const created = await user.api.accessTokens.create(key);
    const second = generateApiKey();
    expect(await errorOf(await call(portal, 'POST', `/accesstoken/${second}`, { token: key }))).toMatchObject({ status: 403, code: 'session_required' });
    expect(await errorOf(await call(portal, 'POST', `/accesstoken/${second}`, { token: key, body: { name: 'second' } }))).toMatchObject({
      status: 403,
      code: 'session_required',
    });
    expect(await errorOf(await call(portal, 'DELETE', `/accesstoken/${created.id}`, { token: key }))).toMatchObject({ status: 403, code: 'session_required' });
    expect(await errorOf(await call(portal, 'DELETE', `/accesstoken/${key}`, { token: key }))).toMatchObject({ status: 403, code: 'session_required' });
    expect((await call(portal, 'GET', '/user/me', { token: second })).status).toBe(401);
    expect((await user.api.accessTokens.list()).map((listed) => listed.id)).toEqual([created.id]);
    await user.api.accessTokens.delete(created.id);
    expect((await call(portal, 'GET', '/user/me', { token: key })).status).toBe(401);
  });

  it('every call that needs a session refuses a key with the one code session_required', async () => {
    const user = await portal.createUser();
    const key = generateApiKey();
    await user.api.accessTokens.create(key);
    for (const [method, path, body] of [
      ['POST', '/user/me/totp'],
      ['GET', '/user/me/session'],
      ['DELETE', '/user/me/session'],
      ['GET', '/user/me/passkey'],
      ['POST', '/user/me/password', { Password: user.password, NewPassword: 'a-new-long-passphrase-9' }],
    ] as const) {
      const refused = await errorOf(await call(portal, method, path, { token: key, body }));
      expect(refused, `${method} ${path}`).toMatchObject({ status: 403, code: 'session_required' });
    }
    const adminKey = generateApiKey();
    await portal.admin.accessTokens.create(adminKey);
    expect(await errorOf(await call(portal, 'DELETE', `/user/${user.user.id}/mfa`, { token: adminKey }))).toMatchObject({
      status: 403,
      code: 'session_required',
    });
    expect(await errorOf(await call(portal, 'DELETE', `/user/${user.user.id}/accesstoken`, { token: adminKey }))).toMatchObject({
      status: 403,
      code: 'session_required',
    });
  });

  it('a key gets an optional name and expiry, listed with its last use', async () => {
    const user = await portal.createUser();
    const plain = generateApiKey();
    expect(await user.api.accessTokens.create(plain)).toMatchObject({ name: null, expiresTimestamp: null, lastUsedTimestamp: null });
    const named = generateApiKey();
    const expires = new Date(Date.now() + 48 * HOUR_MS).toISOString();
    const created = await user.api.accessTokens.create(named, { name: '  deploy bot  ', expires });
    expect(created).toMatchObject({ token: maskApiKey(named), name: 'deploy bot', expiresTimestamp: expires, lastUsedTimestamp: null });
    expect((await portal.client(named).users.me()).email).toBe(user.email);
    const listed = await user.api.accessTokens.list();
    expect(listed.map((key) => [key.name, key.expiresTimestamp])).toEqual([
      [null, null],
      ['deploy bot', expires],
    ]);
    expect(listed[1].lastUsedTimestamp).not.toBeNull();
    // A body of only one of the two, or an empty one, is fine.
    expect(await user.api.accessTokens.create(generateApiKey(), { name: 'ci' })).toMatchObject({ name: 'ci', expiresTimestamp: null });
    expect(await user.api.accessTokens.create(generateApiKey(), {})).toMatchObject({ name: null, expiresTimestamp: null });
  });

  it('refuses a bad name or expiry with a 400 naming the field, and stores nothing', async () => {
    const user = await portal.createUser();
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'line\nbreak' }, 'name'],
      [{ name: 42 }, 'name'],
      [{ expires: 'tomorrow' }, 'expires'],
      [{ expires: new Date(Date.now() - 1000).toISOString() }, 'expires'],
      [{ expires: 12 }, 'expires'],
      [[], 'body'],
    ];
    for (const [body, field] of cases) {
      const refused = await errorOf(await call(portal, 'POST', `/accesstoken/${generateApiKey()}`, { token: user.token, body }));
      expect(refused, JSON.stringify(body)).toMatchObject({ status: 400, code: 'invalid_input', field });
    }
    expect(await failure(user.api.accessTokens.create(generateApiKey(), { expires: '2001-01-01' }))).toMatchObject({
      field: 'expires',
      message: 'expires: must be in the future',
    });
    expect(await user.api.accessTokens.list()).toEqual([]);
  });

  it('an expired key answers 401 on the API and on forward auth (after at most the cache bound)', async () => {
    const app = await createApp(portal.admin);
    const user = await portal.createUser({ apps: [app] });
    const key = generateApiKey();
    const warm = generateApiKey();
    const created = await user.api.accessTokens.create(key, { expires: new Date(Date.now() + HOUR_MS).toISOString() });
    const warmed = await user.api.accessTokens.create(warm, { expires: new Date(Date.now() + HOUR_MS).toISOString() });
    const verify = (token: string) =>
      portal.fetch(`${API}/verify?app=${encodeURIComponent(app.name)}`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
    expect((await verify(warm)).status).toBe(200);
    await portal.deps
      .db('api_keys')
      .whereIn('id', [created.id, warmed.id])
      .update({ expires_at: Date.now() - 1 });
    expect((await call(portal, 'GET', '/user/me', { token: key })).status).toBe(401);
    expect((await call(portal, 'GET', '/user/me', { token: warm })).status).toBe(401);
    expect((await verify(key)).status).toBe(401);
    portal.passCacheBound();
    expect((await verify(warm)).status).toBe(401);
    // Listed still, so that its owner sees it expired and deletes it.
    expect((await user.api.accessTokens.list()).map((listed) => listed.id)).toEqual([created.id, warmed.id]);
  });

  it('an admin revokes every key of a user at once; others keep theirs; a user may not', async () => {
    const app = await createApp(portal.admin);
    const user = await portal.createUser({ apps: [app] });
    const other = await portal.createUser();
    const keys = [generateApiKey(), generateApiKey()];
    for (const key of keys) await user.api.accessTokens.create(key);
    const kept = generateApiKey();
    await other.api.accessTokens.create(kept);
    expect((await call(portal, 'GET', `/user/${user.user.id}/accesstoken`, { token: user.token })).status).not.toBe(200);
    expect((await call(portal, 'DELETE', `/user/${user.user.id}/accesstoken`, { token: user.token })).status).toBe(403);
    const verify = (token: string) =>
      portal.fetch(`${API}/verify?app=${encodeURIComponent(app.name)}`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
    expect((await verify(keys[0])).status).toBe(200);
    expect(await portal.admin.users.revokeKeys(user.user.id)).toEqual({ revoked: 2 });
    for (const key of keys) expect((await call(portal, 'GET', '/user/me', { token: key })).status).toBe(401);
    expect((await verify(keys[0])).status).toBe(401);
    expect(await user.api.accessTokens.list()).toEqual([]);
    expect((await call(portal, 'GET', '/user/me', { token: kept })).status).toBe(200);
    expect((await call(portal, 'GET', '/user/me', { token: user.token })).status).toBe(200);
    expect(await portal.admin.users.revokeKeys(user.user.id)).toEqual({ revoked: 0 });
    expect(await failure(portal.admin.users.revokeKeys(2_000_000_000))).toMatchObject({ code: 'not_found' });
    const entries = (await portal.admin.logs.page(1, 20)).filter((logged) => logged.user === user.email && logged.event.startsWith('revoked'));
    expect(entries.map((logged) => logged.event)).toEqual([`revoked 0 API keys of ${user.email}`, `revoked 2 API keys of ${user.email}`]);
  });
});

describe('the password-reset notice lists the active API keys', () => {
  const { portal, smtp } = useMailedPortal();

  it('names each active key (masked, name, last use) and links to the Access Tokens page', async () => {
    const user = await portal.createUser();
    const used = generateApiKey();
    const unnamed = generateApiKey();
    const expired = generateApiKey();
    await user.api.accessTokens.create(used, { name: 'deploy bot' });
    await user.api.accessTokens.create(unnamed);
    const gone = await user.api.accessTokens.create(expired, { name: 'old', expires: new Date(Date.now() + HOUR_MS).toISOString() });
    await portal.deps
      .db('api_keys')
      .where({ id: gone.id })
      .update({ expires_at: Date.now() - 1 });
    await portal.client(used).users.me();
    const { link } = await portal.admin.users.passwordReset(user.user.id);
    const token = /\/auth\/#\/reset\/([A-Za-z0-9_-]+)/.exec(link)![1];
    await portal.anonymous.auth.resetPassword({ Token: token, Password: `${unique('pw')}-long` });
    const mails = await smtp.waitFor(user.email, 2);
    const notice = mails.find((mail) => mail.subject === 'Your Tools-Server password was reset')!;
    expect(notice.text).toContain(`${maskApiKey(used)} (deploy bot), last used `);
    expect(notice.text).toContain(`${maskApiKey(unnamed)}, never used`);
    expect(notice.text).not.toContain(maskApiKey(expired));
    expect(notice.text).toContain('A password reset does not end API keys');
    expect(notice.text).toContain(`${portal.url}/auth/#/accesstokens`);
    expect(notice.html).toContain(`href="${portal.url}/auth/#/accesstokens"`);
  });

  it('says nothing of keys when the user has none', async () => {
    const user = await portal.createUser();
    const { link } = await portal.admin.users.passwordReset(user.user.id);
    const token = /\/auth\/#\/reset\/([A-Za-z0-9_-]+)/.exec(link)![1];
    await portal.anonymous.auth.resetPassword({ Token: token, Password: `${unique('pw')}-long` });
    const mails = await smtp.waitFor(user.email, 2);
    const notice = mails.find((mail) => mail.subject === 'Your Tools-Server password was reset')!;
    expect(notice.text).not.toContain('API key');
  });
});
