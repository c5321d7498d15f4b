/**
 * Refused passkey assertions count toward the brute-force limits that wrong passwords and codes count
 * toward (docs/security.md, Password guessing): reserved before the check, so that a burst of
 * concurrent refused assertions gets at most the limit checked and the rest answer 429 at once, on
 * one instance and on two sharing the database. Challenges are in the database: a ceremony started
 * on one instance finishes on the other.
 */
import { describe, expect, it } from 'vitest';
import { addPasskey, authenticatorFor, call, forgedAssertion, json, signInOptions, validate } from './support/passkey-ceremony.js';
import { useTestPortal, useTwoPortals, type TestPortal } from './support/support.js';

const BURST = 30;

interface Answer {
  status: number;
  retryAfter: string | null;
}

/** Sends every assertion at once, spread over the portals; answers every status. */
async function burst(portals: TestPortal[], assertions: { response: unknown; MfaToken?: string }[]): Promise<Answer[]> {
  return Promise.all(
    assertions.map(async ({ response, MfaToken }, index) => {
      const answer = await validate(portals[index % portals.length], response, MfaToken);
      await answer.arrayBuffer();
      return { status: answer.status, retryAfter: answer.headers.get('retry-after') };
    }),
  );
}

/** Every answer is a check (401) or an immediate 429 with Retry-After; at most `limit` checks. */
function expectAtMostChecked(answers: Answer[], limit: number): void {
  const checked = answers.filter((answer) => answer.status !== 429);
  expect(checked.length).toBeLessThanOrEqual(limit);
  for (const answer of checked) expect(answer.status).toBe(401);
  for (const answer of answers.filter((each) => each.status === 429)) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
}

/** `count` forged assertions (another key's signature) for the credential, each to a challenge of its own. */
async function forgeries(portal: TestPortal, credentialId: string, count: number, MfaToken?: string) {
  const options = await Promise.all(Array.from({ length: count }, () => signInOptions(portal, MfaToken)));
  return options.map((each) => ({ response: forgedAssertion(portal, credentialId, each), MfaToken }));
}

const passwordLogin = (portal: TestPortal, email: string, password: string, cookie?: string) =>
  call(portal, 'POST', '/validatepassword', { body: { Email: email, Password: password }, cookie });

describe('refused passkeys and the per-email limit', () => {
  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '1000', PASSKEY_CHALLENGES_PER_ADDRESS: '1000' });

  it(`${BURST} concurrent forged assertions for one passkey check at most LOGIN_FAILURES_PER_EMAIL; then the right passkey and password answer 429`, async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    expectAtMostChecked(await burst([portal], await forgeries(portal, authenticator.id, BURST)), 5);
    const right = await validate(portal, authenticator.assert(await signInOptions(portal)));
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await passwordLogin(portal, user.email, user.password)).status).toBe(429);
    // Blocked attempts are one row a minute with a count, not a row each.
    const blocked = await portal.deps.db('auth_log').where({ user: user.email, type: 'login.blocked' }).select('count');
    expect(blocked.length).toBeGreaterThan(0);
    expect(blocked.length).toBeLessThanOrEqual(3);
    expect(blocked.reduce((sum, row) => sum + Number(row.count), 0)).toBeGreaterThanOrEqual(BURST - 5);
  });

  it('wrong passwords and refused passkeys share one limit; a good passkey gives its slot back', async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    for (let round = 0; round < 6; round++) expect((await validate(portal, authenticator.assert(await signInOptions(portal)))).status).toBe(200);
    for (let wrong = 0; wrong < 3; wrong++) expect((await passwordLogin(portal, user.email, 'wrong-password')).status).toBe(401);
    expectAtMostChecked(await burst([portal], await forgeries(portal, authenticator.id, 10)), 2);
    expect((await passwordLogin(portal, user.email, user.password)).status).toBe(429);
  });

  it(`${BURST} concurrent refused second factors on one pending sign-in check at most the limit`, async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    const pending = await json<{ mfa: { token: string } }>(await passwordLogin(portal, user.email, user.password), 200);
    const answers = await burst([portal], await forgeries(portal, authenticator.id, BURST, pending.mfa.token));
    // Past the fifth refusal the pending sign-in is void: those answer 401 without a check.
    for (const answer of answers) expect([401, 429]).toContain(answer.status);
    const refusals = await portal.deps.db('auth_log').where({ user: user.email, event: 'login failed: passkey refused' }).select('id');
    expect(refusals.length).toBeLessThanOrEqual(5);
    // They counted toward the email's limit: its password is refused now.
    expect((await passwordLogin(portal, user.email, user.password)).status).toBe(429);
  });

  it('refused passkeys from a browser that signed in to the account before count against it, not the email', async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    // The owner's browser: a password sign-in finished by the passkey leaves the device cookie.
    const pending = await json<{ mfa: { token: string } }>(await passwordLogin(portal, user.email, user.password), 200);
    const signedIn = await validate(portal, authenticator.assert(await signInOptions(portal, pending.mfa.token)), pending.mfa.token);
    expect(signedIn.status).toBe(200);
    const device = /portal_device=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')?.[1];
    expect(device).toBeDefined();
    expectAtMostChecked(await burst([portal], await forgeries(portal, authenticator.id, 10)), 5);
    const cookie = `portal_device=${device}`;
    const stranger = await validate(portal, authenticator.assert(await signInOptions(portal)));
    expect(stranger.status).toBe(429);
    const owner = await call(portal, 'POST', '/validatepasskey', { body: { response: authenticator.assert(await signInOptions(portal)) }, cookie });
    expect(owner.status).toBe(200);
  });
});

