import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CurrentUser } from '@tools-portal/core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, failure, unique, useTestPortal } from '../../server/test/support/support.js';
import { json, removeTempHomes, tempHome, toolsctl, toolsctlOnTerminal } from './toolsctl.js';

const portal = useTestPortal();
afterAll(() => {
  removeTempHomes();
});

const configFile = (home: string) => path.join(home, '.config', 'toolsctl', 'config.json');
const storedToken = (home: string) => (JSON.parse(fs.readFileSync(configFile(home), 'utf8')) as { token?: string }).token;

describe('login, whoami, logout', () => {
  it('logs in with --password-stdin, saves the session 0600, uses it, and logs out on the server', async () => {
    const home = tempHome();
    const login = await toolsctl(home, ['login', '--url', portal.url, '--email', ADMIN_EMAIL, '--password-stdin'], { input: `${ADMIN_PASSWORD}\n` });
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`logged in to ${portal.url} as ${ADMIN_EMAIL} (admin)`);
    expect(fs.statSync(configFile(home)).mode & 0o777).toBe(0o600);
    const token = storedToken(home)!;
    expect((await portal.client(token).users.me()).email).toBe(ADMIN_EMAIL);

    // The saved URL and session serve later commands without flags.
    const me = json<CurrentUser>(await toolsctl(home, ['whoami', '--json']));
    expect(me).toMatchObject({ email: ADMIN_EMAIL, admin: true, client: { name: 'Admin' } });
    expect((await toolsctl(home, ['whoami'])).stdout).toMatch(/│ admin\s+│ yes/);

    const logout = await toolsctl(home, ['logout']);
    expect(logout.code).toBe(0);
    expect(storedToken(home)).toBeUndefined();
    expect(await failure(portal.client(token).users.me())).toMatchObject({ code: 'unauthenticated' });
    expect((await toolsctl(home, ['whoami'])).code).toBe(3);
  });

  it('answers a wrong password with exit 3 and saves nothing', async () => {
    const home = tempHome();
    const result = await toolsctl(home, ['login', '--url', portal.url, '--email', ADMIN_EMAIL, '--password-stdin'], { input: 'wrong-password-1' });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^toolsctl: error: /);
    expect(fs.existsSync(configFile(home))).toBe(false);
  });

  it('never waits for a prompt when stdin is not a terminal', async () => {
    const result = await toolsctl(tempHome(), ['login', '--password', '--url', portal.url], { timeoutMs: 10_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--password-stdin');
  });

  it('does not send a saved session to another portal', async () => {
    const home = tempHome();
    await toolsctl(home, ['login', '--url', portal.url, '--email', ADMIN_EMAIL, '--password-stdin'], { input: ADMIN_PASSWORD });
    const elsewhere = await toolsctl(home, ['whoami', '--url', 'http://127.0.0.1:9']);
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toContain('not logged in to http://127.0.0.1:9');
  });
});

describe('on a terminal', () => {
  it('asks for email and password with prompts and logs in', async () => {
    const home = tempHome();
    const { code, transcript } = await toolsctlOnTerminal(
      home,
      ['login', '--password', '--url', portal.url],
      [
        { expect: 'Email', type: `${ADMIN_EMAIL}\r` },
        { expect: 'Password', type: `${ADMIN_PASSWORD}\r` },
      ],
    );
    expect(code).toBe(0);
    expect(transcript).toContain(`logged in to ${portal.url} as ${ADMIN_EMAIL}`);
    expect(transcript).not.toContain(ADMIN_PASSWORD);
    expect((await portal.client(storedToken(home)).users.me()).email).toBe(ADMIN_EMAIL);
  });

  it('asks before deleting: no keeps the client, yes deletes it', async () => {
    const home = tempHome();
    const env = { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token! };
    const client = await portal.admin.clients.create(unique('Doomed'));

    const declined = await toolsctlOnTerminal(home, ['clients', 'delete', client.name], [{ expect: 'Really delete client', type: 'n\r' }], { env });
    expect(declined.code).toBe(2);
    expect((await portal.admin.clients.get(client.id)).name).toBe(client.name);

    const accepted = await toolsctlOnTerminal(home, ['clients', 'delete', client.name], [{ expect: 'Really delete client', type: 'y\r' }], { env });
    expect(accepted.code).toBe(0);
    expect(accepted.transcript).toContain(`deleted client ${client.name}`);
    expect(await failure(portal.admin.clients.get(client.id))).toMatchObject({ code: 'not_found' });
  });

  it('colours tables on a terminal, and not with NO_COLOR', async () => {
    const env = { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token! };
    const coloured = await toolsctlOnTerminal(tempHome(), ['clients', 'list'], [], { env });
    expect(coloured.code).toBe(0);
    expect(coloured.transcript).toContain('\u001b[1mname\u001b[22m');
    const plain = await toolsctlOnTerminal(tempHome(), ['clients', 'list'], [], { env: { ...env, NO_COLOR: '1' } });
    expect(plain.transcript).toMatch(/│ name\s+│/);
    expect(plain.transcript).not.toContain('\u001b[');
  });
});
