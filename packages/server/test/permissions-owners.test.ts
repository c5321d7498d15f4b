/**
 * The permission matrix's owner callers (docs/api.md, Teams, roles and owners): every route for
 * admins or an app's owners, every team route and every admin route, against the owner of this
 * app (directly, or through a team), the owner of another app, a member of a team and a plain
 * user. Owners manage their app's access and nothing else; admins-only stays admins-only.
 */
import { apiRoutes, type RouteSpec } from '@tools-portal/server';
import { describe, expect, it } from 'vitest';
import { seedUser } from './support/seed.js';
import { unique, useTestPortal, type TestUser } from './support/support.js';

const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '100000' });

type Caller = 'owner of this app' | 'owner of this app through a team' | 'owner of another app' | 'team member' | 'plain user';
const CALLERS: Caller[] = ['owner of this app', 'owner of this app through a team', 'owner of another app', 'team member', 'plain user'];
const OWNERS: Caller[] = ['owner of this app', 'owner of this app through a team'];

/** Who besides admins gets past each route (the rest of the callers: 403). */
function allowed(route: RouteSpec): Caller[] {
  const name = `${route.method} ${route.path}`;
  if (name === 'GET /team') return CALLERS;
  if (name === 'GET /team/:id') return ['team member'];
  // Any owner sees the team's grants of the apps they own (the owner of another app: none).
  if (name === 'GET /team/:id/app') return [...OWNERS, 'owner of another app'];
  // Reviews: any app's owner gets past the guard; the review itself decides (here: none exists, 404).
  if (route.path.startsWith('/review')) return [...OWNERS, 'owner of another app'];
  if (route.access === 'owner') return OWNERS;
  return [];
}

const checked = apiRoutes.filter((route) => route.access === 'owner' || route.access === 'admin' || route.path.startsWith('/team'));

interface World {
  callers: Record<Caller, TestUser>;
  values: Record<string, string>;
  bodies: Record<string, unknown>;
}

/** Fresh records for one route: the app, its owners, a team with a member, a target user, a request (the users seeded: ./support/seed.ts). */
async function world(): Promise<World> {
  const [owner, teamOwner, otherOwner, member, plain, target] = await Promise.all(Array.from({ length: 6 }, () => seedUser(portal)));
  const owners = await portal.admin.teams.create({ name: unique('Owners') });
  await portal.admin.teams.addUser(owners.id, { userid: teamOwner.user.id });
  const team = await portal.admin.teams.create({ name: unique('Team') });
  await portal.admin.teams.addUser(team.id, { userid: member.user.id });
  const app = await portal.admin.apps.create({
    name: unique('owned'),
    url: 'https://owned.example.com/',
    roles: ['viewer', 'editor'],
    requestable: true,
    owners: { users: [owner.user.id], teams: [owners.id] },
  });
  await portal.admin.apps.create({ name: unique('other'), url: 'https://other.example.com/', owners: { users: [otherOwner.user.id], teams: [] } });
  await portal.admin.users.grant(target.user.id, app.id);
  await portal.admin.teams.grant(team.id, { appid: app.id });
  const request = await (await seedUser(portal)).api.accessRequests.create({ appid: app.id, reason: '' });
  const client = await portal.admin.clients.create(unique('perm'));
  const values = {
    id: '',
    appid: String(app.id),
    userid: String(target.user.id),
    tokenid: '1',
    token: 'apikey-x',
    currentPage: '1',
    perPage: '20',
    itemid: '1',
    app: String(app.id),
    team: String(team.id),
    user: String(target.user.id),
    request: String(request.id),
    client: String(client.id),
    email: target.email,
  };
  const bodies: Record<string, unknown> = {
    'POST /app': { name: unique('app'), url: 'https://new.example.com/' },
    'PUT /app': { ...app, description: 'changed' },
    'POST /user/:id/app': { appid: app.id },
    'PUT /user/:id/app/:appid': { role: 'editor' },
    'POST /client': { name: unique('client') },
    'PUT /client': { id: client.id, name: unique('renamed') },
    'POST /team': { name: unique('team') },
    'PUT /team': { id: team.id, name: unique('renamed') },
    'POST /team/:id/user': { userid: target.user.id },
    'PUT /team/:id/user/:userid': { expires: null },
    'POST /team/:id/app': { appid: app.id, role: 'editor' },
    'PUT /team/:id/app/:appid': { role: 'editor' },
    'POST /accessrequest/:id/approve': { role: 'editor' },
    // Apps "all": every app for admins, the owned ones for owners (the owner of another app too).
    'POST /review': { name: unique('review'), apps: 'all', reviewers: 'owners', due: new Date(Date.now() + 86_400_000).toISOString(), whenMissed: 'keep' },
    'POST /review/:id/item/:itemid': { decision: 'keep' },
    'POST /review/:id/decide': { items: [1], decision: 'keep' },
    'POST /registrationtoken': { email: `${unique('inv')}@example.com`, clientid: client.id, apps: [app.id] },
  };
  // The team route's user is the member (a membership to change); the others' is the target.
  return {
    callers: {
      'owner of this app': owner,
      'owner of this app through a team': teamOwner,
      'owner of another app': otherOwner,
      'team member': member,
      'plain user': plain,
    },
    values,
    bodies,
  };
}

function pathOf(route: RouteSpec, { values, callers }: World): string {
  const first = route.path.split('/')[1];
  const id =
    first === 'app'
      ? values.app
      : first === 'team'
        ? values.team
        : first === 'client'
          ? values.client
          : first === 'accessrequest'
            ? values.request
            : values.user;
  const userid = route.path.startsWith('/team') ? String(callers['team member'].user.id) : values.userid;
  const query = route.path === '/app/:id/grantable/user' ? `?email=${encodeURIComponent(values.email)}` : '';
  return route.path.replace(/:(\w+)/g, (_, name: string) => (name === 'id' ? id : name === 'userid' ? userid : values[name])) + query;
}

describe('permission matrix: owners, members and plain users', () => {
  it('covers every owner route and every team route', () => {
    expect(checked.filter((route) => route.access === 'owner').length).toBeGreaterThanOrEqual(10);
    expect(checked.filter((route) => route.path.startsWith('/team')).length).toBe(13);
  });

  for (const route of checked) {
    const name = `${route.method} ${route.path}`;
    const expectation = CALLERS.map((caller) => `${caller} -> ${allowed(route).includes(caller) ? 'ok' : 403}`).join(', ');
    it(`${name}: ${expectation}`, async () => {
      const setup = await world();
      // Those refused first, so that an allowed change (a DELETE) cannot make a refusal look like a 404.
      const order = [...CALLERS].sort((a, b) => Number(allowed(route).includes(a)) - Number(allowed(route).includes(b)));
      for (const caller of order) {
        const body = setup.bodies[name];
        const response = await portal.fetch(`/api/auth/v1${pathOf(route, setup)}`, {
          method: route.method,
          headers: { authorization: `Bearer ${setup.callers[caller].token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const label = `${name} as ${caller}: ${response.status} ${await response.text()}`;
        if (allowed(route).includes(caller)) {
          expect([401, 403], label).not.toContain(response.status);
          expect(response.status, label).toBeLessThan(500);
        } else {
          expect(response.status, label).toBe(403);
        }
      }
    });
  }
});
