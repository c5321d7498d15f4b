import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../../server/test/support/support.js';
import { json, root, removeTempHomes, tempHome, toolsctl, type RunOptions } from './toolsctl.js';

const demo = path.join(root, 'fixtures/demo.json');

interface Report {
  changed: boolean;
  changes: string[];
  warnings: string[];
  passwords: Array<{ email: string; password: string }>;
  invites: Array<{ email: string; link: string }>;
}

let source: TestPortal;
let target: TestPortal;
let home: string;
const on =
  (portal: TestPortal) =>
  (args: string[], options: RunOptions = {}) =>
    toolsctl(home, args, { ...options, env: { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token, ...options.env } });

beforeAll(async () => {
  [source, target] = await Promise.all([startTestPortal(), startTestPortal()]);
  home = tempHome();
});
afterAll(async () => {
  await Promise.all([source.close(), target.close()]);
  removeTempHomes();
});

describe('seed and export', () => {
  it('seeds fixtures/demo.json, and a second run changes nothing and says so', async () => {
    const first = await on(source)(['seed', demo]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/\[1\/\d+\] created client Acme/);
    expect(first.stdout).toContain('Registration links to send:');

    const api = source.admin;
    expect((await api.clients.list()).map((client) => client.name).sort()).toEqual(['Acme', 'Admin', 'Globex']);
    expect((await api.apps.all()).map((app) => app.name).sort()).toEqual(['chat', 'extern:jira', 'grafana', 'grafana-dev', 'wiki']);
    // German descriptions where the file has them; entries without one (the older format) get none.
    const described = Object.fromEntries((await api.apps.all()).map((app) => [app.name, app.descriptionDe]));
    expect(described).toMatchObject({ wiki: 'Das Firmenwiki', chat: 'Team-Chat', 'grafana-dev': '' });
    const users = await api.users.list();
    const ann = users.find((user) => user.email === 'ann@acme.example')!;
    expect(ann.client.name).toBe('Acme');
    expect((await api.users.apps(ann.id)).map((app) => app.name).sort()).toEqual(['chat', 'wiki']);
    expect((await source.client(await source.login('ann@acme.example', 'quiet harbour lantern 1')).users.me()).email).toBe('ann@acme.example');
    const invites = await api.invites.list();
    expect(invites.map((invite) => invite.email)).toEqual(['dave@globex.example']);
    // Teams, memberships, roles, team grants and owners.
    const [platform] = await api.teams.list();
    expect(platform).toMatchObject({ name: 'Platform', description: 'Runs the dashboards' });
    expect((await api.teams.users(platform.id)).map((user) => user.email)).toEqual(['bob@acme.example', 'carol@globex.example']);
    expect((await api.teams.apps(platform.id)).map((app) => [app.name, app.role])).toEqual([
      ['chat', null],
      ['grafana', 'editor'],
    ]);
    const grafana = (await api.apps.all()).find((app) => app.name === 'grafana')!;
    expect(await api.apps.get(grafana.id)).toMatchObject({
      roles: ['viewer', 'editor'],
      owners: { users: [users.find((user) => user.email === 'ann@acme.example')!.id], teams: [platform.id] },
    });
    const carol = users.find((user) => user.email === 'carol@globex.example')!;
    expect((await api.users.apps(carol.id)).find((app) => app.name === 'grafana')).toMatchObject({ grantedRoles: ['editor'], sources: ['direct', 'Platform'] });

    const second = await on(source)(['seed', demo, '--json']);
    expect(second.code).toBe(0);
    const report = json<Report>(second);
    expect(report).toMatchObject({ changed: false, changes: [], passwords: [], invites: [] });
    const human = await on(source)(['seed', demo]);
    expect(human.stdout).toContain('nothing to change');
    expect(await api.invites.list()).toEqual(invites);
    expect((await api.users.list()).length).toBe(users.length);
  });

  it('export then seed into an empty portal reproduces the data', async () => {
    const file = path.join(home, 'portal.json');
    const exported = await on(source)(['export', '-o', file]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/exported 3 client\(s\), 5 app\(s\), 5 user\(s\), 1 invite\(s\)/);
    const fixtures = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      users: Array<{ email: string; password?: string }>;
      apps: Array<{ name: string; descriptionDe?: string }>;
    };
    expect(fixtures.users.every((user) => user.password === undefined)).toBe(true);
    expect(fixtures.apps.find((app) => app.name === 'wiki')?.descriptionDe).toBe('Das Firmenwiki');

    const seeded = await on(target)(['seed', file, '--json']);
    expect(seeded.code).toBe(0);
    const report = json<Report>(seeded);
    expect(report.changed).toBe(true);
    // Passwords cannot be exported: each new user got a generated one, reported once.
    expect(report.passwords.map((entry) => entry.email).sort()).toEqual(['ann@acme.example', 'bob@acme.example', 'carol@globex.example', 'ops@example.com']);
    const carol = report.passwords.find((entry) => entry.email === 'carol@globex.example')!;
    expect((await target.client(await target.login(carol.email, carol.password)).users.me()).client.name).toBe('Globex');

    expect((await on(target)(['export'])).stdout).toBe((await on(source)(['export'])).stdout);
    expect(json<Report>(await on(target)(['seed', file, '--json'])).changed).toBe(false);
  });

  it('export to stdout is the fixtures JSON, also with --json', async () => {
    const plain = await on(source)(['export']);
    const asJson = await on(source)(['export', '--json']);
    expect(JSON.parse(plain.stdout)).toEqual(JSON.parse(asJson.stdout));
    expect(JSON.parse(plain.stdout)).toMatchObject({
      clients: expect.any(Array),
      apps: expect.any(Array),
      users: expect.any(Array),
      invites: expect.any(Array),
      teams: [{ name: 'Platform', members: ['bob@acme.example', 'carol@globex.example'], apps: ['chat', 'grafana'], roles: { grafana: 'editor' } }],
    });
  });

  it('adds what is missing and updates changed apps on a later run', async () => {
    const dir = tempHome();
    const file = path.join(dir, 'more.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        apps: [{ name: 'wiki', url: 'https://wiki.example.net/', description: 'Moved' }],
        users: [{ email: 'bob@acme.example', client: 'Acme', apps: ['chat'] }],
      }),
    );
    const report = json<Report>(await on(source)(['seed', file, '--json']));
    expect(report.changes).toEqual(['updated app wiki', 'granted app chat to bob@acme.example']);
    const wiki = (await source.admin.apps.all()).find((app) => app.name === 'wiki')!;
    // A file without descriptionDe leaves the German description as it was.
    expect(wiki).toMatchObject({ url: 'https://wiki.example.net/', description: 'Moved', descriptionDe: 'Das Firmenwiki', doclink: '' });
    expect(json<Report>(await on(source)(['seed', file, '--json'])).changed).toBe(false);
  });

  it('refuses a bad file before changing anything', async () => {
    const dir = tempHome();
    const write = (name: string, content: string) => {
      fs.writeFileSync(path.join(dir, name), content);
      return path.join(dir, name);
    };
    const cases: Array<[string, RegExp]> = [
      [write('not-json.json', '{'), /is not JSON/],
      [write('typo.json', JSON.stringify({ client: [] })), /unrecognized key|client/i],
      [
        write('no-client.json', JSON.stringify({ clients: [{ name: 'Fresh' }], users: [{ email: 'x@fresh.example', client: 'Nowhere' }] })),
        /no client named Nowhere/,
      ],
      [write('weak.json', JSON.stringify({ users: [{ email: 'y@acme.example', client: 'Acme', password: 'short' }] })), /at least eight characters/],
      [
        write('common.json', JSON.stringify({ users: [{ email: 'y@acme.example', client: 'Acme', password: 'Summer2024' }] })),
        /users\.0\.password \(y@acme\.example\): This password is a common one/,
      ],
      [
        write('own-name.json', JSON.stringify({ users: [{ email: 'yolanda@acme.example', client: 'Acme', password: 'yolanda-loves-seeds' }] })),
        /must not contain your email address/,
      ],
      [
        write('bad-url.json', JSON.stringify({ clients: [{ name: 'Fresh' }], apps: [{ name: 'x', url: 'javascript:alert(1)' }] })),
        /apps\.0\.url: must be an absolute http\(s\) URL/,
      ],
      [write('comma.json', JSON.stringify({ clients: [{ name: 'Fresh' }, { name: 'Acme, Admin' }] })), /clients\.1\.name: must not contain a comma/],
      [
        write('lookalike.json', JSON.stringify({ clients: [{ name: 'Fresh' }, { name: '\uff21\uff24\uff2d\uff29\uff2e' }] })),
        /clients\.1\.name: .*too close to Admin/,
      ],
      [
        write('bad-email.json', JSON.stringify({ clients: [{ name: 'Fresh' }], invites: [{ email: 'not-an-email', client: 'Fresh' }] })),
        /invites\.0\.email: must be a valid email/,
      ],
    ];
    for (const [file, message] of cases) {
      const result = await on(source)(['seed', file]);
      expect({ file, code: result.code }).toEqual({ file, code: 2 });
      expect(result.stderr).toMatch(message);
    }
    expect((await source.admin.clients.list()).some((client) => client.name === 'Fresh')).toBe(false);
  });
});
