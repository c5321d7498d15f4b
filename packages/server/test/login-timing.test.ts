/**
 * User enumeration by timing (docs/security.md): an unknown email and a wrong password do the same
 * scrypt work whatever the parameters a stored hash was made with. Measured as work done (the
 * hasher's count of scrypt work, in units of N), not as wall time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../src/services/sign-in/passwords.js';
import { createTestDatabase } from './support/database.js';
import { startTestPortal, unique, type TestPortal } from './support/support.js';

/** The scrypt work one failed login costs the portal. */
async function workOf(portal: TestPortal, email: string): Promise<number> {
  const before = portal.deps.hasher.work;
  const response = await portal.fetch('/api/auth/v1/validatepassword', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: email, Password: 'not-the-password' }),
  });
  expect(response.status).toBe(401);
  return portal.deps.hasher.work - before;
}

/** Gives a user a password hash made at another cost, as after a change of SCRYPT_LOGN. */
async function rehashAt(portal: TestPortal, email: string, logN: number): Promise<void> {
  const hash = await new PasswordHasher(logN).hash('an-old-password');
  await portal.deps.db('users').where({ email }).update({ password_hash: hash });
}

describe('after SCRYPT_LOGN changes', () => {
  const database = createTestDatabase();
  const portals: TestPortal[] = [];
  afterAll(async () => {
    for (const portal of portals) await portal.close();
    await database.drop();
  });
  const start = async (logN: number) => {
    const portal = await startTestPortal({ SCRYPT_LOGN: String(logN), LOGIN_FAILURES_PER_ADDRESS: '1000' }, { database });
    portals.push(portal);
    return portal;
  };

  it('a wrong password for a cheaper (older) hash costs what an unknown email costs', async () => {
    const portal = await start(11);
    const { email } = await portal.createUser();
    await rehashAt(portal, email, 10);
    const unknown = await workOf(portal, `${unique('nobody')}@example.com`);
    expect(unknown).toBe(2 ** 11);
    expect(await workOf(portal, email)).toBe(unknown);
  });

  it('with a costlier stored hash, every failure costs that much: unknown email, cheap hash, current hash', async () => {
    const first = await start(11);
    const costly = (await first.createUser()).email;
    const cheap = (await first.createUser()).email;
    const current = (await first.createUser()).email;
    await rehashAt(first, costly, 12);
    await rehashAt(first, cheap, 10);
    // A portal started now reads the costliest stored hash at start.
    const portal = await start(11);
    const unknown = await workOf(portal, `${unique('nobody')}@example.com`);
    expect(unknown).toBe(2 ** 12);
    for (const email of [costly, cheap, current]) expect(await workOf(portal, email)).toBe(unknown);
  });

  it('a hash of other parameters is re-made at the current cost at the next successful login', async () => {
    const portal = await start(11);
    const { email, password } = await portal.createUser();
    const hash = await new PasswordHasher(10).hash(password);
    await portal.deps.db('users').where({ email }).update({ password_hash: hash });
    await portal.login(email, password);
    const { password_hash: stored } = await portal.deps.db('users').where({ email }).first('password_hash');
    expect(Buffer.from(stored, 'base64').readUInt8(7)).toBe(11);
  });
});
