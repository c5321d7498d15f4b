/**
 * `toolsctl login` in the browser (the device grant; docs/cli.md): the real toolsctl asks, prints the
 * page and the code, and polls while a signed-in user allows or denies on the portal; the session
 * it saves (0600) works, renews itself with a rotating refresh token, and ends with `toolsctl logout`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pollDevice, refreshDevice, signedInDevice } from '../../server/test/support/device-flow.js';
import { createApp, useTestPortal, type TestUser } from '../../server/test/support/support.js';
import { bin, cleanEnv, removeTempHomes, tempHome, toolsctl, type Run } from './toolsctl.js';

const portal = useTestPortal();
afterAll(() => {
  removeTempHomes();
});

interface Stored {
  url?: string;
  token?: string;
  refreshToken?: string;
  tokenExpires?: number;
  email?: string;
}
const configFile = (home: string) => path.join(home, '.config', 'toolsctl', 'config.json');
const stored = (home: string) => JSON.parse(fs.readFileSync(configFile(home), 'utf8')) as Stored;

/** Runs `toolsctl login` and calls `decide` with the code it prints (and its stderr so far); answers how it ended. */
function loginInBrowser(home: string, decide: (userCode: string, stderr: () => string) => Promise<void>, args: string[] = []): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'login', '--url', portal.url, '--no-browser', ...args], {
      env: cleanEnv(home),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let decided = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`toolsctl login did not finish in time\n${stderr}`));
    }, 40_000);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const code = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(stderr)?.[1];
      if (code && !decided) {
        decided = true;
        decide(code, () => stderr).catch(reject);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });
}

const allowAs = (user: TestUser) => (code: string) => user.api.device.approve(code);

/**
 * A home where toolsctl is signed in as `user` in the browser, saved as `toolsctl login` saves it
 * (the test above), for tests of what comes after the sign-in: the device grant is made by the
 * test itself, which need not wait the interval before toolsctl's first poll (5 seconds).
 */
async function signedInHome(user: TestUser): Promise<string> {
  const home = tempHome();
  const { access, refresh, expiresIn } = await signedInDevice(portal.url, user.api, os.hostname());
  fs.mkdirSync(path.dirname(configFile(home)), { recursive: true, mode: 0o700 });
  const saved: Stored = { url: portal.url, token: access, refreshToken: refresh, tokenExpires: Date.now() + expiresIn * 1000, email: user.email };
  fs.writeFileSync(configFile(home), JSON.stringify(saved), { mode: 0o600 });
  return home;
}

