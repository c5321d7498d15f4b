/**
 * Planning a setup document against the portal (docs/cli.md, "The portal's setup as a file"):
 * the document's own problems (core's `checkSetupDocument`), then its references checked against
 * the database, every problem with its path at once; then core's plan and its hash.
 */
import { createHash } from 'node:crypto';
import {
  ApiError,
  canonical,
  checkSetupDocument,
  foldName,
  planSetupSteps,
  TOOLSCTL_CLIENT_ID,
  type SetupChange,
  type SetupDocument,
  type SetupPlanInput,
  type SetupProblem,
  type SetupStep,
} from '@tools-portal/core';
import type { Knex } from 'knex';
import { checkIcon } from '../apps/icon-images.js';
import { exportSetup, iconDigest } from './setup-state.js';

/** A plan ready to apply: its steps, the portal it was made against, the icons by the digest that names them. */
export interface SetupPlanned {
  steps: SetupStep[];
  changes: SetupChange[];
  hash: string;
  desired: SetupDocument;
  current: SetupDocument;
  icons: Map<string, Buffer>;
}

/** The plan's hash: SHA-256 over core's `canonical` JSON of the changes. */
const planHash = (changes: readonly SetupChange[]) => createHash('sha256').update(canonical(changes), 'utf8').digest('hex');

