import { generateApiKey, maskApiKey } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, failure, useTestPortal } from './support/support.js';

// A high address limit keeps this file's many deliberate failures from banning 127.0.0.1.
const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '1000' });

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('password login', () => {
  it('answers the access token and sets the session cookie', async () => {
    const response = await portal.fetch('/api/auth/v1/validatepassword', json({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { accesstoken: string; redirect: string };
    expect(body.redirect).toBe('/auth/#/applist/');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`accesstoken=${body.accesstoken}`);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Max-Age=31536000/);
    expect(cookie).not.toMatch(/Secure/);
    // The cookie alone authenticates reads.
    const me = await portal.fetch('/api/auth/v1/user/me', { headers: { cookie: `accesstoken=${body.accesstoken}` } });
    expect(((await me.json()) as { email: string }).email).toBe(ADMIN_EMAIL);
  });

  it('issues a new token at every login', async () => {
    expect(await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD)).not.toBe(await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD));
  });

  it('answers the same for an unknown email and a wrong password', async () => {
    const unknown = await failure(portal.login('nobody@example.com', 'whatever-password'));
    const wrong = await failure(portal.login(ADMIN_EMAIL, 'wrong-password'));
    expect(unknown).toEqual({ code: 'unauthenticated', message: 'wrong email or password', field: undefined });
    expect(wrong).toEqual(unknown);
  });

  it('treats the email case-insensitively', async () => {
    await portal.login(ADMIN_EMAIL.toUpperCase(), ADMIN_PASSWORD);
  });

  it('refuses a malformed body naming the field', async () => {
    expect(await failure(portal.anonymous.auth.login({ Email: '', Password: 'x' }))).toMatchObject({ field: 'Email' });
    expect(await failure(portal.anonymous.auth.login({ Email: 'a@b.c' } as never))).toMatchObject({ field: 'Password' });
  });

  it('bans an email after 5 failures within the window: the 6th answers 429 with Retry-After', async () => {
    const { email, password } = await portal.createUser();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await portal.fetch('/api/auth/v1/validatepassword', json({ Email: email, Password: `wrong-${attempt}` }));
      expect(response.status, `attempt ${attempt}`).toBe(401);
    }
    const sixth = await portal.fetch('/api/auth/v1/validatepassword', json({ Email: email, Password: password }));
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(Number(sixth.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    expect(((await sixth.json()) as { error: { code: string } }).error.code).toBe('too_many_requests');
  });
});

describe('a failed login whose email field is not an email', () => {
  it('logs "(not an email)", never the text, and stores the text nowhere', async () => {
    const typed = `Secret-Typed-Into-Email-${Date.now()}`;
    expect(await failure(portal.login(typed, 'whatever-password'))).toMatchObject({ code: 'unauthenticated' });
    const [row] = await portal.deps.db('auth_log').orderBy('id', 'desc').limit(1).select('user', 'event');
    expect(row).toEqual({ user: '(not an email)', event: 'login failed: unknown email' });
    for (const table of ['auth_log', 'login_attempts', 'login_bans']) {
      const rows = await portal.deps.db(table).select('*');
      expect(JSON.stringify(rows).toLowerCase()).not.toContain(typed.toLowerCase());
    }
    // An email is still logged as typed.
    await failure(portal.login('someone-unknown@example.com', 'whatever-password'));
    const [last] = await portal.deps.db('auth_log').orderBy('id', 'desc').limit(1).select('user');
    expect(last.user).toBe('someone-unknown@example.com');
  });
});

