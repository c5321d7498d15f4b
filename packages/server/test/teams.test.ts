/**
 * Teams, app roles and app owners (docs/api.md, Teams, roles and owners): team names, memberships
 * and team grants with expiry, roles on grants, access through teams in every place that decides
 * it (forward auth's headers, the app list, GET /app/{id}/access, GET /user/{id}/app, /user/me),
 * and what owners may do and nothing more.
 */
import type { App, PortalClient } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { removeExpiredGrants } from '../src/services/access/grant-expiry.js';
import { createApp, failure, unique, useTestPortal, type TestUser } from './support/support.js';

const portal = useTestPortal();

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const anHourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

function verify(app: App, token: string) {
  return portal.fetch(`/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, { headers: { cookie: `accesstoken=${token}` }, redirect: 'manual' });
}

async function newTeam(name = unique('Team')) {
  return portal.admin.teams.create({ name });
}

async function logTypes(): Promise<string[]> {
  return (await portal.admin.logs.page(1, 30)).map((entry) => entry.type);
}

describe('team names', () => {
  it('follow the client-name rules: trimmed, no comma or invisible character, unique as people compare them, never Admin', async () => {
    const name = unique('Ops');
    expect((await portal.admin.teams.create({ name: `  ${name}  ` })).name).toBe(name);
    expect(await failure(portal.admin.teams.create({ name: name.toUpperCase() }))).toMatchObject({ code: 'conflict', field: 'name' });
    for (const bad of ['Admin', 'ADMIN', 'ａｄｍｉｎ', 'a,b', 'a\u200Bb', '', '   ', 'x'.repeat(201)]) {
      expect(await failure(portal.admin.teams.create({ name: bad })), JSON.stringify(bad)).toMatchObject({ code: 'invalid_input', field: 'name' });
    }
    const team = await newTeam();
    expect(await failure(portal.admin.teams.update({ id: team.id, name: 'admin' }))).toMatchObject({ field: 'name' });
    expect(await failure(portal.admin.teams.update({ id: team.id, name }))).toMatchObject({ code: 'conflict', field: 'name' });
    const renamed = await portal.admin.teams.update({ id: team.id, name: unique('Renamed'), description: 'the renamed one' });
    expect(renamed).toMatchObject({ id: team.id, description: 'the renamed one' });
    expect(await portal.admin.teams.get(team.id)).toEqual(renamed);
    await portal.admin.teams.delete(team.id);
    expect(await failure(portal.admin.teams.get(team.id))).toMatchObject({ code: 'not_found' });
    expect(await logTypes()).toEqual(expect.arrayContaining(['team.create', 'team.update', 'team.delete']));
  });
});

describe('memberships and team grants', () => {
  it('give access through a team, with roles united over grants, until a membership or grant ends', async () => {
    const app = await createApp(portal.admin, { roles: ['viewer', 'editor', 'admin'] });
    const alpha = await newTeam(unique('Alpha'));
    const beta = await newTeam(unique('Beta'));
    const user = await portal.createUser();
    expect((await verify(app, user.token)).status).toBe(403);

    await portal.admin.teams.addUser(alpha.id, { userid: user.user.id });
    await portal.admin.teams.addUser(beta.id, { userid: user.user.id, expires: inAnHour() });
    await portal.admin.teams.grant(alpha.id, { appid: app.id });
    await portal.admin.teams.grant(beta.id, { appid: app.id, role: 'editor' });
    await portal.admin.users.grant(user.user.id, app.id, { role: 'viewer' });

    const allowed = await verify(app, user.token);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('remote-groups')).toBe([user.user.client.name, alpha.name, beta.name].join(','));
    expect(allowed.headers.get('remote-roles')).toBe('editor,viewer');

    expect((await user.api.apps.list()).map((listed) => listed.id)).toEqual([app.id]);
    const [granted] = await portal.admin.users.apps(user.user.id);
    expect(granted).toMatchObject({
      id: app.id,
      roles: ['viewer', 'editor', 'admin'],
      grantedRoles: ['editor', 'viewer'],
      sources: ['direct', alpha.name, beta.name],
    });
    expect(granted.expires).toBeUndefined();

    const access = await portal.admin.apps.access(app.id);
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ id: user.user.id, roles: ['editor', 'viewer'] });
    expect(access[0].sources.map((source) => [source.source, source.role, source.team?.id])).toEqual([
      ['direct', 'viewer', undefined],
      [alpha.name, 'viewer', alpha.id],
      [beta.name, 'editor', beta.id],
    ]);
    expect(access[0].sources[2].expires).toBeDefined();

    const me = await user.api.users.me();
    expect(me.teams.map((team) => team.id)).toEqual([alpha.id, beta.id]);

    // Without the direct grant and alpha's, only beta's editor role is left; without beta, no access.
    await portal.admin.users.revoke(user.user.id, app.id);
    await portal.admin.teams.revoke(alpha.id, app.id);
    expect((await verify(app, user.token)).headers.get('remote-roles')).toBe('editor');
    await portal.admin.teams.removeUser(beta.id, user.user.id);
    const denied = await verify(app, user.token);
    expect(denied.status).toBe(403);
    expect(await user.api.apps.list()).toEqual([]);
    expect(await portal.admin.apps.access(app.id)).toEqual([]);
    expect(await logTypes()).toEqual(expect.arrayContaining(['team.member_add', 'team.grant_add', 'team.grant_remove', 'team.member_remove', 'grant.remove']));
  });

  it('ignore expired memberships and team grants, and refuse an expiry in the past', async () => {
    const app = await createApp(portal.admin);
    const team = await newTeam();
    const user = await portal.createUser();
    expect(await failure(portal.admin.teams.addUser(team.id, { userid: user.user.id, expires: anHourAgo() }))).toMatchObject({ field: 'expires' });
    await portal.admin.teams.addUser(team.id, { userid: user.user.id });
    expect(await failure(portal.admin.teams.grant(team.id, { appid: app.id, expires: anHourAgo() }))).toMatchObject({ field: 'expires' });
    await portal.admin.teams.grant(team.id, { appid: app.id });
    expect((await verify(app, user.token)).status).toBe(200);
    expect((await verify(app, user.token)).headers.get('remote-roles')).toBe('');

    // Expired in the database (as time passing would leave it): no access, no team.
    await portal.deps
      .db('team_members')
      .where({ team_id: team.id, user_id: user.user.id })
      .update({ expires_at: Date.now() - 1 });
    await portal.deps.authCache.clear();
    expect((await verify(app, user.token)).status).toBe(403);
    expect((await user.api.users.me()).teams).toEqual([]);
    expect(await portal.admin.teams.users(team.id)).toEqual([]);
    // An expired membership is replaced by a new one.
    await portal.admin.teams.addUser(team.id, { userid: user.user.id });
    expect((await verify(app, user.token)).status).toBe(200);
    await portal.admin.teams.setUserExpiry(team.id, user.user.id, inAnHour());
    expect((await portal.admin.teams.users(team.id))[0].expires).toBeDefined();

    await portal.deps
      .db('team_apps')
      .where({ team_id: team.id })
      .update({ expires_at: Date.now() - 1 });
    await portal.deps.authCache.clear();
    expect((await verify(app, user.token)).status).toBe(403);
    expect(await portal.admin.teams.apps(team.id)).toEqual([]);
  });

  it('are removed and logged by the sweep of expired grants once they run out', async () => {
    const app = await createApp(portal.admin);
    const team = await newTeam();
    const user = await portal.createUser();
    await portal.admin.teams.addUser(team.id, { userid: user.user.id, expires: inAnHour() });
    await portal.admin.teams.grant(team.id, { appid: app.id, expires: inAnHour() });
    await removeExpiredGrants(portal.deps.db, Date.now() + 2 * 3_600_000);
    expect(await portal.deps.db('team_members').where({ team_id: team.id })).toEqual([]);
    expect(await portal.deps.db('team_apps').where({ team_id: team.id })).toEqual([]);
    const texts = (await portal.admin.logs.page(1, 10, { type: 'team.' })).map((entry) => `${entry.type} ${entry.event}`);
    expect(texts.some((text) => text.startsWith('team.member_expire') && text.includes(team.name))).toBe(true);
    expect(texts.some((text) => text.startsWith('team.grant_expire') && text.includes(team.name))).toBe(true);
  });

  it('refuse a second membership or team grant, roles the app lacks, and unknown ids', async () => {
    const app = await createApp(portal.admin, { roles: ['viewer'] });
    const plain = await createApp(portal.admin);
    const team = await newTeam();
    const user = await portal.createUser();
    await portal.admin.teams.addUser(team.id, { userid: user.user.id });
    expect(await failure(portal.admin.teams.addUser(team.id, { userid: user.user.id }))).toMatchObject({ code: 'conflict', field: 'userid' });
    expect(await failure(portal.admin.teams.addUser(team.id, { userid: 999999 }))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.teams.addUser(999999, { userid: user.user.id }))).toMatchObject({ code: 'not_found' });
    expect(await failure(portal.admin.teams.grant(team.id, { appid: app.id, role: 'editor' }))).toMatchObject({ code: 'invalid_input', field: 'role' });
    expect(await failure(portal.admin.teams.grant(team.id, { appid: app.id, role: 'Not A Role' }))).toMatchObject({ field: 'role' });
    expect(await failure(portal.admin.teams.grant(team.id, { appid: plain.id, role: 'viewer' }))).toMatchObject({ field: 'role' });
    await portal.admin.teams.grant(team.id, { appid: app.id });
    expect(await portal.admin.teams.apps(team.id)).toEqual([{ id: app.id, name: app.name, role: 'viewer' }]);
    expect(await failure(portal.admin.teams.grant(team.id, { appid: app.id }))).toMatchObject({ code: 'conflict', field: 'appid' });
    expect(await failure(portal.admin.teams.updateGrant(team.id, plain.id, { expires: null }))).toMatchObject({ code: 'not_found' });
    const bad = await portal.fetch(`/api/auth/v1/team/${team.id}/app/${app.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${portal.admin.token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bad.status).toBe(400);
  });
});

