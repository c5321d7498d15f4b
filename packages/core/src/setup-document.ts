/**
 * The portal's setup as a file (docs/cli.md, "The portal's setup as a file"): one document of
 * clients, apps, teams, grants and invitations, checked here with the API's own rules, and the plan
 * that makes a portal look like it. The server exports its state as such a document and plans by
 * comparing the two; `toolsctl plan` and `apply` send the document.
 *
 * A field left out of an entry is left as the portal has it (write `description: ''` to empty one);
 * an entry left out of a list is kept unless the plan prunes.
 */
import { z } from 'zod';
import { ADMIN_CLIENT_NAME } from './permissions.js';
import { oidcClientInput } from './oidc.js';
import { appInput, clientName, email, foldName, isoTimeText, MAX_APP_ROLES, MAX_TEXT_LENGTH, role, teamName } from './validation.js';

export const SETUP_VERSION = 1;

// Times stay as written (ISO 8601): the plan compares them as instants, the server checks they lie ahead.
const time = isoTimeText;

const description = z.string({ error: 'must be a string' }).max(MAX_TEXT_LENGTH, { error: `must be at most ${MAX_TEXT_LENGTH} characters` });
const names = <T extends z.ZodType>(item: T) => z.array(item, { error: 'must be a list' }).max(10_000, { error: 'must hold at most 10000 entries' });

const appFields = appInput.shape;
const setupApp = z.strictObject({
  name: appFields.name,
  url: appFields.url,
  description: appFields.description.unwrap().optional(),
  doclink: appFields.doclink.unwrap().optional(),
  category: appFields.category.unwrap().optional(),
  requestable: appFields.requestable.unwrap().optional(),
  roles: z
    .array(role, { error: 'must be a list of roles' })
    .max(MAX_APP_ROLES, { error: `must hold at most ${MAX_APP_ROLES} roles` })
    .optional(),
  owners: z.strictObject({ users: names(email).optional(), teams: names(teamName).optional() }).optional(),
  /** A PNG or WebP file beside the document; the CLI sends its content (`sha256:…` names what the portal has). */
  icon: z.string({ error: 'must be a file path' }).min(1).max(4096).optional(),
  openid: z
    .strictObject({
      redirect_uris: oidcClientInput.shape.redirect_uris,
      post_logout_redirect_uris: oidcClientInput.shape.post_logout_redirect_uris.unwrap().optional(),
      public: z.boolean({ error: 'must be true or false' }).optional(),
      device: z.boolean({ error: 'must be true or false' }).optional(),
    })
    .optional(),
});

const setupGrant = z.strictObject({
  app: appFields.name,
  user: email.optional(),
  team: teamName.optional(),
  role: role.optional(),
  expires: time.optional(),
});

export const setupDocument = z.strictObject({
  version: z.literal(SETUP_VERSION, { error: `must be ${SETUP_VERSION}` }),
  clients: names(z.strictObject({ name: clientName })).optional(),
  apps: names(setupApp).optional(),
  teams: names(
    z.strictObject({
      name: teamName,
      description: description.optional(),
      members: names(z.strictObject({ email, expires: time.optional() })).optional(),
    }),
  ).optional(),
  grants: names(setupGrant).optional(),
  invites: names(z.strictObject({ email, client: clientName, apps: names(appFields.name).optional() })).optional(),
});

export type SetupDocument = z.output<typeof setupDocument>;
export type SetupApp = z.output<typeof setupApp>;
export type SetupGrant = z.output<typeof setupGrant>;

/** A problem with a document, at its place in the file: `apps[3].url`. */
export interface SetupProblem {
  path: string;
  message: string;
}

export function setupPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

/** The JSON Schema of a document (served for editors at `/api/auth/v1/config.schema.json`). */
export function setupJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(setupDocument, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
    title: 'Tools-Portal setup',
  };
}

/** Every problem of a document at once (shape first; then names given twice and references within it), or the document. */
export function checkSetupDocument(input: unknown): { document: SetupDocument; problems: [] } | { document?: undefined; problems: SetupProblem[] } {
  const parsed = setupDocument.safeParse(input);
  if (!parsed.success) return { problems: parsed.error.issues.map((issue) => ({ path: setupPath(issue.path) || '(document)', message: issue.message })) };
  const problems = crossProblems(parsed.data);
  return problems.length > 0 ? { problems } : { document: parsed.data, problems: [] };
}

