import { describe, expect, it } from 'vitest';
import { canonical, checkSetupDocument, planSetup, setupJsonSchema, type SetupDocument } from '../src/setup-document.js';

const portal: SetupDocument = {
  version: 1,
  clients: [{ name: 'Admin' }, { name: 'Acme' }, { name: 'Globex' }],
  apps: [
    {
      name: 'grafana',
      url: 'https://grafana.example.com/',
      description: 'Dashboards',
      doclink: '',
      category: 'Monitoring',
      requestable: true,
      roles: ['viewer', 'editor'],
      owners: { users: ['olga@example.com'], teams: ['Ops'] },
      openid: { redirect_uris: ['https://grafana.example.com/login'], post_logout_redirect_uris: [], public: false, device: false },
    },
    {
      name: 'wiki',
      url: 'https://wiki.example.com/',
      description: '',
      doclink: '',
      category: '',
      requestable: false,
      roles: [],
      owners: { users: [], teams: [] },
    },
  ],
  teams: [
    { name: 'Ops', description: 'On call', members: [{ email: 'olga@example.com' }, { email: 'ben@example.com', expires: '2027-01-01T00:00:00.000Z' }] },
    { name: 'Sales', description: '', members: [] },
  ],
  grants: [
    { app: 'grafana', team: 'Ops', role: 'editor' },
    { app: 'wiki', user: 'ben@example.com' },
    { app: 'wiki', user: 'admin@example.com' },
  ],
  invites: [{ email: 'new@example.com', client: 'Acme', apps: ['wiki'] }],
};

const same = structuredClone(portal);

describe('a setup document', () => {
  it('is checked whole: every problem at its place in the file, shape first', () => {
    const result = checkSetupDocument({
      version: 1,
      apps: [
        { name: 'ok', url: 'https://ok.example.com/' },
        { name: '', url: 'ftp://x' },
        { name: 'r', url: 'https://r.example.com/', roles: ['Viewer'] },
      ],
      teams: [{ name: 'Ops', members: [{ email: 'not-mail' }] }],
      grants: [{ app: 'ok', user: 'a@example.com', expires: 'tomorrow' }],
      extra: true,
    });
    expect(result.problems.map((problem) => problem.path)).toEqual(
      expect.arrayContaining(['apps[1].name', 'apps[1].url', 'apps[2].roles[0]', 'teams[0].members[0].email', 'grants[0].expires', '(document)']),
    );
    expect(result.document).toBeUndefined();
  });

  it('refuses names given twice, a team named Admin, a grant naming both or neither, and a role its app does not declare', () => {
    const result = checkSetupDocument({
      version: 1,
      clients: [{ name: 'Acme' }, { name: 'ACME' }, { name: 'ＡＤＭＩＮ' }],
      apps: [{ name: 'grafana', url: 'https://g.example.com/', roles: ['viewer', 'viewer'] }],
      teams: [{ name: 'Ops', members: [{ email: 'a@example.com' }, { email: 'A@example.com' }] }],
      grants: [
        { app: 'grafana', user: 'a@example.com', team: 'Ops' },
        { app: 'grafana' },
        { app: 'grafana', team: 'Ops', role: 'admin' },
        { app: 'grafana', team: 'OPS' },
      ],
    });
    expect(result.problems).toEqual(
      expect.arrayContaining([
        { path: 'clients[1]', message: 'client ACME is already at clients[0]' },
        { path: 'clients[2].name', message: "is too close to Admin, the admins' client" },
        { path: 'teams[0].members[1]', message: 'member a@example.com is already at teams[0].members[0]' },
        { path: 'apps[0].roles[1]', message: 'role viewer is already at apps[0].roles[0]' },
        { path: 'grants[0]', message: 'must name either a user or a team' },
        { path: 'grants[1]', message: 'must name either a user or a team' },
        { path: 'grants[2].role', message: "must be one of grafana's roles: viewer, viewer" },
        { path: 'grants[3]', message: 'the grant grafana: team OPS is already at grants[2]' },
      ]),
    );
  });

  it("refuses a team named Admin with core's team-name rule", () => {
    expect(checkSetupDocument({ version: 1, teams: [{ name: 'admin' }] }).problems).toEqual([
      { path: 'teams[0].name', message: 'must not be Admin or a name like it' },
    ]);
  });

  it('has a JSON Schema that editors can use', () => {
    const schema = setupJsonSchema();
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false, required: ['version'] });
    expect(JSON.stringify(schema)).toContain('redirect_uris');
  });
});

