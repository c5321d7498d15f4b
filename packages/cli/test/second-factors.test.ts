// toolsctl and second factors (docs/cli.md): login with a second factor (--code, asked on a terminal,
// exit 3 without either), users reset-mfa, sessions list|revoke, against a real server.
import { afterAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { PortalClient } from '@tools-portal/core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, failure, useTestPortal } from '../../server/test/support/support.js';
import { json, removeTempHomes, tempHome, toolsctl, toolsctlOnTerminal } from './toolsctl.js';

const portal = useTestPortal();
afterAll(() => {
  removeTempHomes();
});

describe('toolsctl for second factors and sessions: usage', () => {
  it('has help with an example on each new command', async () => {
    for (const command of ['sessions list', 'sessions revoke', 'users reset-mfa']) {
      const help = await toolsctl(tempHome(), [...command.split(' '), '--help']);
      expect({ command, code: help.code }).toEqual({ command, code: 0 });
      expect(help.stdout).toMatch(/Examples?:\n {2}\$ .*toolsctl /);
    }
    expect((await toolsctl(tempHome(), ['login', '--help'])).stdout).toContain('--code <code>');
  });

  it('sessions revoke wants an id or --others, not both, not neither (exit 2)', async () => {
    const home = tempHome();
    await toolsctl(home, ['login', '--url', portal.url, '--email', ADMIN_EMAIL, '--password-stdin'], { input: ADMIN_PASSWORD });
    for (const args of [
      ['sessions', 'revoke'],
      ['sessions', 'revoke', '7', '--others'],
      ['sessions', 'revoke', 'abc'],
    ]) {
      const result = await toolsctl(home, args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
    }
  });
});

/** A user with an authenticator app enrolled through the API, and a way to make its codes. */
async function userWithAuthenticator() {
  const user = await portal.createUser();
  const { secret } = await user.api.account.totp.start();
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  const { recoveryCodes } = await user.api.account.totp.confirm(totp.generate());
  // The enrolment used this period's code; the next period's is within the allowed drift.
  const nextCode = () => totp.generate({ timestamp: Date.now() + 30_000 });
  return { ...user, nextCode, recoveryCodes };
}

describe('toolsctl for second factors and sessions', () => {
  it('login: --code finishes the sign-in; without a terminal and without --code it exits 3 and saves nothing', async () => {
    const user = await userWithAuthenticator();
    const home = tempHome();
    const refused = await toolsctl(home, ['login', '--url', portal.url, '--email', user.email, '--password-stdin'], {
      input: user.password,
      timeoutMs: 10_000,
    });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--code');
    expect((await toolsctl(home, ['whoami'])).code).toBe(3);

    const wrong = await toolsctl(home, ['login', '--url', portal.url, '--email', user.email, '--password-stdin', '--code', '000000'], { input: user.password });
    expect(wrong.code).toBe(3);

    const login = await toolsctl(home, ['login', '--url', portal.url, '--email', user.email, '--password-stdin', '--code', user.nextCode()], {
      input: user.password,
    });
    expect(login.code).toBe(0);
    expect(json<{ email: string }>(await toolsctl(home, ['whoami', '--json'])).email).toBe(user.email);

    // A recovery code works as --code too, once.
    const again = tempHome();
    const recovery = ['login', '--url', portal.url, '--email', user.email, '--password-stdin', '--code', user.recoveryCodes[0]!];
    expect((await toolsctl(again, recovery, { input: user.password })).code).toBe(0);
    expect((await toolsctl(tempHome(), recovery, { input: user.password })).code).toBe(3);
  });

  it('login asks for the code on a terminal', async () => {
    const user = await userWithAuthenticator();
    const home = tempHome();
    const result = await toolsctlOnTerminal(
      home,
      ['login', '--password', '--url', portal.url],
      [
        { expect: 'Email', type: `${user.email}\r` },
        { expect: 'Password', type: `${user.password}\r` },
        { expect: 'authenticator app', type: `${user.nextCode()}\r` },
      ],
    );
    expect(result.code, result.transcript).toBe(0);
    expect(result.transcript).toContain(`logged in to ${portal.url} as ${user.email}`);
  });

  it('users reset-mfa removes the factors and ends the sessions; the password alone signs in again', async () => {
    const user = await userWithAuthenticator();
    const home = tempHome();
    await toolsctl(home, ['login', '--url', portal.url, '--email', ADMIN_EMAIL, '--password-stdin'], { input: ADMIN_PASSWORD });
    expect((await toolsctl(home, ['users', 'reset-mfa', user.email])).code).toBe(2);
    const reset = await toolsctl(home, ['users', 'reset-mfa', user.email, '--yes']);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toContain(`removed the second factors of ${user.email}`);
    expect(await failure(user.api.users.me())).toMatchObject({ code: 'unauthenticated' });
    expect(await portal.login(user.email, user.password)).toEqual(expect.any(String));
    expect((await toolsctl(home, ['users', 'reset-mfa', 'nobody@example.com', '--yes'])).code).toBe(4);
  });

  it('sessions list marks the current one; revoke ends one or the others; an API key is refused (exit 3)', async () => {
    const user = await portal.createUser();
    const browser = await portal.login(user.email, user.password);
    const home = tempHome();
    await toolsctl(home, ['login', '--url', portal.url, '--email', user.email, '--password-stdin'], { input: user.password });
    const sessions = json<Array<{ id: number; current: boolean }>>(await toolsctl(home, ['sessions', 'list', '--json']));
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect(sessions.length).toBeGreaterThanOrEqual(3);
    const other = sessions.find((session) => !session.current)!;
    expect((await toolsctl(home, ['sessions', 'revoke', String(other.id)])).code).toBe(0);
    expect((await toolsctl(home, ['sessions', 'revoke', '999999999'])).code).toBe(4);
    expect((await toolsctl(home, ['sessions', 'revoke', '--others'])).code).toBe(0);
    expect(json<unknown[]>(await toolsctl(home, ['sessions', 'list', '--json']))).toHaveLength(1);
    expect(await failure(new PortalClient({ baseUrl: portal.url, token: browser }).users.me())).toMatchObject({ code: 'unauthenticated' });
    expect((await toolsctl(home, ['whoami'])).code).toBe(0);

    const key = (await toolsctl(home, ['keys', 'create', '-q'])).stdout.trim();
    const withKey = await toolsctl(tempHome(), ['sessions', 'revoke', '--others', '--url', portal.url, '--token', key]);
    expect(withKey.code).toBe(3);
  });
});