describe('toolsctl login in the browser', () => {
  it('prints the page and the code, waits for Allow, and saves a session named after this host (0600)', async () => {
    const user = await portal.createUser();
    const home = tempHome();
    const result = await loginInBrowser(home, allowAs(user));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`To sign in, open ${portal.url}/auth/#/device and enter the code`);
    expect(result.stderr).toMatch(new RegExp(`or open ${portal.url}/auth/#/device/[A-Z]{4}-[A-Z]{4}`));
    expect(result.stdout).toContain(`logged in to ${portal.url} as ${user.email}`);
    expect(fs.statSync(configFile(home)).mode & 0o777).toBe(0o600);
    expect(stored(home)).toMatchObject({ url: portal.url, email: user.email, refreshToken: expect.any(String), tokenExpires: expect.any(Number) });
    const sessions = await user.api.account.sessions.list();
    expect(sessions.map((session) => session.name)).toContain(`toolsctl on ${os.hostname()}`);
    const whoami = await toolsctl(home, ['whoami', '--json']);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ email: user.email });
  });

  it('renews the access token near its end with the refresh token, which rotates', async () => {
    const user = await portal.createUser();
    const home = await signedInHome(user);
    const before = stored(home);
    fs.writeFileSync(configFile(home), JSON.stringify({ ...before, tokenExpires: 0 }), { mode: 0o600 });
    // Two commands at once: one renews, the other waits for the lock and uses the renewed token.
    const [first, second] = await Promise.all([toolsctl(home, ['whoami', '--json']), toolsctl(home, ['whoami', '--json'])]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    const after = stored(home);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.token).not.toBe(before.token);
    expect(after.tokenExpires).toBeGreaterThan(Date.now());
    expect((await refreshDevice(portal.url, before.refreshToken!)).body.error).toBe('invalid_grant');
  });

  it('logout ends the session on the server: the tokens stop working', async () => {
    const user = await portal.createUser();
    const home = await signedInHome(user);
    const { token, refreshToken } = stored(home);
    expect((await toolsctl(home, ['logout'])).code).toBe(0);
    expect(stored(home).refreshToken).toBeUndefined();
    expect((await portal.fetch('/api/auth/v1/user/me', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await refreshDevice(portal.url, refreshToken!)).body.error).toBe('invalid_grant');
  });

  it('an ended session asks to log in again (exit 3)', async () => {
    const user = await portal.createUser();
    const home = await signedInHome(user);
    await portal.admin.users.endSessions(user.user.id);
    fs.writeFileSync(configFile(home), JSON.stringify({ ...stored(home), tokenExpires: 0 }), { mode: 0o600 });
    const whoami = await toolsctl(home, ['whoami']);
    expect(whoami.code).toBe(3);
    expect(whoami.stderr).toContain('run `toolsctl login`');
    // Logging out of an ended session forgets it.
    expect((await toolsctl(home, ['logout'])).code).toBe(0);
    expect(stored(home).token).toBeUndefined();
  });

  it('says so when the portal answers slow_down, and still signs in', async () => {
    const user = await portal.createUser();
    const home = tempHome();
    const slowedDown = 'The portal asked toolsctl to check less often; still waiting for you to allow it';
    const result = await loginInBrowser(home, async (code, stderr) => {
      // Other polls of the same request: toolsctl's first poll comes too soon after one of them.
      const [row] = await portal.deps
        .db('oidc_payloads')
        .where({ model: 'DeviceCode', user_code: code.replace('-', '') })
        .select('id');
      expect((await pollDevice(portal.url, row.id as string)).body.error).toBe('authorization_pending');
      // Polls every second until toolsctl says it was told to slow down, so that its first poll
      // (due 5 s after it asked, later on a busy machine) comes within the interval of one of them.
      for (let second = 0; second < 30 && !stderr().includes(slowedDown); second++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await pollDevice(portal.url, row.id as string);
      }
      await user.api.device.approve(code);
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(slowedDown);
  });

  it('a denied sign-in exits 6 and saves nothing', async () => {
    const user = await portal.createUser();
    const home = tempHome();
    const result = await loginInBrowser(home, (code) => user.api.device.deny(code));
    expect(result.code).toBe(6);
    expect(result.stderr).toContain('the sign-in was denied');
    expect(fs.existsSync(configFile(home))).toBe(false);
  });

  it('a code that expires exits 7', async () => {
    const home = tempHome();
    const result = await loginInBrowser(home, async (code) => {
      // The clock moves past the code's end (its stored expiry).
      const db = portal.deps.db;
      const rows: { id: string; payload: string }[] = await db('oidc_payloads')
        .where({ model: 'DeviceCode', user_code: code.replace('-', '') })
        .select('id', 'payload');
      const payload = JSON.parse(rows[0].payload) as { exp: number };
      await db('oidc_payloads')
        .where({ model: 'DeviceCode', id: rows[0].id })
        .update({ payload: JSON.stringify({ ...payload, exp: Math.floor(Date.now() / 1000) - 1 }) });
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('the code expired');
  });
});

describe('toolsctl login in the browser, refused before it starts', () => {
  it("names the portal's own address when reached by another one (exit 2)", async () => {
    const other = portal.url.replace('127.0.0.1', 'localhost');
    const result = await toolsctl(tempHome(), ['login', '--no-browser', '--url', other]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`sign in with --url ${portal.url}`);
  });
});

describe('toolsctl apps oidc --device', () => {
  it('lets an app use the device grant', async () => {
    const app = await createApp(portal.admin);
    const env = { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token };
    const enabled = await toolsctl(tempHome(), ['apps', 'oidc', app.name, '--redirect-uri', 'http://127.0.0.1:9/cb', '--public', '--device', '--json'], {
      env,
    });
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(JSON.parse(enabled.stdout)).toMatchObject({ client_id: app.name, public: true, device: true });
    expect((await portal.admin.apps.oidc.get(app.id)).device).toBe(true);
  });
});