describe('a plan', () => {
  it('finds nothing to change between a portal and its own export', () => {
    expect(planSetup(portal, same)).toEqual([]);
    expect(planSetup(portal, same, { prune: true })).toEqual([]);
  });

  it('leaves out what the file leaves out, unless it prunes', () => {
    const small: SetupDocument = { version: 1, apps: [{ name: 'wiki', url: 'https://wiki.example.com/' }] };
    expect(planSetup(portal, small)).toEqual([]);
    expect(planSetup(portal, small, { prune: true, callerEmail: 'admin@example.com' })).toEqual([
      { op: '-', kind: 'grant', name: 'grafana: team Ops' },
      { op: '-', kind: 'grant', name: 'wiki: ben@example.com' },
      { op: '-', kind: 'team', name: 'Ops' },
      { op: '-', kind: 'team', name: 'Sales' },
      { op: '-', kind: 'app', name: 'grafana' },
      { op: '-', kind: 'client', name: 'Acme' },
      { op: '-', kind: 'client', name: 'Globex' },
    ]);
  });

  it('names every change: additions with what they make, changed fields from → to', () => {
    const desired: SetupDocument = {
      version: 1,
      clients: [{ name: 'Initech' }],
      apps: [
        {
          name: 'grafana',
          url: 'https://grafana.example.com/',
          description: 'Dashboards and alerts',
          roles: ['viewer', 'editor', 'admin'],
          owners: { teams: ['Ops'], users: ['olga@example.com'] },
          openid: { redirect_uris: ['https://grafana.example.com/login'], device: true },
        },
        { name: 'jira', url: 'https://jira.example.com/', requestable: true },
      ],
      teams: [{ name: 'Ops', members: [{ email: 'ben@example.com', expires: '2027-01-01T00:00:00Z' }, { email: 'carl@example.com' }] }],
      grants: [
        { app: 'grafana', team: 'Ops', role: 'admin' },
        { app: 'jira', user: 'ben@example.com', expires: '2027-03-01' },
      ],
      invites: [
        { email: 'new@example.com', client: 'Acme' },
        { email: 'other@example.com', client: 'Initech', apps: ['jira'] },
      ],
    };
    expect(planSetup(portal, desired)).toEqual([
      { op: '+', kind: 'client', name: 'Initech' },
      { op: '~', kind: 'app', name: 'grafana', field: 'description', from: 'Dashboards', to: 'Dashboards and alerts' },
      { op: '~', kind: 'app', name: 'grafana', field: 'roles', from: ['viewer', 'editor'], to: ['viewer', 'editor', 'admin'] },
      {
        op: '~',
        kind: 'app',
        name: 'grafana',
        field: 'openid',
        from: { redirect_uris: ['https://grafana.example.com/login'], post_logout_redirect_uris: [], public: false, device: false },
        to: { redirect_uris: ['https://grafana.example.com/login'], post_logout_redirect_uris: [], public: false, device: true },
      },
      { op: '+', kind: 'app', name: 'jira', to: { url: 'https://jira.example.com/', requestable: true } },
      { op: '+', kind: 'membership', name: 'Ops: carl@example.com' },
      { op: '~', kind: 'grant', name: 'grafana: team Ops', field: 'role', from: 'editor', to: 'admin' },
      { op: '+', kind: 'grant', name: 'jira: ben@example.com', to: { expires: '2027-03-01' } },
      { op: '+', kind: 'invite', name: 'other@example.com', to: { client: 'Initech', apps: ['jira'] } },
    ]);
  });

  it("never prunes the Admin client, users, invitations, or the caller's own grants and memberships", () => {
    const desired: SetupDocument = { version: 1, teams: [{ name: 'Ops', members: [] }] };
    const plan = planSetup(portal, desired, { prune: true, callerEmail: 'olga@example.com' });
    expect(plan).toContainEqual({ op: '-', kind: 'membership', name: 'Ops: ben@example.com' });
    expect(plan).not.toContainEqual(expect.objectContaining({ name: 'Ops: olga@example.com' }));
    expect(plan).not.toContainEqual(expect.objectContaining({ kind: 'client', name: 'Admin' }));
    expect(plan.some((change) => change.kind === 'invite')).toBe(false);
  });

  it('writes one text for one value (the hash of a plan is taken over it)', () => {
    expect(canonical({ b: 1, a: [{ d: undefined, c: 'x' }] })).toBe('{"a":[{"c":"x"}],"b":1}');
    expect(canonical({ a: 1, b: 2 })).toBe(canonical({ b: 2, a: 1 }));
  });
});
