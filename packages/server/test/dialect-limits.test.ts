/**
 * Values one database would store and the other refuses (PostgreSQL: no U+0000 in text, 32-bit
 * ids) get the same answer on both: 400 naming the field, never a 500.
 */
import { describe, expect, it } from 'vitest';
import { createApp, useTestPortal } from './support/support.js';

const portal = useTestPortal();

async function send(method: string, path: string, body?: unknown, token: string | undefined = portal.admin.token) {
  const response = await portal.fetch(`/api/auth/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => undefined)) as { error?: { code: string; details?: { field?: string } } } | undefined,
  };
}

describe('values only one database would take', () => {
  it('U+0000 in text is refused, naming the field', async () => {
    const app = await send('POST', '/app/', { name: 'nul-app', url: 'https://nul.example.com/', description: 'a\u0000b' });
    expect(app).toMatchObject({ status: 400, body: { error: { code: 'invalid_input', details: { field: 'description' } } } });
    const login = await send('POST', '/validatepassword', { Email: 'a\u0000@example.com', Password: 'whatever-password' }, undefined);
    expect(login).toMatchObject({ status: 400, body: { error: { details: { field: 'Email' } } } });
    const register = await send('POST', '/register/', { Token: 'token\u0000', Password: 'long enough password' }, undefined);
    expect(register).toMatchObject({ status: 400, body: { error: { details: { field: 'Token' } } } });
  });

  it('ids past 32 bits are refused; the largest 32-bit id is merely unknown', async () => {
    expect((await send('GET', '/app/2147483647')).status).toBe(404);
    expect(await send('GET', '/app/2147483648')).toMatchObject({ status: 400, body: { error: { details: { field: 'id' } } } });
    const app = await createApp(portal.admin);
    const { user } = await portal.createUser();
    expect(await send('POST', `/user/${user.id}/app`, { appid: 2147483648 })).toMatchObject({ status: 400, body: { error: { details: { field: 'appid' } } } });
    expect(await send('POST', '/registrationtoken/', { email: 'big@example.com', clientid: 2147483648, apps: [app.id] })).toMatchObject({ status: 400 });
    expect((await send('DELETE', '/accesstoken/9007199254740991')).status).toBe(400);
    expect((await send('DELETE', '/accesstoken/2147483647')).status).toBe(404);
  });

  it('the last page of the event log is empty, not an error (its offset is written into the SQL as a number)', async () => {
    expect(await send('GET', '/log/2147483647/100')).toMatchObject({ status: 200, body: [] });
    expect((await send('GET', '/log/2147483648/100')).status).toBe(400);
  });
});
