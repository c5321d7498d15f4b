/**
 * The portal's setup as a file (docs/cli.md, docs/api.md Setup): export, plan and apply, all or
 * nothing, `expect` refusing a plan that is no longer the one reviewed, prune, every problem at
 * its path, a failure half-way leaving nothing applied, two applies at once.
 */
import type { SetupDocument, SetupProblem } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { dialectOf } from '../src/db/connection.js';
import { PNG } from './support/images.js';
import { ADMIN_EMAIL, createApp, unique, useTestPortal } from './support/support.js';

const portal = useTestPortal();

async function problemsOf(call: Promise<unknown>): Promise<{ code: string; message: string; problems?: SetupProblem[] }> {
  try {
    await call;
  } catch (error) {
    const apiError = error as { code: string; message: string; details: { problems?: SetupProblem[] } };
    return { code: apiError.code, message: apiError.message, problems: apiError.details?.problems };
  }
  throw new Error('expected the call to fail');
}

const counts = async () => {
  const db = portal.deps.db;
  const rows = await Promise.all(
    ['apps', 'clients', 'teams', 'team_members', 'user_apps', 'team_apps', 'invites', 'oidc_clients', 'auth_log'].map((table) =>
      db(table).count({ n: '*' }).first(),
    ),
  );
  return rows.map((row) => Number(row?.n));
};

const inAYear = () => new Date(Date.now() + 365 * 86_400_000).toISOString();