describe('app roles', () => {
  it('are checked, default to the first, and grants holding a removed role take the new default', async () => {
    expect(await failure(portal.admin.apps.create({ name: unique('r'), url: 'https://r.example.com/', roles: ['Viewer'] }))).toMatchObject({
      field: 'roles.0',
    });
    expect(await failure(portal.admin.apps.create({ name: unique('r'), url: 'https://r.example.com/', roles: ['a', 'a'] }))).toMatchObject({ field: 'roles' });
    const tooMany = Array.from({ length: 21 }, (_, i) => `r${i}`);
    expect(await failure(portal.admin.apps.create({ name: unique('r'), url: 'https://r.example.com/', roles: tooMany }))).toMatchObject({ field: 'roles' });

    const app = await portal.admin.apps.create({ name: unique('roles'), url: 'https://roles.example.com/', roles: ['viewer', 'editor'] });
    const user = await portal.createUser();
    await portal.admin.users.grant(user.user.id, app.id);
    expect((await verify(app, user.token)).headers.get('remote-roles')).toBe('viewer');
    await portal.admin.users.updateGrant(user.user.id, app.id, { role: 'editor' });
    expect((await verify(app, user.token)).headers.get('remote-roles')).toBe('editor');
    expect(await failure(portal.admin.users.updateGrant(user.user.id, app.id, { role: 'owner' }))).toMatchObject({ field: 'role' });

    await portal.admin.apps.update({ ...app, roles: ['reader', 'viewer'] });
    expect((await verify(app, user.token)).headers.get('remote-roles')).toBe('reader');
    await portal.admin.apps.update({ ...app, roles: [] });
    expect((await verify(app, user.token)).headers.get('remote-roles')).toBe('');
    expect(await logTypes()).toEqual(expect.arrayContaining(['app.roles', 'grant.update']));
  });
});