function crossProblems(document: SetupDocument): SetupProblem[] {
  const problems: SetupProblem[] = [];
  const twice = <T>(where: string, list: readonly T[] | undefined, { key, what }: { key: (item: T) => string; what: (item: T) => string }) => {
    const seen = new Map<string, number>();
    list?.forEach((item, index) => {
      const k = key(item);
      const first = seen.get(k);
      if (first === undefined) seen.set(k, index);
      else problems.push({ path: `${where}[${index}]`, message: `${what(item)} is already at ${where}[${first}]` });
    });
  };
  twice('clients', document.clients, { key: (client) => foldName(client.name), what: (client) => `client ${client.name}` });
  twice('apps', document.apps, { key: (app) => app.name, what: (app) => `app ${app.name}` });
  twice('teams', document.teams, { key: (team) => foldName(team.name), what: (team) => `team ${team.name}` });
  twice('invites', document.invites, { key: (invite) => invite.email, what: (invite) => `an invitation of ${invite.email}` });
  twice('grants', document.grants, { key: grantKey, what: (grant) => `the grant ${grantName(grant)}` });
  document.clients?.forEach(({ name }, index) => {
    if (name !== ADMIN_CLIENT_NAME && foldName(name) === foldName(ADMIN_CLIENT_NAME)) {
      problems.push({ path: `clients[${index}].name`, message: `is too close to ${ADMIN_CLIENT_NAME}, the admins' client` });
    }
  });
  document.teams?.forEach((team, index) => {
    twice(`teams[${index}].members`, team.members, { key: (member) => member.email, what: (member) => `member ${member.email}` });
  });
  document.apps?.forEach((app, index) => twice(`apps[${index}].roles`, app.roles, { key: (role) => role, what: (role) => `role ${role}` }));
  const appsInFile = new Map(document.apps?.map((app) => [app.name, app]));
  document.grants?.forEach((grant, index) => {
    if ((grant.user === undefined) === (grant.team === undefined)) problems.push({ path: `grants[${index}]`, message: 'must name either a user or a team' });
    const app = appsInFile.get(grant.app);
    if (app?.roles === undefined) return;
    if (grant.role !== undefined && !app.roles.includes(grant.role)) {
      problems.push({
        path: `grants[${index}].role`,
        message: app.roles.length === 0 ? `app ${app.name} has no roles` : `must be one of ${app.name}'s roles: ${app.roles.join(', ')}`,
      });
    }
  });
  return problems;
}

const grantKey = (grant: SetupGrant) => `${grant.app}\u0000${grant.user !== undefined ? `user\u0000${grant.user}` : `team\u0000${foldName(grant.team ?? '')}`}`;

/** How a plan names a grant: `grafana: alice@example.com`, `grafana: team Ops`. */
export function grantName(grant: Pick<SetupGrant, 'app' | 'user' | 'team'>): string {
  return `${grant.app}: ${grant.user ?? `team ${grant.team}`}`;
}

/** How a plan names a membership: `Ops: alice@example.com`. */
export function membershipName(team: string, member: string): string {
  return `${team}: ${member}`;
}

export type SetupKind = 'client' | 'app' | 'team' | 'membership' | 'grant' | 'invite';

/** One line of a plan: `+` add, `~` change one field (from → to), `-` remove. */
export interface SetupChange {
  op: '+' | '~' | '-';
  kind: SetupKind;
  name: string;
  field?: string;
  from?: unknown;
  to?: unknown;
}

export interface PlanOptions {
  /** Remove the apps, clients, teams, memberships and grants that the document leaves out. */
  prune?: boolean;
  /** Whoever applies: their grants and memberships are never pruned. */
  callerEmail?: string;
}

/**
 * The changes that make `current` (the portal, exported as a document with every field) look like
 * `desired`, in the order they are applied: clients, teams, apps, memberships, grants, invitations,
 * then removals. Users and invitations are never removed, nor the Admin client.
 */
export function planSetup(current: SetupDocument, desired: SetupDocument, options: PlanOptions = {}): SetupChange[] {
  return planSetupSteps(current, desired, options).map((step) => step.change);
}

/** What a change is about, by the names the document uses (the server applies a plan by these). */
export type SetupRef =
  | { kind: 'client'; client: string }
  | { kind: 'team'; team: string; was?: string }
  | { kind: 'app'; app: string }
  | { kind: 'membership'; team: string; email: string }
  | { kind: 'grant'; app: string; user?: string; team?: string }
  | { kind: 'invite'; email: string };

export interface SetupStep {
  change: SetupChange;
  ref: SetupRef;
}