describe('refused passkeys and the per-address limit', () => {
  const portal = useTestPortal({ LOGIN_FAILURES_PER_ADDRESS: '20', PASSKEY_CHALLENGES_PER_ADDRESS: '1000' });

  it(`${BURST * 2} concurrent assertions of unknown passkeys check at most LOGIN_FAILURES_PER_ADDRESS; then a good passkey answers 429`, async () => {
    const user = await portal.createUser();
    const { authenticator } = await addPasskey(portal, user.token);
    const options = await signInOptions(portal);
    const strangers = Array.from({ length: BURST * 2 }, () => ({ response: authenticatorFor(portal).assert(options) }));
    expectAtMostChecked(await burst([portal], strangers), 20);
    expect((await validate(portal, authenticator.assert(await signInOptions(portal)))).status).toBe(429);
  });
});

describe('passkeys on two instances sharing a database', () => {
  // One PUBLIC_URL, as behind a load balancer: the passkey's origin and RP ID are the same on both.
  const { a, b } = useTwoPortals({ LOGIN_FAILURES_PER_ADDRESS: '1000', PASSKEY_CHALLENGES_PER_ADDRESS: '1000' }, { samePublicUrl: true });

  it('a challenge made on A is answered on B, once', async () => {
    const user = await a.createUser();
    const { authenticator } = await addPasskey(a, user.token);
    const answer = authenticator.assert(await signInOptions(a));
    const { accesstoken } = await json<{ accesstoken: string }>(await validate(b, answer), 200);
    expect((await a.client(accesstoken).users.me()).email).toBe(user.email);
    expect((await validate(a, answer)).status).toBe(401);
    // A pending sign-in made on B finishes on A with a challenge made on B.
    const pending = await json<{ mfa: { token: string } }>(await passwordLogin(b, user.email, user.password), 200);
    await json(await validate(a, authenticator.assert(await signInOptions(b, pending.mfa.token)), pending.mfa.token), 200);
  });

  it(`${BURST} concurrent forged assertions spread over A and B check at most the limit; then B answers 429`, async () => {
    const user = await a.createUser();
    const { authenticator } = await addPasskey(a, user.token);
    const made = [...(await forgeries(a, authenticator.id, BURST / 2)), ...(await forgeries(b, authenticator.id, BURST / 2))];
    // Each answered on the instance that did not make its challenge.
    const answers = await Promise.all(
      made.map(async ({ response }, index) => {
        const answer = await validate(index < BURST / 2 ? b : a, response);
        await answer.arrayBuffer();
        return { status: answer.status, retryAfter: answer.headers.get('retry-after') };
      }),
    );
    expectAtMostChecked(answers, 5);
    expect((await validate(b, authenticator.assert(await signInOptions(a)))).status).toBe(429);
  });
});
