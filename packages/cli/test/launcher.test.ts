/** toolsctl for the launcher (docs/cli.md): categories, requestable apps, icons, expiring grants, access requests. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AccessRequest, App, GrantedApp } from '@tools-portal/core';
import { JPEG, PNG } from '../../server/test/support/images.js';
import { unique } from '../../server/test/support/support.js';
import { json, useAdminToolsctl } from './toolsctl.js';

const cli = useAdminToolsctl();
const { portal, run } = cli;

describe('apps: category, requestable, icon', () => {
  it('creates and updates with --category and --requestable, and sets and removes an icon', async () => {
    const name = unique('vault');
    const created = json<App>(await run(['apps', 'create', name, 'https://vault.example.com/', '--category', 'Security', '--requestable', '--json']));
    expect(created).toMatchObject({ name, category: 'Security', requestable: true, icon: null });
    const kept = json<App>(await run(['apps', 'update', name, '--description', 'Secrets', '--json']));
    expect(kept).toMatchObject({ description: 'Secrets', category: 'Security', requestable: true });
    const changed = json<App>(await run(['apps', 'update', name, '--category', 'Keys', '--no-requestable', '--json']));
    expect(changed).toMatchObject({ category: 'Keys', requestable: false });
    expect((await run(['apps', 'show', name])).stdout).toMatch(/│ category\s+│ Keys/);

    const file = path.join(cli.home, 'icon.png');
    fs.writeFileSync(file, PNG);
    const withIcon = json<App>(await run(['apps', 'icon', name, file, '--json']));
    expect(withIcon.icon).toMatch(new RegExp(`/app/${created.id}/icon\\?v=\\d+$`));
    // The server checks the content: JPEG bytes in a .png file are refused, exit code 1 (bad input).
    fs.writeFileSync(file, JPEG);
    const refused = await run(['apps', 'icon', name, file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('icon');
    const removed = await run(['apps', 'icon', name, '--remove']);
    expect(removed.code).toBe(0);
    expect((await portal.admin.apps.get(created.id)).icon).toBeNull();
    expect((await run(['apps', 'icon', name])).code).toBe(2);
    expect((await run(['apps', 'icon', name, path.join(cli.home, 'icon.gif')])).code).toBe(2);
  });
});

describe('grants that expire', () => {
  it('users grant --expires 7d or a date; users apps shows the expiry; a bad value is a usage error', async () => {
    const app = await portal.admin.apps.create({ name: unique('exp'), url: 'https://exp.example.com/' });
    const other = await portal.admin.apps.create({ name: unique('exp'), url: 'https://exp2.example.com/' });
    const { user, email } = await portal.createUser();
    const before = Date.now();
    const granted = await run(['users', 'grant', email, app.name, '--expires', '7d']);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(`granted app ${app.name} to ${email} until`);
    const apps = json<GrantedApp[]>(await run(['users', 'apps', email, '--json']));
    const expires = Date.parse(apps.find((each) => each.id === app.id)!.expires!);
    expect(expires - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1000);
    expect(expires - before).toBeLessThan(7 * 86_400_000 + 60_000);
    expect((await run(['users', 'grant', email, other.name, '--expires', '2099-01-31'])).code).toBe(0);
    expect((await portal.admin.users.apps(user.id)).find((each) => each.id === other.id)?.expires).toBe(new Date('2099-01-31').toISOString());
    expect((await run(['users', 'apps', email])).stdout).toMatch(/2099-01-31/);
    const bad = await run(['users', 'grant', email, other.name, '--expires', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--expires');
    const past = await run(['users', 'grant', email, unique('none'), '--expires', '2001-01-01']);
    expect(past.code).not.toBe(0);
  });
});

describe('requests', () => {
  it('lists, approves with --expires and denies with --reason', async () => {
    const app = await portal.admin.apps.create({ name: unique('req'), url: 'https://req.example.com/', requestable: true });
    const other = await portal.admin.apps.create({ name: unique('req'), url: 'https://req2.example.com/', requestable: true });
    const { api, user, email } = await portal.createUser();
    const first = await api.accessRequests.create({ appid: app.id, reason: 'reports' });
    const second = await api.accessRequests.create({ appid: other.id, reason: 'curious' });

    const table = await run(['requests', 'list']);
    expect(table.stdout).toContain(email);
    expect(table.stdout).toContain('reports');
    const open = json<AccessRequest[]>(await run(['requests', 'list', '--open', '--json']));
    expect(open.map((request) => request.id)).toEqual(expect.arrayContaining([first.id, second.id]));

    const approved = await run(['requests', 'approve', String(first.id), '--expires', '30d']);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved request ${first.id}: granted app ${app.name} to ${email} until`);
    expect((await portal.admin.users.apps(user.id)).find((each) => each.id === app.id)?.expires).toBeDefined();
    const denied = json<AccessRequest>(await run(['requests', 'deny', String(second.id), '--reason', 'not for you', '--json']));
    expect(denied).toMatchObject({ status: 'denied', decision: 'not for you' });
    // Deciding twice is a conflict; a bad id a usage error.
    expect((await run(['requests', 'approve', String(first.id)])).code).not.toBe(0);
    expect((await run(['requests', 'deny', 'abc'])).code).toBe(2);
    expect((await run(['requests', 'list', '--open', '--quiet'])).stdout).not.toContain(String(first.id));
  });
});

describe('seed and export', () => {
  it('carry category and requestable', async () => {
    const name = unique('seeded');
    const file = path.join(cli.home, 'launcher.json');
    fs.writeFileSync(file, JSON.stringify({ apps: [{ name, url: 'https://seeded.example.com/', category: 'Finance', requestable: true }] }));
    expect((await run(['seed', file])).code).toBe(0);
    const exported = json<{ apps: Array<{ name: string; category: string; requestable: boolean }> }>(await run(['export', '--json']));
    expect(exported.apps.find((app) => app.name === name)).toEqual({
      name,
      url: 'https://seeded.example.com/',
      description: '',
      descriptionDe: '',
      doclink: '',
      category: 'Finance',
      requestable: true,
    });
    // A changed category or flag is an update on the next seed.
    fs.writeFileSync(file, JSON.stringify({ apps: [{ name, url: 'https://seeded.example.com/', category: 'Money', requestable: false }] }));
    const again = await run(['seed', file]);
    expect(again.code).toBe(0);
    expect(again.stderr + again.stdout).toContain(`updated app ${name}`);
    const app = (await portal.admin.apps.all()).find((each) => each.name === name)!;
    expect(app).toMatchObject({ category: 'Money', requestable: false });
  });
});