describe('the setup document', () => {
  it('has its JSON Schema served to anyone', async () => {
    const answer = await portal.fetch('/api/auth/v1/config.schema.json');
    expect(answer.status).toBe(200);
    const schema = (await answer.json()) as Record<string, unknown>;
    expect(schema).toMatchObject({ title: 'Tools-Portal setup', type: 'object', required: ['version'] });
  });

  it('refuses callers other than admins', async () => {
    const user = await portal.createUser();
    expect((await problemsOf(user.api.setup.plan({ document: { version: 1 } }))).code).toBe('forbidden');
    expect((await problemsOf(user.api.setup.apply({ document: { version: 1 } }))).code).toBe('forbidden');
    expect((await problemsOf(portal.anonymous.setup.export())).code).toBe('unauthenticated');
  });

  it('applies a document, logs every change and the apply with its hash, returns new client secrets once, and then plans nothing', async () => {
    const user = await portal.createUser();
    const client = unique('Acme');
    const team = unique('Ops');
    const app = unique('wiki');
    const invited = `${unique('new')}@example.com`;
    const document: SetupDocument = {
      version: 1,
      clients: [{ name: client }],
      teams: [{ name: team, description: 'On call', members: [{ email: user.email, expires: inAYear() }] }],
      apps: [
        {
          name: app,
          url: `https://${app}.example.com/`,
          description: 'The wiki',
          roles: ['viewer', 'editor'],
          owners: { users: [user.email], teams: [team] },
          icon: 'icons/wiki.png',
          openid: { redirect_uris: [`https://${app}.example.com/callback`] },
        },
      ],
      grants: [
        { app, team, role: 'editor' },
        { app, user: user.email, role: 'viewer' },
        { app, user: invited },
      ],
      invites: [{ email: invited, client }],
    };
    const icons = [{ path: 'icons/wiki.png', data: PNG.toString('base64') }];
    const plan = await portal.admin.setup.plan({ document, icons });
    expect(plan.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.changes.map((change) => `${change.op} ${change.kind} ${change.name}`)).toEqual([
      `+ client ${client}`,
      `+ team ${team}`,
      `+ app ${app}`,
      `+ membership ${team}: ${user.email}`,
      `+ grant ${app}: team ${team}`,
      `+ grant ${app}: ${user.email}`,
      `+ grant ${app}: ${invited}`,
      `+ invite ${invited}`,
    ]);

    const applied = await portal.admin.setup.apply({ document, icons, expect: plan.hash });
    expect(applied.hash).toBe(plan.hash);
    expect(applied.secrets).toEqual([{ app, client_id: app, client_secret: expect.stringMatching(/.{20,}/) }]);

    const log = await portal.admin.logs.page(1, 40);
    const types = log.map((entry) => entry.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'setup.apply',
        'client.create',
        'team.create',
        'app.create',
        'app.icon',
        'oidc.client',
        'team.member_add',
        'team.grant_add',
        'grant.add',
        'invite.create',
      ]),
    );
    expect(log.find((entry) => entry.type === 'setup.apply')).toMatchObject({ actor: ADMIN_EMAIL, event: expect.stringContaining(plan.hash) });

    // The invitee's grant rides on the invitation.
    const invite = (await portal.admin.invites.list()).find((entry) => entry.email === invited);
    const apps = await portal.admin.apps.all();
    expect(invite?.apps).toEqual([apps.find((entry) => entry.name === app)?.id]);

    expect((await portal.admin.setup.plan({ document, icons })).changes).toEqual([]);
    const again = await portal.admin.setup.apply({ document, icons });
    expect(again).toMatchObject({ changes: [], secrets: [] });

    // A change of the OpenID settings keeps a confidential client's secret.
    const redirected = structuredClone(document);
    redirected.apps![0].openid = { redirect_uris: [`https://${app}.example.com/other`] };
    const changed = await portal.admin.setup.apply({ document: redirected, icons });
    expect(changed.changes).toMatchObject([{ op: '~', kind: 'app', name: app, field: 'openid' }]);
    expect(changed.secrets).toEqual([]);
  });

  it('exports a document that plans nothing to change (a round trip), and plans each difference with old and new', async () => {
    const app = await createApp(portal.admin, { roles: ['viewer'] });
    await portal.admin.apps.setIcon(app.id, PNG, 'image/png');
    const exported = await portal.admin.setup.export();
    expect(exported.icons.length).toBeGreaterThan(0);
    expect((await portal.admin.setup.plan({ document: exported.document })).changes).toEqual([]);
    expect((await portal.admin.setup.plan({ document: exported.document, prune: true })).changes).toEqual([]);

    const edited = structuredClone(exported.document);
    const entry = edited.apps!.find((candidate) => candidate.name === app.name)!;
    entry.url = 'https://elsewhere.example.com/';
    const plan = await portal.admin.setup.plan({ document: edited });
    expect(plan.changes).toEqual([{ op: '~', kind: 'app', name: app.name, field: 'url', from: app.url, to: 'https://elsewhere.example.com/' }]);
  });

  it("prunes what the file leaves out, never users, invitations, the Admin client or the caller's own access", async () => {
    const app = await createApp(portal.admin);
    const exported = (await portal.admin.setup.export()).document;
    const without = {
      ...exported,
      apps: exported.apps!.filter((entry) => entry.name !== app.name),
      grants: exported.grants!.filter((grant) => grant.app !== app.name),
    };
    expect((await portal.admin.setup.plan({ document: without })).changes).toEqual([]);
    const plan = await portal.admin.setup.plan({ document: { version: 1 }, prune: true });
    const names = plan.changes.map((change) => `${change.op} ${change.kind} ${change.name}`);
    expect(names).toContain(`- app ${app.name}`);
    expect(names).not.toContain('- client Admin');
    // Deleting a client would delete its users: a client with users is never pruned.
    const user = await portal.createUser();
    const empty = await portal.admin.clients.create(unique('Empty'));
    const pruned = (await portal.admin.setup.plan({ document: { version: 1 }, prune: true })).changes.map(
      (change) => `${change.op} ${change.kind} ${change.name}`,
    );
    expect(pruned).toContain(`- client ${empty.name}`);
    expect(pruned).not.toContain(`- client ${user.user.client.name}`);
    await portal.admin.clients.delete(empty.id);
    expect(plan.changes.every((change) => change.op === '-' && change.kind !== 'invite')).toBe(true);

    const applied = await portal.admin.setup.apply({ document: without, prune: true });
    expect(applied.changes).toEqual([{ op: '-', kind: 'app', name: app.name }]);
    expect((await portal.admin.apps.all()).map((entry) => entry.name)).not.toContain(app.name);
  });

  it('refuses a bad document with every problem at its path in the file, and applies nothing', async () => {
    const before = await counts();
    const app = unique('bad');
    const answer = await problemsOf(
      portal.admin.setup.apply({
        document: {
          version: 1,
          clients: [{ name: unique('Fine') }],
          apps: [
            { name: app, url: 'https://ok.example.com/' },
            { name: unique('x'), url: 'not a url' },
          ],
          teams: [{ name: unique('T'), members: [{ email: 'nobody@example.com' }] }],
          grants: [{ app: 'no-such-app', user: 'ghost@example.com' }],
          invites: [{ email: 'n@example.com', client: 'No Such Client' }],
        },
      }),
    );
    expect(answer.code).toBe('invalid_input');
    // Shape first: the document's own problems.
    expect(answer.problems).toEqual([{ path: 'apps[1].url', message: expect.any(String) }]);

    const references = await problemsOf(
      portal.admin.setup.apply({
        document: {
          version: 1,
          apps: [{ name: app, url: 'https://ok.example.com/', icon: 'missing.png' }],
          teams: [{ name: unique('T'), members: [{ email: 'nobody@example.com' }] }],
          grants: [
            { app: 'no-such-app', user: 'ghost@example.com' },
            { app, user: ADMIN_EMAIL, expires: '2001-01-01T00:00:00Z' },
          ],
          invites: [{ email: 'n@example.com', client: 'No Such Client' }],
        },
      }),
    );
    expect(references.problems).toEqual(
      expect.arrayContaining([
        { path: 'teams[0].members[0].email', message: 'no user nobody@example.com: they must exist on the portal' },
        { path: 'grants[0].app', message: expect.stringContaining('no app no-such-app') },
        { path: 'grants[0].user', message: expect.stringContaining('no user ghost@example.com') },
        { path: 'grants[1].expires', message: 'must be in the future' },
        { path: 'invites[0].client', message: expect.stringContaining('no client No Such Client') },
        { path: 'apps[0].icon', message: 'the file missing.png was not sent with the document' },
      ]),
    );
    expect(references.problems).toHaveLength(6);
    expect(await counts()).toEqual(before);
  });

  it('applies nothing when a change fails half-way', async () => {
    const db = portal.deps.db;
    const boom = `${unique('boom')}@example.com`;
    // A real failure of the database after several changes were made in the transaction.
    if (dialectOf(db) === 'postgres') {
      await db.raw(
        `CREATE OR REPLACE FUNCTION refuse_boom() RETURNS trigger AS $$ BEGIN IF NEW.email = '${boom}' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
      );
      await db.raw('CREATE TRIGGER refuse_boom BEFORE INSERT ON invites FOR EACH ROW EXECUTE FUNCTION refuse_boom()');
    } else {
      await db.raw(`CREATE TRIGGER refuse_boom BEFORE INSERT ON invites WHEN NEW.email = '${boom}' BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    }
    try {
      const before = await counts();
      const client = unique('Half');
      const app = unique('half');
      const answer = await problemsOf(
        portal.admin.setup.apply({
          document: {
            version: 1,
            clients: [{ name: client }],
            teams: [{ name: unique('Half') }],
            apps: [{ name: app, url: 'https://half.example.com/', openid: { redirect_uris: ['https://half.example.com/cb'] } }],
            grants: [{ app, user: ADMIN_EMAIL }],
            invites: [{ email: boom, client, apps: [app] }],
          },
        }),
      );
      expect(answer.code).toBe('internal');
      // Not a row more anywhere, the event log included.
      expect(await counts()).toEqual(before);
    } finally {
      await db.raw('DROP TRIGGER refuse_boom' + (dialectOf(db) === 'postgres' ? ' ON invites' : ''));
    }
  });

  it('refuses with 409 a plan that changed between review and apply (expect), and serializes two applies', async () => {
    const team = unique('Review');
    const document: SetupDocument = { version: 1, teams: [{ name: team, description: 'reviewed' }] };
    const reviewed = await portal.admin.setup.plan({ document });
    // Someone changes the portal in between.
    await portal.admin.teams.create({ name: team, description: 'made by hand' });
    const refused = await problemsOf(portal.admin.setup.apply({ document, expect: reviewed.hash }));
    expect(refused.code).toBe('conflict');
    expect((await portal.admin.teams.list()).find((entry) => entry.name === team)?.description).toBe('made by hand');

    const name = unique('Twice');
    const both = { version: 1, teams: [{ name: name }] };
    const plan = await portal.admin.setup.plan({ document: both });
    const results = await Promise.allSettled([
      portal.admin.setup.apply({ document: both, expect: plan.hash }),
      portal.admin.setup.apply({ document: both, expect: plan.hash }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected');
    expect((rejected?.reason as { code: string }).code).toBe('conflict');
    expect((await portal.admin.teams.list()).filter((entry) => entry.name === name)).toHaveLength(1);
  });
});
