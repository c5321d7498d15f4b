/** `toolsctl plan`, `apply` and `export --format` (docs/cli.md, The portal's setup as a file). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SetupPlan } from '@tools-portal/core';
import { afterAll, describe, expect, it } from 'vitest';
import { PNG } from '../../server/test/support/images.js';
import { unique } from '../../server/test/support/support.js';
import { json, toolsctlOnTerminal, useAdminToolsctl } from './toolsctl.js';

const cli = useAdminToolsctl();
const { portal, run } = cli;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'toolsctl-setup-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const write = (name: string, text: string) => {
  const file = path.join(folder, name);
  fs.writeFileSync(file, text);
  return file;
};

describe('setup as a file', () => {
  it('plans a YAML file with its icon, refuses to apply without --yes off a terminal, applies with it and writes new secrets 0600', async () => {
    const app = unique('wiki');
    const team = unique('Ops');
    fs.mkdirSync(path.join(folder, 'icons'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'icons', 'wiki.png'), PNG);
    const file = write(
      `${app}.yaml`,
      [
        'version: 1',
        'teams:',
        `  - name: ${team}`,
        '    description: On call',
        'apps:',
        `  - name: ${app}`,
        `    url: https://${app}.example.com/`,
        '    roles: [viewer, editor]',
        '    icon: icons/wiki.png',
        '    openid:',
        `      redirect_uris: [https://${app}.example.com/cb]`,
        'grants:',
        `  - {app: ${app}, team: ${team}, role: editor}`,
        '',
      ].join('\n'),
    );
    const planned = await run(['plan', '-f', file]);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(`+ team ${team}`);
    expect(planned.stdout).toContain(`+ app ${app}`);
    expect(planned.stdout).toContain(`+ grant ${app}: team ${team}`);
    expect(planned.stdout).toMatch(/3 to add, 0 to change, 0 to remove \(plan [0-9a-f]{64}\)/);

    const check = await run(['plan', '-f', file, '--check']);
    expect(check.code).toBe(5);
    expect(check.stdout).toContain(`+ app ${app}`);
    expect(check.stderr).toContain('the portal differs from');

    const refused = await run(['apply', '-f', file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --yes');
    expect((await portal.admin.apps.all()).map((entry) => entry.name)).not.toContain(app);

    const secrets = path.join(folder, 'secrets.json');
    const applied = await run(['apply', '-f', file, '--yes', '--secrets-out', secrets]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('applied 3 changes');
    expect(applied.stdout).not.toMatch(/client_secret|: [A-Za-z0-9_-]{40,}/);
    expect(fs.statSync(secrets).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(secrets, 'utf8'))).toEqual([{ app, client_id: app, client_secret: expect.any(String) }]);
    expect((await portal.admin.apps.all()).find((entry) => entry.name === app)?.icon).toMatch(/icon\?v=/);

    const again = await run(['plan', '-f', file, '--check']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to change');
  });

  it('asks on a terminal before applying', async () => {
    const team = unique('Asked');
    const file = write(`${team}.json`, JSON.stringify({ version: 1, teams: [{ name: team }] }));
    const declined = await toolsctlOnTerminal(cli.home, ['apply', '-f', file], [{ expect: 'Really apply these 1 changes?', type: 'n\r' }], {
      env: { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token },
    });
    expect(declined.code).toBe(2);
    expect((await portal.admin.teams.list()).map((entry) => entry.name)).not.toContain(team);
    const accepted = await toolsctlOnTerminal(cli.home, ['apply', '-f', file], [{ expect: 'Really apply these 1 changes?', type: 'y\r' }], {
      env: { TOOLS_URL: portal.url, TOOLS_TOKEN: portal.admin.token },
    });
    expect(accepted.code, accepted.transcript).toBe(0);
    expect((await portal.admin.teams.list()).map((entry) => entry.name)).toContain(team);
  });

  it('exports YAML (icons beside the file) and JSON that plan finds nothing to change in; fixtures stay the default', async () => {
    const app = await portal.admin.apps.create({ name: unique('icon'), url: 'https://icon.example.com/' });
    await portal.admin.apps.setIcon(app.id, PNG, 'image/png');
    const yamlFile = path.join(folder, 'export', 'portal.yaml');
    fs.mkdirSync(path.dirname(yamlFile), { recursive: true });
    const exported = await run(['export', '--format', 'yaml', '-o', yamlFile]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = fs.readFileSync(yamlFile, 'utf8');
    expect(text).toContain('version: 1');
    expect(text).toContain(`icon: icons/${app.name}.png`);
    expect(fs.readFileSync(path.join(folder, 'export', 'icons', `${app.name}.png`))).toEqual(PNG);
    const plan = json<SetupPlan>(await run(['plan', '-f', yamlFile, '--prune', '--json']));
    expect(plan.changes).toEqual([]);

    const jsonFile = path.join(folder, 'export', 'portal.json');
    expect((await run(['export', '--format', 'json', '-o', jsonFile])).code).toBe(0);
    expect((await run(['plan', '-f', jsonFile, '--check'])).code).toBe(0);

    const fixtures = JSON.parse((await run(['export'])).stdout) as Record<string, unknown>;
    expect(fixtures).toHaveProperty('users');
  });

  it('prints every problem of a bad file with its path, exit 1', async () => {
    const file = write('bad.yaml', 'version: 1\napps:\n  - name: x\n    url: nope\ngrants:\n  - {app: x}\n');
    const answer = await run(['plan', '-f', file]);
    expect(answer.code).toBe(1);
    expect(answer.stderr).toContain('apps[0].url');
    const unreadable = await run(['plan', '-f', write('broken.yaml', 'version: [1\n')]);
    expect(unreadable.code).toBe(2);
  });
});
