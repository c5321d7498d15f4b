/**
 * The fixtures format `toolsctl seed` reads and `toolsctl export` writes (docs/cli.md):
 * resources by natural key, so a file moves between portals whose ids differ.
 */
import fs from 'node:fs';
import { appInput, appUpdate, clientInput, clientNameConflict, email, foldName, role, teamName, z } from '@tools-portal/core';
import { UsageError } from './exit-codes.js';

// Entries are checked with the server's own rules, so a bad value stops seed before any change.
const name = z.string().min(1, { error: 'must not be empty' });
const appNames = z.array(name).default([]);
/** The role of a grant per app name, where it is not the app's default. */
const rolesByApp = z.record(z.string(), role).optional();

/** An app's owners by natural key: users by email, teams by name. */
const owners = z.object({ users: z.array(email).default([]), teams: z.array(name).default([]) }).strict();

const fixturesSchema = z
  .object({
    description: z.string().optional(),
    clients: z.array(clientInput.strict()).default([]),
    // Files from before descriptionDe load as they are: without it, seed leaves an app's German description alone.
    apps: z.array(appInput.omit({ owners: true }).extend({ owners: owners.optional(), descriptionDe: appUpdate.shape.descriptionDe }).strict()).default([]),
    /** Users with a password are created with it; without, seed makes one up and prints it once. */
    users: z.array(z.object({ email, client: name, password: z.string().optional(), apps: appNames, roles: rolesByApp }).strict()).default([]),
    invites: z.array(z.object({ email, client: name, apps: appNames }).strict()).default([]),
    /** Teams with their members (emails) and apps (names), the apps' roles where not the default. */
    teams: z
      .array(
        z
          .object({
            name: teamName,
            description: z.string().default(''),
            members: z.array(email).default([]),
            apps: appNames,
            roles: rolesByApp,
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

export type Fixtures = z.output<typeof fixturesSchema>;
export type FixturesInput = z.input<typeof fixturesSchema>;

export function readFixtures(file: string): Fixtures {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = fixturesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${file}: ${issue.path.map(String).join('.') || 'file'}: ${issue.message}`);
  }
  const fixtures = parsed.data;
  const duplicate = (list: string[]) => list.find((item, index) => list.indexOf(item) !== index);
  const checks: Array<[string, string | undefined]> = [
    ['client', duplicate(fixtures.clients.map((client) => client.name))],
    ['app', duplicate(fixtures.apps.map((app) => app.name))],
    ['user or invite email', duplicate([...fixtures.users, ...fixtures.invites].map((entry) => entry.email))],
    ['team', duplicate(fixtures.teams.map((team) => foldName(team.name)))],
  ];
  for (const [what, value] of checks) if (value !== undefined) throw new UsageError(`${file}: ${what} ${value} appears twice`);
  fixtures.clients.forEach(({ name }, index) => {
    const lookalike = clientNameConflict(name);
    if (lookalike) throw new UsageError(`${file}: clients.${index}.name: ${lookalike.message}`);
  });
  return fixtures;
}