/** `planSetup` with what each change is about. */
export function planSetupSteps(current: SetupDocument, desired: SetupDocument, options: PlanOptions = {}): SetupStep[] {
  const steps: SetupStep[] = [];
  const removals: SetupStep[] = [];
  const prune = options.prune === true;
  const add = (ref: SetupRef, change: Omit<SetupChange, 'kind'>) => steps.push({ ref, change: { ...change, kind: ref.kind } as SetupChange });
  const field = (ref: SetupRef, change: FieldChange) => fieldChange(steps, ref, change);
  const remove = (ref: SetupRef, name: string) => removals.push({ ref, change: { op: '-', kind: ref.kind, name } });

  const currentClients = new Map(current.clients?.map((client) => [foldName(client.name), client]));
  for (const client of desired.clients ?? [])
    if (!currentClients.has(foldName(client.name))) add({ kind: 'client', client: client.name }, { op: '+', name: client.name });

  const currentTeams = new Map(current.teams?.map((team) => [foldName(team.name), team]));
  for (const team of desired.teams ?? []) {
    const before = currentTeams.get(foldName(team.name));
    if (!before) add({ kind: 'team', team: team.name }, { op: '+', name: team.name, ...(team.description ? { to: { description: team.description } } : {}) });
    else {
      const ref: SetupRef = { kind: 'team', team: team.name, was: before.name };
      if (before.name !== team.name) add(ref, { op: '~', name: before.name, field: 'name', from: before.name, to: team.name });
      field(ref, { name: team.name, field: 'description', from: before.description ?? '', to: team.description });
    }
  }

  const currentApps = new Map(current.apps?.map((app) => [app.name, app]));
  for (const app of desired.apps ?? []) {
    const before = currentApps.get(app.name);
    const ref: SetupRef = { kind: 'app', app: app.name };
    if (!before) {
      add(ref, { op: '+', name: app.name, to: withoutName(app) });
      continue;
    }
    for (const name of APP_FIELDS) field(ref, { name: app.name, field: name, from: before[name] ?? APP_DEFAULTS[name], to: app[name] });
    field(ref, { name: app.name, field: 'owners', from: sortedOwners(before.owners), to: app.owners && sortedOwners(app.owners) });
    field(ref, { name: app.name, field: 'openid', from: before.openid ?? null, to: app.openid && { ...OPENID_DEFAULTS, ...before.openid, ...app.openid } });
  }

  for (const team of desired.teams ?? []) {
    const before = currentTeams.get(foldName(team.name));
    const members = new Map(before?.members?.map((member) => [member.email, member]));
    for (const member of team.members ?? []) {
      const was = members.get(member.email);
      const name = membershipName(team.name, member.email);
      const ref: SetupRef = { kind: 'membership', team: team.name, email: member.email };
      if (!was) add(ref, { op: '+', name, ...(member.expires ? { to: { expires: member.expires } } : {}) });
      else field(ref, { name, field: 'expires', from: was.expires ?? null, to: member.expires ?? null, same: sameTime });
    }
    if (prune && before) {
      const kept = new Set(team.members?.map((member) => member.email));
      for (const member of before.members ?? []) {
        if (!kept.has(member.email) && member.email !== options.callerEmail)
          remove({ kind: 'membership', team: before.name, email: member.email }, membershipName(before.name, member.email));
      }
    }
  }

  const currentGrants = new Map(current.grants?.map((grant) => [grantKey(grant), grant]));
  for (const grant of desired.grants ?? []) {
    const before = currentGrants.get(grantKey(grant));
    const name = grantName(grant);
    const ref = grantRef(grant);
    if (!before) {
      const to = { ...(grant.role ? { role: grant.role } : {}), ...(grant.expires ? { expires: grant.expires } : {}) };
      add(ref, { op: '+', name, ...(Object.keys(to).length > 0 ? { to } : {}) });
    } else {
      field(ref, { name, field: 'role', from: before.role ?? null, to: grant.role });
      field(ref, { name, field: 'expires', from: before.expires ?? null, to: grant.expires ?? null, same: sameTime });
    }
  }

  const invited = new Set(current.invites?.map((invite) => invite.email));
  for (const invite of desired.invites ?? []) {
    if (!invited.has(invite.email))
      add({ kind: 'invite', email: invite.email }, { op: '+', name: invite.email, to: { client: invite.client, apps: invite.apps ?? [] } });
  }

  if (prune) {
    const wanted = new Set(desired.grants?.map(grantKey));
    for (const grant of current.grants ?? []) {
      if (!wanted.has(grantKey(grant)) && grant.user !== options.callerEmail) remove(grantRef(grant), grantName(grant));
    }
    const wantedTeams = new Set(desired.teams?.map((team) => foldName(team.name)));
    for (const team of current.teams ?? []) if (!wantedTeams.has(foldName(team.name))) remove({ kind: 'team', team: team.name }, team.name);
    const wantedApps = new Set(desired.apps?.map((app) => app.name));
    for (const app of current.apps ?? []) if (!wantedApps.has(app.name)) remove({ kind: 'app', app: app.name }, app.name);
    const wantedClients = new Set(desired.clients?.map((client) => foldName(client.name)));
    for (const client of current.clients ?? []) {
      if (client.name !== ADMIN_CLIENT_NAME && !wantedClients.has(foldName(client.name))) remove({ kind: 'client', client: client.name }, client.name);
    }
  }
  return [...steps, ...removals];
}