const refused = (problems: SetupProblem[]) =>
  new ApiError(
    'invalid_input',
    `the document has ${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
    {
      field: problems[0].path,
      problems,
    },
  );

/** Plans `input.document` against the portal in `db` (a transaction when applying); 400 with every problem. */
export async function planDocument(db: Knex, input: SetupPlanInput & { now: number; callerEmail: string }): Promise<SetupPlanned> {
  const checked = checkSetupDocument(input.document);
  if (!checked.document) throw refused(checked.problems);
  const { document: current } = await exportSetup(db, { now: input.now, withIcons: false });
  const users = new Map(((await db('users').select('email')) as { email: string }[]).map((row) => [row.email, true]));
  const icons = new Map<string, Buffer>();
  const desired = structuredClone(checked.document);
  const problems = referenceProblems({ current, desired, users, now: input.now });
  problems.push(...resolveIcons({ desired, current, sent: input.icons ?? [], icons }));
  if (problems.length > 0) throw refused(problems);
  const seen = withInvitations(current, desired, users);
  const populated = await clientsWithUsers(db);
  // Deleting a client deletes its users, and prune never removes users: a client with users stays.
  const steps = planSetupSteps(seen, desired, { prune: input.prune, callerEmail: input.callerEmail }).filter(
    ({ change, ref }) => !(change.op === '-' && ref.kind === 'client' && populated.has(foldName(ref.client))),
  );
  const changes = steps.map((step) => step.change);
  return { steps, changes, hash: planHash(changes), desired, current, icons };
}

async function clientsWithUsers(db: Knex): Promise<Set<string>> {
  const rows: { name: string }[] = await db('clients').whereExists(db('users').whereRaw('users.client_id = clients.id').select('users.id')).select('name');
  return new Set(rows.map((row) => foldName(row.name)));
}

/**
 * What the portal has, as the plan should see it: an invitation whose user has registered is
 * done (not planned again), and a grant to an invitee that their open invitation carries is there.
 */
function withInvitations(current: SetupDocument, desired: SetupDocument, users: Map<string, boolean>): SetupDocument {
  const openInvites = new Map(current.invites?.map((invite) => [invite.email, new Set(invite.apps)]));
  const registered = (desired.invites ?? []).filter((invite) => users.has(invite.email) && !openInvites.has(invite.email));
  const ridden = (desired.grants ?? []).filter((grant) => grant.user !== undefined && openInvites.get(grant.user)?.has(grant.app));
  return {
    ...current,
    invites: [...(current.invites ?? []), ...registered],
    grants: [...(current.grants ?? []), ...ridden.map(({ app, user }) => ({ app, user }))],
  };
}

interface References {
  current: SetupDocument;
  desired: SetupDocument;
  users: Map<string, boolean>;
  now: number;
}

/** References the document makes to what must exist on the portal or in the file, with their paths. */
function referenceProblems({ current, desired, users, now }: References): SetupProblem[] {
  const problems: SetupProblem[] = [];
  const at = (path: string, message: string) => problems.push({ path, message });
  const clients = new Set([...(current.clients ?? []), ...(desired.clients ?? [])].map((client) => foldName(client.name)));
  const teams = new Set([...(current.teams ?? []), ...(desired.teams ?? [])].map((team) => foldName(team.name)));
  const appRoles = new Map((current.apps ?? []).map((app) => [app.name, app.roles ?? []]));
  for (const app of desired.apps ?? []) appRoles.set(app.name, app.roles ?? appRoles.get(app.name) ?? []);
  const openInvites = new Map(current.invites?.map((invite) => [invite.email, new Set(invite.apps)]));
  const invitedHere = new Set(
    (desired.invites ?? []).filter((invite) => !users.has(invite.email) && !openInvites.has(invite.email)).map((invite) => invite.email),
  );
  const user = (path: string, email: string) => {
    if (!users.has(email)) at(path, `no user ${email}: they must exist on the portal`);
  };
  const team = (path: string, name: string) => {
    if (!teams.has(foldName(name))) at(path, `no team ${name}: add it to teams or create it first`);
  };
  const app = (path: string, name: string) => {
    if (!appRoles.has(name)) at(path, `no app ${name}: add it to apps or create it first`);
  };
  const future = (path: string, expires: string | undefined) => {
    if (expires !== undefined && Date.parse(expires) <= now) at(path, 'must be in the future');
  };

  desired.apps?.forEach((entry, index) => {
    entry.owners?.users?.forEach((email, i) => user(`apps[${index}].owners.users[${i}]`, email));
    entry.owners?.teams?.forEach((name, i) => team(`apps[${index}].owners.teams[${i}]`, name));
    if (entry.openid && entry.name === TOOLSCTL_CLIENT_ID) at(`apps[${index}].openid`, `${TOOLSCTL_CLIENT_ID} is the portal's built-in OpenID client`);
  });
  desired.teams?.forEach((entry, index) =>
    entry.members?.forEach((member, i) => {
      user(`teams[${index}].members[${i}].email`, member.email);
      future(`teams[${index}].members[${i}].expires`, member.expires);
    }),
  );
  desired.grants?.forEach((grant, index) => {
    app(`grants[${index}].app`, grant.app);
    if (grant.team !== undefined) team(`grants[${index}].team`, grant.team);
    future(`grants[${index}].expires`, grant.expires);
    const roles = appRoles.get(grant.app);
    if (roles && grant.role !== undefined && !roles.includes(grant.role)) {
      at(`grants[${index}].role`, roles.length === 0 ? `app ${grant.app} has no roles` : `must be one of ${grant.app}'s roles: ${roles.join(', ')}`);
    }
    if (grant.user === undefined || users.has(grant.user)) return;
    if (invitedHere.has(grant.user)) {
      if (grant.role !== undefined || grant.expires !== undefined)
        at(`grants[${index}]`, 'a grant riding on an invitation takes the default role and no expiry: leave out role and expires');
    } else if (openInvites.has(grant.user)) {
      if (!openInvites.get(grant.user)?.has(grant.app)) at(`grants[${index}].user`, `${grant.user}'s open invitation does not carry app ${grant.app}`);
    } else at(`grants[${index}].user`, `no user ${grant.user}: they must exist on the portal or be invited in this file (invites)`);
  });
  desired.invites?.forEach((invite, index) => {
    if (!clients.has(foldName(invite.client))) at(`invites[${index}].client`, `no client ${invite.client}: add it to clients or create it first`);
    invite.apps?.forEach((name, i) => app(`invites[${index}].apps[${i}]`, name));
  });
  return problems;
}

/** Replaces each icon path of the document by the digest of the file the CLI sent for it; `sha256:…` names one the portal has. */
function resolveIcons({
  desired,
  current,
  sent,
  icons,
}: {
  desired: SetupDocument;
  current: SetupDocument;
  sent: NonNullable<SetupPlanInput['icons']>;
  icons: Map<string, Buffer>;
}): SetupProblem[] {
  const problems: SetupProblem[] = [];
  const files = new Map(sent.map((icon) => [icon.path, Buffer.from(icon.data, 'base64')]));
  const known = new Set((current.apps ?? []).map((app) => app.icon).filter((icon) => icon !== undefined));
  desired.apps?.forEach((app, index) => {
    if (app.icon === undefined) return;
    const path = `apps[${index}].icon`;
    if (app.icon.startsWith('sha256:')) {
      if (!known.has(app.icon)) problems.push({ path, message: 'names no icon the portal has: give the file instead' });
      return;
    }
    const data = files.get(app.icon);
    if (!data) return problems.push({ path, message: `the file ${app.icon} was not sent with the document` });
    const check = checkIcon(data);
    if (!check.ok) return problems.push({ path, message: check.reason });
    app.icon = iconDigest(data);
    icons.set(app.icon, data);
  });
  return problems;
}
