/**
 * Where apps see teams and roles (docs/forward-auth.md, docs/oidc.md): forward auth's
 * `Remote-Groups` and `Remote-Roles`, OpenID `groups` and the `roles` scope; and a change of team,
 * membership, role or grant made through one instance holds on another within AUTH_CACHE_SECONDS.
 */
import type { App } from '@tools-portal/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.js';
import { Browser, oidc, relyingParty, type RelyingParty } from './support/openid-rp.js';
import { startTestPortal, unique, type TestPortal, type TestUser } from './support/support.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

let database: TestDatabase;
let a: TestPortal;
let b: TestPortal;

beforeAll(async () => {
  database = createTestDatabase();
  a = await startTestPortal({}, { database });
  // One issuer for both: B serves PUBLIC_URL = A's address, as behind one load balancer.
  b = await startTestPortal({ PUBLIC_URL: a.url }, { database, keepPublicUrl: true });
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  await database?.drop();
});

interface Setup {
  app: App;
  user: TestUser;
  teams: { id: number; name: string }[];
}

/** An app with roles reached by a user through two teams (names chosen so that `Zeta` sorts last). */
async function setup(): Promise<Setup> {
  const app = await a.admin.apps.create({ name: unique('roles'), url: `https://${unique('roles')}.example.com/`, roles: ['viewer', 'editor', 'admin'] });
  const user = await a.createUser();
  const zeta = await a.admin.teams.create({ name: unique('Zeta') });
  const alpha = await a.admin.teams.create({ name: unique('Alpha') });
  for (const team of [zeta, alpha]) await a.admin.teams.addUser(team.id, { userid: user.user.id });
  await a.admin.teams.grant(zeta.id, { appid: app.id, role: 'viewer' });
  await a.admin.teams.grant(alpha.id, { appid: app.id, role: 'editor' });
  return { app, user, teams: [alpha, zeta] };
}

function verifyOn(portal: TestPortal, app: App, token: string) {
  return portal.fetch(`/api/auth/v1/verify?app=${encodeURIComponent(app.name)}`, { headers: { cookie: `accesstoken=${token}` }, redirect: 'manual' });
}

describe('forward auth across instances', () => {
  it('sends the teams and roles, and sees a change made on the other instance within the bound', async () => {
    const { app, user, teams } = await setup();
    const answer = await verifyOn(b, app, user.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('remote-groups')).toBe([user.user.client.name, ...teams.map((team) => team.name)].join(','));
    expect(answer.headers.get('remote-roles')).toBe('editor,viewer');

    await a.admin.teams.updateGrant(teams[0].id, app.id, { role: 'admin' });
    const roles = async () => (await verifyOn(b, app, user.token)).headers.get('remote-roles');
    b.passCacheBound();
    expect(await roles()).toBe('admin,viewer');

    await a.admin.teams.removeUser(teams[1].id, user.user.id);
    const groups = async () => (await verifyOn(b, app, user.token)).headers.get('remote-groups');
    b.passCacheBound();
    expect(await groups()).toBe(`${user.user.client.name},${teams[0].name}`);

    await a.admin.teams.removeUser(teams[0].id, user.user.id);
    b.passCacheBound();
    expect((await verifyOn(b, app, user.token)).status).toBe(403);
  });

  it('answers an admin without teams or roles with both headers empty but present', async () => {
    const app = await a.admin.apps.create({ name: unique('plain'), url: 'https://plain.example.com/' });
    const answer = await verifyOn(a, app, a.admin.token!);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('remote-groups')).toBe('Admin');
    expect(answer.headers.get('remote-roles')).toBe('');
  });
});

describe('OpenID groups and roles', () => {
  async function rpFor(app: App): Promise<RelyingParty> {
    const created = await a.admin.apps.oidc.enable(app.id, { redirect_uris: [REDIRECT] });
    const rp = await relyingParty(a.url, app.name, created.client_secret, REDIRECT);
    // The relying party's calls go to B, though the issuer is A's URL.
    rp.config[oidc.customFetch] = (url, options) => fetch(url.replace(a.url, b.url), options as RequestInit);
    return rp;
  }

  async function signIn(rp: RelyingParty, token: string, scope: string) {
    const start = await rp.start({ scope });
    const browser = new Browser(a.url);
    browser.cookies.set('accesstoken', token);
    const { url } = await browser.navigate(start.url);
    expect(url.startsWith(REDIRECT), url).toBe(true);
    return oidc.authorizationCodeGrant(rp.config, new URL(url), { pkceCodeVerifier: start.verifier, expectedState: start.state, expectedNonce: start.nonce });
  }

  it('lists the client then the teams in groups, and the roles only with the roles scope', async () => {
    const { app, user, teams } = await setup();
    const rp = await rpFor(app);
    const groups = [user.user.client.name, ...teams.map((team) => team.name)];

    const withRoles = await signIn(rp, user.token, 'openid email groups roles');
    expect(withRoles.claims()).toMatchObject({ groups, roles: ['editor', 'viewer'] });
    const info = await oidc.fetchUserInfo(rp.config, withRoles.access_token, String(user.user.id));
    expect(info).toMatchObject({ groups, roles: ['editor', 'viewer'] });

    const without = await signIn(rp, user.token, 'openid groups');
    expect(without.claims()).toMatchObject({ groups });
    expect(without.claims()).not.toHaveProperty('roles');
    expect(await oidc.fetchUserInfo(rp.config, without.access_token, String(user.user.id))).not.toHaveProperty('roles');

    // A role changed on A shows in userinfo on B within the bound.
    await a.admin.teams.updateGrant(teams[0].id, app.id, { role: 'admin' });
    const rolesNow = async () => (await oidc.fetchUserInfo(rp.config, withRoles.access_token, String(user.user.id))).roles as string[];
    b.passCacheBound();
    expect((await rolesNow()).join(',')).toBe('admin,viewer');
  });
});