describe('owners', () => {
  interface Cast {
    app: App;
    other: App;
    owner: TestUser;
    teamOwner: TestUser;
    otherOwner: TestUser;
    member: TestUser;
    plain: TestUser;
    target: TestUser;
    team: { id: number; name: string };
  }

  async function cast(): Promise<Cast> {
    const [owner, teamOwner, otherOwner, member, plain, target] = await Promise.all(Array.from({ length: 6 }, () => portal.createUser()));
    const owners = await newTeam(unique('Owners'));
    await portal.admin.teams.addUser(owners.id, { userid: teamOwner.user.id });
    const team = await newTeam();
    await portal.admin.teams.addUser(team.id, { userid: member.user.id });
    const app = await portal.admin.apps.create({
      name: unique('owned'),
      url: `https://${unique('owned')}.example.com/`,
      roles: ['viewer', 'editor'],
      owners: { users: [owner.user.id], teams: [owners.id] },
    });
    expect(app.owners).toEqual({ users: [owner.user.id], teams: [owners.id] });
    const other = await portal.admin.apps.create({
      name: unique('other'),
      url: 'https://other.example.com/',
      owners: { users: [otherOwner.user.id], teams: [] },
    });
    return { app, other, owner, teamOwner, otherOwner, member, plain, target, team };
  }

  it('manage their app: grants to users and teams with role and expiry, its access list, /user/me owns', async () => {
    const { app, owner, teamOwner, target, team, member } = await cast();
    for (const [index, manager] of [owner, teamOwner].entries()) {
      const api = manager.api;
      expect((await api.users.me()).owns).toEqual([app.id]);
      expect((await api.apps.get(app.id)).roles).toEqual(['viewer', 'editor']);
      await api.users.grant(target.user.id, app.id, { role: 'editor', expires: inAnHour() });
      await api.users.updateGrant(target.user.id, app.id, { role: 'viewer', expires: null });
      expect((await api.apps.users(app.id)).map((user) => user.id)).toEqual([target.user.id]);
      await api.teams.grant(team.id, { appid: app.id, role: 'editor' });
      await api.teams.updateGrant(team.id, app.id, { role: 'viewer' });
      expect(await api.teams.apps(team.id)).toEqual([{ id: app.id, name: app.name, role: 'viewer' }]);
      expect((await api.apps.access(app.id)).map((user) => user.id).sort()).toEqual([target.user.id, member.user.id].sort());
      await api.teams.revoke(team.id, app.id);
      if (index === 0) await api.users.revoke(target.user.id, app.id);
      else await api.apps.removeUser(app.id, target.user.id);
    }
    const entry = (await portal.admin.logs.page(1, 1))[0];
    expect(entry).toMatchObject({ type: 'grant.remove', actor: teamOwner.email });
  });

  it('may do nothing else: not another app, not teams, not users; and others may not manage the app', async () => {
    const { app, other, owner, otherOwner, member, plain, target, team } = await cast();
    const forbidden = async (call: Promise<unknown>) => expect(await failure(call)).toMatchObject({ code: 'forbidden' });
    await forbidden(owner.api.users.grant(target.user.id, other.id));
    await forbidden(owner.api.apps.get(other.id));
    await forbidden(owner.api.apps.access(other.id));
    await forbidden(owner.api.apps.update({ ...app, description: 'mine' }));
    await forbidden(owner.api.apps.delete(app.id));
    await forbidden(owner.api.teams.addUser(team.id, { userid: target.user.id }));
    await forbidden(owner.api.teams.users(team.id));
    await forbidden(owner.api.teams.create({ name: unique('mine') }));
    await forbidden(owner.api.users.list());
    await forbidden(owner.api.users.apps(target.user.id));
    // An owner of an app that does not exist looks the same as one of another app.
    await forbidden(owner.api.users.grant(target.user.id, 999999));
    for (const caller of [otherOwner, member, plain] as { api: PortalClient }[]) {
      await forbidden(caller.api.users.grant(target.user.id, app.id));
      await forbidden(caller.api.teams.grant(team.id, { appid: app.id }));
      await forbidden(caller.api.apps.access(app.id));
      await forbidden(caller.api.apps.users(app.id));
      await forbidden(caller.api.apps.get(app.id));
    }
    // A member sees their own team; others do not.
    expect((await member.api.teams.list()).map((listed) => listed.id)).toEqual([team.id]);
    expect((await member.api.teams.get(team.id)).id).toBe(team.id);
    await forbidden(plain.api.teams.get(team.id));
    expect(await plain.api.teams.list()).toEqual([]);
    await forbidden(member.api.teams.apps(team.id));
  });

  it('name whom to grant: a user by exact email (id and email only), every team (id and name only); nobody else may ask', async () => {
    const { app, other, owner, teamOwner, otherOwner, member, plain, target, team } = await cast();
    for (const manager of [owner, teamOwner, { api: portal.admin }]) {
      expect(await manager.api.apps.grantableUser(app.id, target.email)).toEqual({ id: target.user.id, email: target.email });
      expect(await manager.api.apps.grantableUser(app.id, `  ${target.email.toUpperCase()} `)).toEqual({ id: target.user.id, email: target.email });
      const teams = await manager.api.apps.grantableTeams(app.id);
      // Teams the owner is not a member of too, and nothing but id and name.
      expect(teams).toContainEqual({ id: team.id, name: team.name });
      expect(Object.keys(teams[0]).sort()).toEqual(['id', 'name']);
    }
    // Enumeration: a part of an address, a pattern or a wildcard is no email (400); an unknown one is 404.
    const [local, domain] = target.email.split('@');
    for (const partial of [local, `@${domain}`, `${local}@`, `%@${domain}`, `${local.slice(0, 3)}%@${domain}`, '*', '']) {
      expect(await failure(owner.api.apps.grantableUser(app.id, partial)), partial).toMatchObject({ code: 'invalid_input', field: 'email' });
    }
    expect(await failure(owner.api.apps.grantableUser(app.id, `_${target.email.slice(1)}`))).toMatchObject({ code: 'not_found' });
    expect(await failure(owner.api.apps.grantableUser(app.id, `nobody-${unique('x')}@example.com`))).toMatchObject({ code: 'not_found' });
    // Another app's lookups: 403 before anything is read, for an app that exists and one that does not.
    for (const appId of [other.id, 999999]) {
      expect(await failure(owner.api.apps.grantableUser(appId, target.email))).toMatchObject({ code: 'forbidden' });
      expect(await failure(owner.api.apps.grantableTeams(appId))).toMatchObject({ code: 'forbidden' });
    }
    for (const caller of [otherOwner, member, plain]) {
      expect(await failure(caller.api.apps.grantableUser(app.id, target.email))).toMatchObject({ code: 'forbidden' });
      expect(await failure(caller.api.apps.grantableTeams(app.id))).toMatchObject({ code: 'forbidden' });
    }
    // An admin asking about an app that does not exist learns just that.
    expect(await failure(portal.admin.apps.grantableTeams(999999))).toMatchObject({ code: 'not_found' });
    // What the owner found is what they grant with.
    const found = await owner.api.apps.grantableUser(app.id, target.email);
    await owner.api.users.grant(found.id, app.id, { role: 'editor' });
    expect((await owner.api.apps.users(app.id)).map((user) => user.id)).toEqual([target.user.id]);
  });

  it('decide the access requests of their app, picking the role; others may not', async () => {
    const { app, owner, otherOwner, target } = await cast();
    await portal.admin.apps.update({ ...app, requestable: true });
    expect(await failure(target.api.accessRequests.create({ appid: app.id, role: 'boss', reason: '' }))).toMatchObject({ field: 'role' });
    const request = await target.api.accessRequests.create({ appid: app.id, role: 'editor', reason: 'to edit' });
    expect(request.role).toBe('editor');
    expect((await owner.api.accessRequests.list()).map((listed) => listed.id)).toContain(request.id);
    expect((await otherOwner.api.accessRequests.list()).map((listed) => listed.id)).not.toContain(request.id);
    expect(await failure(otherOwner.api.accessRequests.approve(request.id))).toMatchObject({ code: 'forbidden' });
    expect(await failure(target.api.accessRequests.approve(request.id))).toMatchObject({ code: 'forbidden' });
    const approved = await owner.api.accessRequests.approve(request.id, { role: 'viewer' });
    expect(approved).toMatchObject({ status: 'approved', role: 'viewer', decidedBy: owner.email });
    expect((await verify(app, target.token)).headers.get('remote-roles')).toBe('viewer');
  });

  it('change with the app: adding and removing owners is logged; a removed owner may no longer manage it', async () => {
    const { app, owner, target } = await cast();
    await portal.admin.apps.update({ ...app, owners: { users: [], teams: [] } });
    expect(await failure(owner.api.users.grant(target.user.id, app.id))).toMatchObject({ code: 'forbidden' });
    expect((await owner.api.users.me()).owns).toEqual([]);
    expect(await logTypes()).toEqual(expect.arrayContaining(['app.owner_add', 'app.owner_remove']));
    // A user owner's entries are about that user and their client (docs/event-log.md).
    for (const type of ['app.owner_add', 'app.owner_remove']) {
      const [entry] = await portal.admin.logs.page(1, 1, { type, user: owner.email });
      expect(entry).toMatchObject({ user: owner.email, client: owner.user.client.name, event: expect.stringContaining(app.name) });
    }
    expect(await failure(portal.admin.apps.update({ ...app, owners: { users: [999999], teams: [] } }))).toMatchObject({ field: 'owners.users' });
  });
});