describe('logout and sessions', () => {
  it('revokes the session and clears the cookie', async () => {
    const { email, password } = await portal.createUser();
    const token = await portal.login(email, password);
    const other = await portal.login(email, password);
    const response = await portal.fetch('/api/auth/v1/logout', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(/accesstoken=;.*Max-Age=0/);
    expect(await failure(portal.client(token).users.me())).toMatchObject({ code: 'unauthenticated' });
    // Other sessions of the same user live on.
    expect((await portal.client(other).users.me()).email).toBe(email);
  });

  it('answers 401 for an unknown, garbled or huge token', async () => {
    for (const token of ['nope', 'x'.repeat(600), generateApiKey()]) {
      expect(await failure(portal.client(token).users.me())).toMatchObject({ code: 'unauthenticated' });
    }
  });

  it('ends a session that has been idle too long', async () => {
    const { email, password } = await portal.createUser();
    const token = await portal.login(email, password);
    const user = await portal.client(token).users.me();
    await portal.deps
      .db('sessions')
      .where({ user_id: user.id })
      .update({ last_seen_at: Date.now() - 31 * 24 * 3600 * 1000 });
    expect(await failure(portal.client(token).users.me())).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('CSRF', () => {
  it('refuses an unsafe cookie-authenticated call without our Origin', async () => {
    const token = await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const call = (headers: Record<string, string>) =>
      portal.fetch('/api/auth/v1/client/', json({ name: `csrf-${Math.random()}` }, { cookie: `accesstoken=${token}`, ...headers }));
    expect((await call({})).status).toBe(403);
    expect((await call({ origin: 'https://evil.example.net' })).status).toBe(403);
    expect((await call({ origin: portal.url })).status).toBe(201);
    expect((await call({ referer: `${portal.url}/auth/` })).status).toBe(201);
  });

  it('exempts Bearer calls and refuses a foreign-origin login', async () => {
    const token = await portal.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const bearer = await portal.fetch(
      '/api/auth/v1/client/',
      json({ name: `bearer-${Math.random()}` }, { authorization: `Bearer ${token}`, origin: 'https://elsewhere.example' }),
    );
    expect(bearer.status).toBe(201);
    const login = await portal.fetch(
      '/api/auth/v1/validatepassword',
      json({ Email: ADMIN_EMAIL, Password: ADMIN_PASSWORD }, { origin: 'https://evil.example.net' }),
    );
    expect(login.status).toBe(403);
  });
});

describe('API keys', () => {
  it('creates a key that acts as its owner, lists it masked, and deletes it', async () => {
    const { api, email } = await portal.createUser();
    const key = generateApiKey();
    const created = await api.accessTokens.create(key);
    expect(created).toMatchObject({ id: expect.any(Number), token: maskApiKey(key), lastUsedTimestamp: null, user: { email } });
    const viaKey = portal.client(key);
    expect((await viaKey.users.me()).email).toBe(email);
    expect(await failure(viaKey.users.list())).toMatchObject({ code: 'forbidden' });
    const [listed] = await api.accessTokens.list();
    expect(listed.token).toBe(maskApiKey(key));
    expect(listed.lastUsedTimestamp).not.toBeNull();
    expect(JSON.stringify(await api.accessTokens.list())).not.toContain(key.slice(7));
    await api.accessTokens.delete(key);
    expect(await failure(viaKey.users.me())).toMatchObject({ code: 'unauthenticated' });
    expect(await api.accessTokens.list()).toEqual([]);
  });

  it('deletes by id, only your own, and admins may delete any', async () => {
    const owner = await portal.createUser();
    const stranger = await portal.createUser();
    const key = generateApiKey();
    const created = await owner.api.accessTokens.create(key);
    expect(await failure(stranger.api.accessTokens.delete(created.id))).toMatchObject({ code: 'not_found' });
    expect(await failure(stranger.api.accessTokens.delete(key))).toMatchObject({ code: 'not_found' });
    await portal.admin.accessTokens.delete(created.id);
    expect(await failure(portal.client(key).users.me())).toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses malformed and duplicate keys', async () => {
    const { api } = await portal.createUser();
    expect(await failure(api.accessTokens.create('apikey-short'))).toMatchObject({ code: 'invalid_input', field: 'token' });
    expect(await failure(api.accessTokens.create(`apikey-${'!'.repeat(100)}`))).toMatchObject({ field: 'token' });
    const key = generateApiKey();
    await api.accessTokens.create(key);
    expect(await failure(api.accessTokens.create(key))).toMatchObject({ code: 'conflict' });
    expect(await failure(api.accessTokens.delete('not a key'))).toMatchObject({ field: 'token' });
  });

  it('dies with its user', async () => {
    const { api, user } = await portal.createUser();
    const key = generateApiKey();
    await api.accessTokens.create(key);
    await portal.admin.users.delete(user.id);
    expect(await failure(portal.client(key).users.me())).toMatchObject({ code: 'unauthenticated' });
  });

  it('needs a login', async () => {
    expect(await failure(portal.anonymous.accessTokens.create(generateApiKey()))).toMatchObject({ code: 'unauthenticated' });
    expect(await failure(portal.anonymous.accessTokens.list())).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('login options and health', () => {
  it('offers password login only when Google is not configured', async () => {
    expect(await portal.anonymous.auth.options()).toMatchObject({ google: false, passwordReset: false, defaultLanguage: 'en' });
  });

  it('answers health', async () => {
    expect(await portal.anonymous.health()).toEqual({ status: 'ok' });
  });
});
