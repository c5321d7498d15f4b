/**
 * Issue 25, point 14: different valid recovery codes racing for one pending sign-in. One wins
 * and makes a session; the loser's code is not used up (docs/security.md, A stolen password
 * alone): the code is used in the transaction that takes the pending sign-in, so a request that
 * finds it taken leaves its code as it was. On one instance and on two sharing the database.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, createTestDatabase, TEST_SECRET_KEY, testDialect, type TestDatabase } from './support/database.js';
import { spawnServer, type ServerProcess } from './support/processes.js';
import { enrol, pendingSignIn, sendCode } from './support/second-factor-steps.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startTestPortal, USER_PASSWORD, useTestPortal, useTwoPortals, type TestPortal } from './support/support.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LIMITS = { LOGIN_FAILURES_PER_ADDRESS: '1000', LOGIN_FAILURES_PER_EMAIL: '1000' };

const ROUNDS = 6;
/** Codes sent at once for one pending sign-in: two, and more to widen the race. */
const RACERS = 4;

const unusedCodes = async (portal: TestPortal, userId: number) =>
  Number(((await portal.deps.db('recovery_codes').where({ user_id: userId }).whereNull('used_at').count({ n: '*' }).first()) as { n: number | string }).n);

/** Each round: a pending sign-in, RACERS of the user's unused codes sent at once (spread over the portals). */
async function race(portals: TestPortal[]): Promise<void> {
  const [first] = portals;
  const { token, email, user } = await first.createUser();
  const { recoveryCodes } = await enrol(first, token);
  const codes = [...recoveryCodes];
  for (let round = 0; round < ROUNDS; round++) {
    const before = await unusedCodes(first, user.id);
    const pending = await pendingSignIn(first, email, USER_PASSWORD);
    const sent = codes.splice(0, RACERS);
    const answers = await Promise.all(sent.map((code, index) => sendCode(portals[index % portals.length], pending.token, code)));
    const statuses = answers.map((answer) => answer.status).sort();
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    expect(statuses).toEqual([200, ...Array(RACERS - 1).fill(401)]);
    // Only the winner's code is used up; the losers' are put back at the end of the list.
    expect(await unusedCodes(first, user.id)).toBe(before - 1);
    const losers = sent.filter((_, index) => answers[index].status !== 200);
    codes.push(...losers);
    const loser = losers[0];
    if (round === ROUNDS - 1) {
      // The loser's code still signs in.
      const again = await pendingSignIn(first, email, USER_PASSWORD);
      expect((await sendCode(first, again.token, loser)).status).toBe(200);
    }
  }
  // One `recovery.use` entry per sign-in made.
  const uses = await first.deps.db('auth_log').where({ user: email, type: 'recovery.use' }).count({ n: '*' }).first();
  expect(Number((uses as { n: number | string }).n)).toBe(ROUNDS + 1);
}

describe('racing recovery codes', () => {
  const portal = useTestPortal(LIMITS);
  it('on one instance: one wins, the loser keeps its code', async () => {
    await race([portal]);
  }, 60_000);
});

describe('racing recovery codes on two instances sharing the database', () => {
  const { a, b } = useTwoPortals(LIMITS);
  it('one wins, the loser keeps its code', async () => {
    await race([a, b]);
  }, 60_000);
});

// In one process a request runs from its first query to its answer without yielding to the next
// (better-sqlite3 answers at once): two processes really interleave, on SQLite too.
describe('racing recovery codes on an instance and a server process sharing the database', () => {
  let database: TestDatabase | undefined;
  let portal: TestPortal | undefined;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'packages/core', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
    database = testDialect() === 'postgres' ? { dialect: 'postgres', ...(await createPostgresDatabase()) } : createTestDatabase('sqlite');
    portal = await startTestPortal(LIMITS, { database });
    server = await spawnServer({ DATABASE_URL: database.url, ADMIN_EMAIL, ADMIN_PASSWORD, WEB_ROOT: '', SECRET_KEY: TEST_SECRET_KEY, ...LIMITS }, 30_000);
  }, 120_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null) await server.kill();
    await portal?.close();
    await database?.drop();
  });

  it('one wins, the loser keeps its code', async () => {
    const other = { fetch: (pathname: string, init?: RequestInit) => fetch(`${server!.url}${pathname}`, init) } as TestPortal;
    await race([portal!, other]);
  }, 60_000);
});
