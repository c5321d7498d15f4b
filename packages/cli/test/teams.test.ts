/** `toolsctl teams …` and `toolsctl apps grant|revoke|owners|access` (docs/cli.md, Teams, roles and owners). */
import type { AppAccess, ManagedApp, Team } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { unique } from '../../server/test/support/support.js';
import { json, toolsctl, useAdminToolsctl } from './toolsctl.js';

const cli = useAdminToolsctl();
const { portal, run } = cli;

describe('teams', () => {
  it('creates, shows, renames, adds and removes members, grants and revokes apps, deletes; tables and JSON', async () => {
    const name = unique('Platform');
    const app = await portal.admin.apps.create({ name: unique('grafana'), url: 'https://grafana.example.com/', roles: ['viewer', 'editor'] });
    const [ann, bob] = await Promise.all([portal.createUser(), portal.createUser()]);

    const created = await run(['teams', 'create', name, '--description', 'Runs the dashboards']);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`created new team ${name}`);
    const team = json<Team[]>(await run(['teams', 'list', '--json'])).find((listed) => listed.name === name)!;
    expect(team).toEqual({ id: expect.any(Number), name, description: 'Runs the dashboards' });

    const added = await run(['teams', 'add-user', name, ann.email, bob.email, '--expires', '30d']);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain(`added ${ann.email} to team ${name} until`);
    expect((await run(['teams', 'grant', name.toUpperCase(), app.name, '--role', 'editor'])).stdout).toContain(
      `granted app ${app.name} to team ${name} as editor`,
    );

    const shown = json<Team & { members: { email: string; expires?: string }[]; apps: { name: string; role: string }[] }>(
      await run(['teams', 'show', name, '--json']),
    );
    expect(shown.members.map((member) => member.email).sort()).toEqual([ann.email, bob.email].sort());
    expect(shown.members.every((member) => member.expires !== undefined)).toBe(true);
    expect(shown.apps).toEqual([{ id: app.id, name: app.name, role: 'editor' }]);
    expect((await run(['teams', 'show', String(team.id)])).stdout).toMatch(new RegExp(`│ apps\\s+│ ${app.name} \\(editor\\)`));

    // A refusal by the portal exits 1, a bad option 2 (docs/cli.md, exit codes).
    expect((await run(['teams', 'grant', name, app.name, '--role', 'boss'])).code).toBe(1);
    expect((await run(['teams', 'add-user', name, ann.email, '--expires', 'soon'])).code).toBe(2);
    expect((await run(['teams', 'create', 'Admin'])).code).not.toBe(0);

    await run(['teams', 'remove-user', name, bob.email]);
    await run(['teams', 'revoke', name, app.name]);
    expect(await portal.admin.teams.users(team.id)).toHaveLength(1);
    expect(await portal.admin.teams.apps(team.id)).toEqual([]);

    const renamed = unique('Renamed');
    expect((await run(['teams', 'rename', name, renamed])).stdout).toContain(`renamed team ${name} to ${renamed}`);
    expect((await run(['teams', 'delete', renamed, '--yes'])).stdout).toContain(`deleted team ${renamed}`);
    expect((await run(['teams', 'show', renamed])).code).toBe(4);
  });
});

