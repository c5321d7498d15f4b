/**
 * Password hashing runs in its own bounded pool (docs/security.md): logins past the queue bound
 * answer 503 with Retry-After at once, and other requests are answered while hashes are pending.
 * Real scrypt at logN 16 keeps the hashes pending long enough to look.
 */
import { describe, expect, it } from 'vitest';
import { unique, useTestPortal } from './support/support.js';

const portal = useTestPortal({
  SCRYPT_LOGN: '16',
  PASSWORD_HASH_CONCURRENCY: '1',
  PASSWORD_HASH_QUEUE: '2',
  LOGIN_FAILURES_PER_ADDRESS: '1000',
});

function login(): Promise<Response> {
  return portal.fetch('/api/auth/v1/validatepassword', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: `${unique('nobody')}@example.com`, Password: 'a-wrong-password' }),
  });
}

describe('the password-hashing pool', () => {
  it('answers 503 with Retry-After, without hashing, to logins past the queue bound; the others are checked', async () => {
    // One runs, two wait; the next two find the queue full. Each reaches the pool before the first hash ends.
    const first = login();
    while (portal.deps.hasher.pool.pending < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    const rest = [login(), login(), login(), login()];
    const answers = await Promise.all([first, ...rest]);
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses).toEqual([401, 401, 401, 503, 503]);
    for (const response of answers.filter((r) => r.status === 503)) {
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    }
    expect(portal.deps.hasher.pool.pending).toBe(0);
  });

  it('answers /healthz and the API while hashes are still pending', async () => {
    let settled = 0;
    const logins = [login(), login(), login()].map((call) => call.finally(() => settled++));
    while (portal.deps.hasher.pool.pending < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const health = await portal.fetch('/healthz');
    expect(health.status).toBe(200);
    expect((await portal.admin.users.me()).email).toBeTruthy();
    // Answered while the pool was still busy: not after the logins.
    expect(settled).toBe(0);
    expect(portal.deps.hasher.pool.pending).toBeGreaterThan(0);
    await Promise.all(logins);
  });
});
