import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  generateApiKey,
  type AccessToken,
  type App,
  type Client,
  type CurrentUser,
  type LogEntry,
  type RegistrationToken,
  type User,
} from '@tools-portal/core';
import { ADMIN_EMAIL, createApp, failure, freePort, unique } from '../../server/test/support/support.js';
import { bin, cleanEnv, json, toolsctlOnTerminal, useAdminToolsctl } from './toolsctl.js';
import { parse as parseCsv } from 'csv-parse/sync';

const cli = useAdminToolsctl();
const { portal, run } = cli;

describe('apps', () => {
  it('creates, lists, shows, updates and deletes apps, as tables and as JSON', async () => {
    const name = unique('wiki');
    const created = await run(['apps', 'create', name, 'https://wiki.example.com/', '--description', 'The wiki', '--description-de', 'Das Wiki']);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`created new app ${name}`);
    expect(created.stdout).toContain('https://wiki.example.com/');
    expect(created.stdout).not.toMatch(/\u001b\[/); // no colour when stdout is not a terminal

    const table = await run(['apps', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/│ id\s+│ name\s+│ url\s+│ description/);
    expect(table.stdout).toContain(name);

    const apps = json<App[]>(await run(['apps', 'list', '--json']));
    const app = apps.find((candidate) => candidate.name === name)!;
    expect(app).toEqual({
      id: expect.any(Number),
      name,
      url: 'https://wiki.example.com/',
      description: 'The wiki',
      descriptionDe: 'Das Wiki',
      doclink: '',
      category: '',
      requestable: false,
      icon: null,
      roles: [],
      favourite: false,
    });

    expect(json<App>(await run(['apps', 'show', name, '--json']))).toEqual(app);
    const shown = (await run(['apps', 'show', String(app.id)])).stdout;
    expect(shown).toMatch(/│ description\s+│ The wiki/);
    expect(shown).toMatch(/│ description \(de\)\s+│ Das Wiki/);
    expect(json<App>(await run(['apps', 'update', name, '--description-de', 'Das Wiki, neu', '--json'])).descriptionDe).toBe('Das Wiki, neu');
    await run(['apps', 'update', name, '--description-de', 'Das Wiki']);

    const updated = json<App>(
      await run(['apps', 'update', name, '--app-url', 'https://wiki2.example.com/', '--doclink', 'https://docs.example.com/', '--json']),
    );
    // favourite belongs to the caller's list, not to the app an update answers.
    expect(updated).toEqual({
      ...app,
      favourite: undefined,
      owners: { users: [], teams: [] },
      url: 'https://wiki2.example.com/',
      doclink: 'https://docs.example.com/',
    });
    expect(await portal.admin.apps.get(app.id)).toEqual(updated);

    const deleted = await run(['apps', 'delete', name, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain(`deleted app ${name}`);
    expect(await failure(portal.admin.apps.get(app.id))).toMatchObject({ code: 'not_found' });
  });

  it("grants, lists and revokes an app's users by email", async () => {
    const app = await createApp(portal.admin);
    const first = await portal.createUser();
    const second = await portal.createUser();
    const granted = await run(['apps', 'grant', app.name, first.email, String(second.user.id)]);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(`granted app ${app.name} to ${first.email}`);

    const users = json<User[]>(await run(['apps', 'users', app.name, '--json']));
    expect(users.map((user) => user.email).sort()).toEqual([first.email, second.email].sort());
    expect((await run(['apps', 'users', String(app.id)])).stdout).toContain(second.email);

    expect((await run(['apps', 'revoke', app.name, first.email])).code).toBe(0);
    expect((await portal.admin.apps.users(app.id)).map((user) => user.email)).toEqual([second.email]);
  });

  it('filters the list into the prod, dev and extern views', async () => {
    const prod = await createApp(portal.admin);
    const dev = await createApp(portal.admin, { url: 'https://tools.example.com/thing-dev/' });
    const extern = await createApp(portal.admin, { name: unique('extern:tool'), url: 'https://tool.example.org/' });
    const ids = async (view: string) => (await run(['apps', 'list', '--view', view, '--quiet'])).stdout.trim().split('\n').map(Number);
    expect(await ids('prod')).toContain(prod.id);
    expect(await ids('prod')).not.toContain(dev.id);
    expect(await ids('prod')).not.toContain(extern.id);
    expect(await ids('dev')).toEqual([dev.id]);
    expect(await ids('extern')).toEqual([extern.id]);
  });

  it('prints only the id with --quiet', async () => {
    const name = unique('quiet');
    const result = await run(['apps', 'create', name, 'https://quiet.example.com/', '--quiet']);
    expect(result.code).toBe(0);
    const app = (await portal.admin.apps.all()).find((candidate) => candidate.name === name)!;
    expect(result.stdout).toBe(`${app.id}\n`);
  });
});

describe('users', () => {
  it('lists, shows, grants, revokes, ends sessions and deletes users', async () => {
    const app = await createApp(portal.admin);
    const other = await createApp(portal.admin);
    const { email, user, api } = await portal.createUser({ apps: [app] });

    const table = await run(['users', 'list']);
    expect(table.stdout).toMatch(/│ id\s+│ email\s+│ name\s+│ client/);
    expect(table.stdout).toContain(email);
    expect(json<User[]>(await run(['users', 'list', '--json']))).toContainEqual({ id: user.id, email, name: user.name, client: user.client });

    const shown = json<User & { apps: App[] }>(await run(['users', 'show', email, '--json']));
    expect(shown).toMatchObject({ id: user.id, email, client: user.client, apps: [app] });
    expect((await run(['users', 'show', String(user.id)])).stdout).toContain(`${user.client.name} (${user.client.id})`);

    expect((await run(['users', 'grant', email, other.name])).code).toBe(0);
    expect(
      json<App[]>(await run(['users', 'apps', email, '--json']))
        .map((granted) => granted.id)
        .sort(),
    ).toEqual([app.id, other.id].sort());
    expect((await run(['users', 'apps', email])).stdout).toContain(other.name);
    expect((await run(['users', 'revoke', email, String(app.id)])).code).toBe(0);
    expect(await portal.admin.users.apps(user.id)).toEqual([{ ...other, grantedRoles: [], sources: ['direct'] }]);

    expect((await run(['users', 'end-sessions', email])).code).toBe(0);
    expect(await failure(api.users.me())).toMatchObject({ code: 'unauthenticated' });

    expect((await run(['users', 'delete', email, '--yes'])).code).toBe(0);
    expect(await failure(portal.admin.users.get(user.id))).toMatchObject({ code: 'not_found' });
  });

  it('refuses a delete without --yes when stdin is not a terminal, and deletes nothing', async () => {
    const { email, user } = await portal.createUser();
    const result = await run(['users', 'delete', email]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to delete user');
    expect(result.stderr).toContain('pass --yes');
    expect((await portal.admin.users.get(user.id)).email).toBe(email);
  });
});

describe('clients', () => {
  it('creates, lists, shows, lists users of and deletes clients', async () => {
    const name = unique('Acme');
    const created = json<Client & { users: User[] }>(await run(['clients', 'create', name, '--json']));
    expect(created).toEqual({ id: expect.any(Number), name, users: [] });
    expect((await run(['clients', 'list'])).stdout).toContain(name);
    expect(json<Client[]>(await run(['clients', 'list', '--json']))).toContainEqual({ id: created.id, name });

    const member = await portal.createUser({ client: { id: created.id, name } });
    expect((await run(['clients', 'show', name])).stdout).toContain(member.email);
    expect(json<User[]>(await run(['clients', 'users', String(created.id), '--json'])).map((user) => user.email)).toEqual([member.email]);
    expect((await run(['clients', 'users', name])).stdout).toContain(member.email);

    const renamed = `${name} Corp`;
    const rename = await run(['clients', 'rename', name, ` ${renamed} `]);
    expect(rename.code).toBe(0);
    expect(rename.stdout).toContain(`renamed client ${name} to ${renamed}`);
    expect(await run(['clients', 'rename', String(created.id), 'Acme, Admin'])).toMatchObject({ code: 1 });
    expect(await run(['clients', 'rename', String(created.id), 'ADMIN'])).toMatchObject({ code: 1 });
    await run(['clients', 'rename', renamed, name]);

    const refused = await run(['clients', 'delete', name]);
    expect(refused.code).toBe(2);
    expect((await portal.admin.clients.get(created.id)).name).toBe(name);

    const deleted = await run(['clients', 'delete', name, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain(`deleted client ${name}`);
    expect(await failure(portal.admin.users.get(member.user.id))).toMatchObject({ code: 'not_found' });
  }, 120_000);
});

describe('invites', () => {
  it('creates an invite and prints the registration link that registers the user', async () => {
    const client = await portal.admin.clients.create(unique('Invited'));
    const app = await createApp(portal.admin);
    const email = `${unique('new')}@example.com`;
    const created = await run(['invites', 'create', email, '--client', client.name, '--app', app.name, '--language', 'de']);
    expect(created.code).toBe(0);
    expect((await portal.admin.invites.list()).find((invite) => invite.email === email)?.language).toBe('de');
    expect((await run(['invites', 'create', `${unique('fr')}@example.com`, '-c', client.name, '--language', 'fr'])).code).toBe(2);
    const link = created.stdout.match(/http\S+register\?token=\S+/)?.[0];
    expect(link).toMatch(new RegExp(`^${portal.url}/${app.name}/register\\?token=`));

    const token = decodeURIComponent(new URL(link!).searchParams.get('token')!);
    const { accesstoken } = await portal.anonymous.auth.register({ Token: token, Password: 'a-new-password-1' });
    const me = await portal.client(accesstoken).users.me();
    expect(me).toMatchObject({ email, client: { id: client.id }, language: 'de' });
    expect(await portal.admin.users.apps(me.id)).toEqual([{ ...app, grantedRoles: [], sources: ['direct'] }]);
  });

  it('lists invites as a table and JSON, prints only the link with --quiet, deletes by email', async () => {
    const client = await portal.admin.clients.create(unique('Invited'));
    const email = `${unique('later')}@example.com`;
    const quiet = await run(['invites', 'create', email, '-c', String(client.id), '-q']);
    expect(quiet.stdout).toMatch(new RegExp(`^${portal.url}/auth/register\\?token=[A-Za-z0-9_-]+\\n$`));

    expect((await run(['invites', 'list'])).stdout).toContain(email);
    const invites = json<RegistrationToken[]>(await run(['invites', 'list', '--json']));
    expect(invites.find((invite) => invite.email === email)).toMatchObject({ client: { id: client.id, name: client.name }, apps: [] });

    const deleted = await run(['invites', 'delete', email, '--yes']);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain(`deleted registration token ${email}`);
    expect((await portal.admin.invites.list()).some((invite) => invite.email === email)).toBe(false);
  });
});

describe('keys', () => {
  it('creates a key, prints it once, and the key works as TOOLS_TOKEN', async () => {
    const { token } = await portal.createUser();
    const asUser = (args: string[]) => run(args, { env: { TOOLS_TOKEN: token } });
    const created = await asUser(['keys', 'create', '--quiet']);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^apikey-[A-Za-z0-9]{100}$/);

    const me = json<CurrentUser>(await run(['whoami', '--json'], { env: { TOOLS_TOKEN: key } }));
    const listed = json<AccessToken[]>(await asUser(['keys', 'list', '--json']));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ token: `apikey-${key.slice(7, 11)}…${key.slice(-4)}`, user: { id: me.id } });
    const table = await asUser(['keys', 'list']);
    expect(table.stdout).toContain(listed[0].token);
    expect(table.stdout).not.toContain(key);

    expect((await asUser(['keys', 'delete', String(listed[0].id), '--yes'])).code).toBe(0);
    expect((await run(['whoami'], { env: { TOOLS_TOKEN: key } })).code).toBe(3);
  });

  it('shows the full key in the human output and JSON', async () => {
    const { token } = await portal.createUser();
    const human = await run(['keys', 'create'], { env: { TOOLS_TOKEN: token } });
    expect(human.stdout).toMatch(/not shown again:\napikey-[A-Za-z0-9]{100}\n/);
    const answer = json<AccessToken & { key: string }>(await run(['keys', 'create', '--json'], { env: { TOOLS_TOKEN: token } }));
    expect(answer.key).toMatch(/^apikey-[A-Za-z0-9]{100}$/);
    expect(answer.token).toBe(`apikey-${answer.key.slice(7, 11)}…${answer.key.slice(-4)}`);

    const deleted = await run(['keys', 'delete', answer.key, '--yes'], { env: { TOOLS_TOKEN: token } });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`deleted access token ${answer.token}\n`);
    const left = json<AccessToken[]>(await run(['keys', 'list', '--json'], { env: { TOOLS_TOKEN: token } }));
    expect(left.map((key) => key.id)).not.toContain(answer.id);
  });
});

describe('keys with a name and an expiry, and an admin revoking them', () => {
  it('creates a key with --name and --expires; lists show name, expiry and last use', async () => {
    const { token } = await portal.createUser();
    const asUser = (args: string[]) => run(args, { env: { TOOLS_TOKEN: token } });
    const before = Date.now();
    const answer = json<AccessToken & { key: string }>(await asUser(['keys', 'create', '--name', 'deploy bot', '--expires', '7d', '--json']));
    expect(answer).toMatchObject({ name: 'deploy bot', key: expect.stringMatching(/^apikey-/) });
    const expires = Date.parse(answer.expiresTimestamp!);
    expect(expires).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(expires).toBeLessThan(Date.now() + 7 * 86_400_000 + 1000);
    expect((await run(['whoami'], { env: { TOOLS_TOKEN: answer.key } })).code).toBe(0);
    const table = await asUser(['keys', 'list']);
    expect(table.stdout).toMatch(/│ id\s+│ token\s+│ name\s+│ created\s+│ expires\s+│ last used/);
    expect(table.stdout).toContain('deploy bot');
    expect(table.stdout).toContain(answer.expiresTimestamp);
    const human = await asUser(['keys', 'create']);
    expect(human.stdout).toMatch(/created new access token apikey-\S+ \(id \d+\)\n/);
    const listed = json<AccessToken[]>(await asUser(['keys', 'list', '--json']));
    expect(listed.map((key) => [key.name, key.expiresTimestamp])).toEqual([
      ['deploy bot', answer.expiresTimestamp],
      [null, null],
    ]);
    expect(listed[0].lastUsedTimestamp).not.toBeNull();
    expect((await asUser(['keys', 'list'])).stdout).toMatch(/never/);
  });

  it('refuses a bad --expires (2), a past one or a bad name (1, naming the field), and key creation with an API key (3)', async () => {
    const { token, api } = await portal.createUser();
    const asUser = (args: string[]) => run(args, { env: { TOOLS_TOKEN: token } });
    const unreadable = await asUser(['keys', 'create', '--expires', 'soon']);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('--expires');
    const past = await asUser(['keys', 'create', '--expires', '2001-01-01']);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('expires: must be in the future');
    const badName = await asUser(['keys', 'create', '--name', ' ']);
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain('name: must not be empty');
    const key = (await asUser(['keys', 'create', '-q'])).stdout.trim();
    const minted = await run(['keys', 'create', '-q'], { env: { TOOLS_TOKEN: key } });
    expect(minted.code).toBe(3);
    expect(minted.stderr).toContain('refuses API keys');
    expect((await run(['keys', 'delete', key, '--yes'], { env: { TOOLS_TOKEN: key } })).code).toBe(3);
    expect(await api.accessTokens.list()).toHaveLength(1);
  });

  it('users revoke-keys deletes every key of a user (with --yes), and refuses without it when stdin is not a terminal', async () => {
    const { api, email } = await portal.createUser();
    const keys = [generateApiKey(), generateApiKey()];
    for (const key of keys) await api.accessTokens.create(key);
    const refused = await run(['users', 'revoke-keys', email]);
    expect(refused.code).toBe(2);
    expect(await api.accessTokens.list()).toHaveLength(2);
    const revoked = await run(['users', 'revoke-keys', email, '--yes']);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`revoked 2 API keys of ${email}\n`);
    expect(await api.accessTokens.list()).toEqual([]);
    expect((await run(['whoami'], { env: { TOOLS_TOKEN: keys[0] } })).code).toBe(3);
    expect(json<{ user: { email: string }; revoked: number }>(await run(['users', 'revoke-keys', email, '--yes', '--json']))).toMatchObject({
      user: { email },
      revoked: 0,
    });
  });
});

describe('logs', () => {
  it('shows a page of the event log as a table and JSON', async () => {
    const client = await portal.admin.clients.create(unique('Logged'));
    const table = await run(['logs', '--per-page', '5']);
    expect(table.stdout).toMatch(/│ timestamp\s+│ client\s+│ user\s+│ event/);
    const entries = json<LogEntry[]>(await run(['logs', '--page', '1', '--per-page', '3', '--json']));
    expect(entries).toHaveLength(3);
    expect(entries.some((entry) => entry.event.includes(client.name))).toBe(true);
    expect(entries[0].id).toBeGreaterThan(entries[2].id);
  });

  it('--follow prints new entries as they come, and stops on SIGINT', async () => {
    const child = spawn(process.execPath, [bin, 'logs', '--follow', '--json', '--per-page', '1', '--interval', '1'], {
      env: cleanEnv(cli.home, { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const seen = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${text}" in --follow output:\n${stdout}`)), 15_000);
        const check = () => {
          if (stdout.includes(text)) {
            clearTimeout(timer);
            child.stdout.off('data', check);
            resolve();
          }
        };
        child.stdout.on('data', check);
        check();
      });
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    try {
      await seen('\n');
      const name = unique('Followed');
      await portal.admin.clients.create(name);
      await seen(name);
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as LogEntry);
      expect(lines.at(-1)!.event).toContain(name);
      expect(lines.at(-1)!.id).toBeGreaterThan(lines[0].id);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});

describe('logs: filters and export', () => {
  it('filters by user, client, actor, type, time and text', async () => {
    const client = await portal.admin.clients.create(unique('Filtered'));
    const { email } = await portal.createUser({ client });
    const about = json<LogEntry[]>(await run(['logs', '--user', email.toUpperCase(), '--json']));
    expect(about.map((entry) => entry.type).sort()).toEqual(['invite.create', 'register.password']);
    const byAdmin = json<LogEntry[]>(await run(['logs', '--client', client.name, '--actor', ADMIN_EMAIL, '--type', 'invite.', '--since', '1h', '--json']));
    expect(byAdmin).toEqual([expect.objectContaining({ type: 'invite.create', actor: ADMIN_EMAIL, user: email })]);
    expect(json<LogEntry[]>(await run(['logs', '--client', client.name, '--until', '2020-01-01', '--json']))).toEqual([]);
    expect(json<LogEntry[]>(await run(['logs', '--grep', `INVITED ${email}`, '--json']))).toHaveLength(1);
    const table = await run(['logs', '--client', client.name]);
    expect(table.stdout).toMatch(/│ timestamp\s+│ client\s+│ user\s+│ event\s+│ type\s+│ by/);
    const bad = await run(['logs', '--since', 'last week']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since');
    const refused = await run(['logs', '--type', 'Login']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('type:');
  }, 120_000);

  it('exports as CSV and JSON Lines to stdout, with a progress line on a terminal only', async () => {
    const client = await portal.admin.clients.create(unique('Exported'));
    await portal.createUser({ client });
    await portal.createUser({ client });
    const csv = await run(['logs', 'export', '--format', 'csv', '--client', client.name]);
    expect(csv.code).toBe(0);
    expect(csv.stderr).toBe('');
    const records = parseCsv(csv.stdout, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((record) => record.type)).toEqual(['register.password', 'invite.create', 'register.password', 'invite.create', 'client.create']);
    expect(records[1].actor).toBe(ADMIN_EMAIL);
    const jsonl = await run(['logs', 'export', '--format', 'jsonl', '--client', client.name, '--type', 'invite.']);
    expect(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['invite.create', 'invite.create']);
    expect((await run(['logs', 'export', '--format', 'xlsx'])).code).toBe(2);

    const onTerminal = await toolsctlOnTerminal(cli.home, ['logs', 'export', '--client', client.name], [], {
      env: { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token },
    });
    expect(onTerminal.code).toBe(0);
    expect(onTerminal.transcript).toContain('exported 5 of 5 entries');
  }, 120_000);
});

describe('exit codes and errors', () => {
  it('1: the server refused, with its message and no stack trace', async () => {
    const client = await portal.admin.clients.create(unique('Taken'));
    const result = await run(['clients', 'create', client.name]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^toolsctl: error: .*already exists/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');

    const bad = await run(['apps', 'create', unique('bad'), 'javascript:alert(1)']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('url: must be an absolute http(s) URL');
  });

  it('2: usage errors', async () => {
    for (const args of [
      ['apps', 'create', 'only-a-name'],
      ['apps', 'list', '--no-such-option'],
      ['no-such-command'],
      ['apps'],
      ['logs', '--per-page', '0'],
      ['logs', '--page', 'x'],
      ['apps', 'list', '--json', '--quiet'],
      ['apps', 'update', 'wiki'],
      ['invites', 'create', 'x@example.com'],
      ['keys', 'delete', 'not-a-key', '--yes'],
      ['apps', 'list', '--url', 'ftp://portal'],
      ['seed', '/no/such/file.json'],
    ]) {
      const result = await run(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).not.toBe('');
    }
  });

  it('3: not logged in, a bad token, or not an admin', async () => {
    const none = await run(['whoami'], { env: { TOOLS_TOKEN: undefined } });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('not logged in');
    expect((await run(['apps', 'list'], { env: { TOOLS_TOKEN: 'not-a-session' } })).code).toBe(3);
    const { token } = await portal.createUser();
    const forbidden = await run(['users', 'list'], { env: { TOOLS_TOKEN: token } });
    expect(forbidden.code).toBe(3);
    expect(forbidden.stderr).toContain('toolsctl: error:');
  });

  it('4: not found, by id or by name', async () => {
    const byName = await run(['apps', 'show', unique('missing')]);
    expect(byName.code).toBe(4);
    expect(byName.stderr).toMatch(/app .* does not exist/);
    expect((await run(['users', 'show', 'nobody@example.com'])).code).toBe(4);
    expect((await run(['clients', 'show', '999999'])).code).toBe(4);
  });

  it('5: the server cannot be reached', async () => {
    const port = await freePort();
    const result = await run(['apps', 'list'], { env: { TOOLS_URL: `http://127.0.0.1:${port}` } });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`cannot reach http://127.0.0.1:${port}`);
  });

  it('0 and help with an example on every command', async () => {
    const root = await run(['--help']);
    expect(root.code).toBe(0);
    expect(root.stdout).toContain('Exit codes:');
    for (const command of ['apps list', 'apps grant', 'users delete', 'clients create', 'invites create', 'keys create', 'logs', 'seed', 'export', 'login']) {
      const help = await run([...command.split(' '), '--help']);
      expect({ command, code: help.code }).toEqual({ command, code: 0 });
      expect(help.stdout).toMatch(/Examples?:\n {2}\$ .*toolsctl /);
    }
  });
});