describe('apps grant, revoke, owners and access', () => {
  it('grants to users and teams with role and expiry, lists access with sources, manages owners', async () => {
    const app = await portal.admin.apps.create({ name: unique('vault'), url: 'https://vault.example.com/', roles: ['viewer', 'editor'] });
    const [ann, bob] = await Promise.all([portal.createUser(), portal.createUser()]);
    const team = await portal.admin.teams.create({ name: unique('Ops') });
    await portal.admin.teams.addUser(team.id, { userid: bob.user.id });

    // Today's form keeps working.
    expect((await run(['apps', 'grant', app.name, ann.email])).stdout).toContain(`granted app ${app.name} to ${ann.email}`);
    const granted = await run(['apps', 'grant', app.name, '--team', team.name, '--role', 'editor', '--expires', '7d']);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(`granted app ${app.name} to team ${team.name} as editor until`);
    expect((await run(['apps', 'grant', app.name])).code).toBe(2);

    const access = json<AppAccess[]>(await run(['apps', 'access', app.name, '--json']));
    expect(access.map((user) => [user.email, user.roles, user.sources.map((source) => source.source)])).toEqual(
      [
        [ann.email, ['viewer'], ['direct']],
        [bob.email, ['editor'], [team.name]],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect((await run(['apps', 'access', app.name])).stdout).toContain(`${team.name} (editor)`);

    const owned = json<ManagedApp>(await run(['apps', 'owners', 'add', app.name, ann.email, '--team', team.name, '--json']));
    expect(owned.owners).toEqual({ users: [ann.user.id], teams: [team.id] });
    expect((await ann.api.users.me()).owns).toEqual([app.id]);
    const removed = json<ManagedApp>(await run(['apps', 'owners', 'remove', app.name, ann.email, '--json']));
    expect(removed.owners).toEqual({ users: [], teams: [team.id] });

    await run(['apps', 'revoke', app.name, ann.email, '--team', team.name]);
    expect(await portal.admin.apps.access(app.id)).toEqual([]);
  });
});

describe('an owner who is not an admin', () => {
  it('grants and revokes their app by email and --team NAME (teams they are not in), and sees its access; nothing of another app', async () => {
    const [owner, ann, bob, otherOwner] = await Promise.all([portal.createUser(), portal.createUser(), portal.createUser(), portal.createUser()]);
    // The owner may not use the app: it is found among the apps they own.
    const app = await portal.admin.apps.create({
      name: unique('wiki'),
      url: 'https://wiki.example.com/',
      roles: ['reader', 'writer'],
      owners: { users: [owner.user.id], teams: [] },
    });
    const other = await portal.admin.apps.create({
      name: unique('other'),
      url: 'https://other.example.com/',
      owners: { users: [otherOwner.user.id], teams: [] },
    });
    const team = await portal.admin.teams.create({ name: unique('Writers') });
    await portal.admin.teams.addUser(team.id, { userid: bob.user.id });
    const asOwner = (args: string[]) => toolsctl(cli.home, args, { env: { TOOLS_URL: portal.url, TOOLS_TOKEN: owner.token } });

    const granted = await asOwner([
      'apps',
      'grant',
      app.name,
      ann.email.toUpperCase(),
      '--team',
      team.name.toLowerCase(),
      '--role',
      'writer',
      '--expires',
      '7d',
    ]);
    expect(granted.stderr).toBe('');
    expect(granted.stdout).toContain(`granted app ${app.name} to ${ann.email} as writer until`);
    expect(granted.stdout).toContain(`granted app ${app.name} to team ${team.name} as writer until`);
    const access = json<AppAccess[]>(await asOwner(['apps', 'access', app.name, '--json']));
    expect(access.map((user) => [user.email, user.roles])).toEqual(
      [
        [ann.email, ['writer']],
        [bob.email, ['writer']],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );

    // An unknown email or team is "not found" (4); a part of an email is refused by the portal (1).
    expect((await asOwner(['apps', 'grant', app.name, `nobody-${unique('x')}@example.com`])).code).toBe(4);
    expect((await asOwner(['apps', 'grant', app.name, '--team', unique('Nobody')])).code).toBe(4);
    expect((await asOwner(['apps', 'grant', app.name, '--team', '999999'])).code).toBe(4);
    expect((await asOwner(['apps', 'grant', app.name, ann.email.split('@')[0]])).code).toBe(1);

    // A team by id is found in the app's list of grantable teams, as by name.
    const revoked = await asOwner(['apps', 'revoke', app.name, ann.email, '--team', String(team.id)]);
    expect(revoked.stdout).toContain(`deleted user ${ann.email} from app ${app.name}`);
    expect(revoked.stdout).toContain(`revoked app ${app.name} from team ${team.name}`);
    expect(await portal.admin.apps.access(app.id)).toEqual([]);

    // Another app: not found by name (it is neither used nor owned), not allowed by id (3); owners stay admins' business.
    expect((await asOwner(['apps', 'grant', other.name, ann.email])).code).toBe(4);
    const refused = await asOwner(['apps', 'grant', String(other.id), ann.email]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain("admins and the app's owners only");
    expect((await asOwner(['apps', 'owners', 'add', app.name, ann.email])).code).toBe(3);
    expect((await portal.admin.apps.get(app.id)).owners.users).toEqual([owner.user.id]);
    // Ten toolsctl processes, each a Node start: more than the file's default on a busy machine.
  }, 90_000);
});