const grantRef = (grant: SetupGrant): SetupRef =>
  grant.user !== undefined ? { kind: 'grant', app: grant.app, user: grant.user } : { kind: 'grant', app: grant.app, team: grant.team };

const APP_FIELDS = ['url', 'description', 'doclink', 'category', 'requestable', 'roles', 'icon'] as const;
const APP_DEFAULTS: { [K in (typeof APP_FIELDS)[number]]: unknown } = {
  url: '',
  description: '',
  doclink: '',
  category: '',
  requestable: false,
  roles: [],
  icon: null,
};
const OPENID_DEFAULTS = { post_logout_redirect_uris: [], public: false, device: false };

// Owners are sets: their order in a file means nothing.
function sortedOwners(owners: SetupApp['owners']): { users: string[]; teams: string[] } {
  return { users: [...(owners?.users ?? [])].sort(), teams: [...(owners?.teams ?? [])].sort((a, b) => (foldName(a) < foldName(b) ? -1 : 1)) };
}

function withoutName(app: SetupApp): Omit<SetupApp, 'name'> {
  const { name: _name, ...rest } = app;
  return rest;
}

function sameTime(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' ? Date.parse(a) === Date.parse(b) : a === b;
}

interface FieldChange {
  name: string;
  field: string;
  from: unknown;
  to: unknown;
  same?: (a: unknown, b: unknown) => boolean;
}

/** A `~` when the document gives the field (`to` not undefined) and it differs from what the portal has. */
function fieldChange(steps: SetupStep[], ref: SetupRef, { name, field, from, to, same = sameValue }: FieldChange): void {
  if (to === undefined || same(from, to)) return;
  steps.push({ ref, change: { op: '~', kind: ref.kind, name, field, from, to } });
}

/** Equal as JSON, the keys of objects in any order. */
function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** JSON with object keys sorted: the same value, the same text (a plan's hash is taken over it). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An icon the CLI read beside the document: `path` as the document writes it, the file's bytes in base64. */
const setupIcon = z.object({
  path: z.string({ error: 'must be a file path' }).min(1).max(4096),
  data: z.base64({ error: 'must be base64' }).max(400_000, { error: 'must be an icon of at most 256 KB' }),
});

/** `POST /config/plan`: the parsed file (checked by the server, every problem at its path), with its icons. */
export const setupPlanInput = z.object({
  document: z.unknown(),
  prune: z.boolean({ error: 'must be true or false' }).optional(),
  icons: z.array(setupIcon, { error: 'must be a list of {path, data}' }).max(2000).optional(),
});
export type SetupPlanInput = z.input<typeof setupPlanInput>;

/** `POST /config/apply`: with `expect`, a plan's hash: anything else is applied only if it is that plan. */
export const setupApplyInput = setupPlanInput.extend({
  expect: z
    .string({ error: 'must be a plan hash' })
    .regex(/^[0-9a-f]{64}$/, { error: 'must be a plan hash (64 hex digits)' })
    .optional(),
});
export type SetupApplyInput = z.input<typeof setupApplyInput>;

export const setupChangeAnswer = z.strictObject({
  op: z.enum(['+', '~', '-']),
  kind: z.enum(['client', 'app', 'team', 'membership', 'grant', 'invite']),
  name: z.string(),
  field: z.string().optional(),
  from: z.unknown().optional(),
  to: z.unknown().optional(),
});

export const setupPlanAnswer = z.strictObject({
  changes: z.array(setupChangeAnswer),
  hash: z.string().describe("SHA-256 (hex) of the changes as core's `canonical` JSON"),
});
export type SetupPlan = z.infer<typeof setupPlanAnswer>;

export const setupApplyAnswer = setupPlanAnswer.extend({
  secrets: z.array(z.strictObject({ app: z.string(), client_id: z.string(), client_secret: z.string() })).describe('the new OpenID client secrets, shown once'),
});
export type SetupApplied = z.infer<typeof setupApplyAnswer>;

/** `GET /config`: the portal as a document (every field; icons as `sha256:…`), with those icons' bytes. */
export const setupExportAnswer = z.strictObject({
  document: setupDocument,
  icons: z.array(z.strictObject({ path: z.string(), type: z.string(), data: z.string() })),
});
export type SetupExport = z.infer<typeof setupExportAnswer>;
