import { describe, expect, it } from 'vitest';
import { AuthCache, ExpiringMap, TtlMap } from '../src/services/access/auth-cache.js';
import { createApp, useTestPortal } from './support/support.js';

const portal = useTestPortal();

const TTL = 5000;

/** A cache over the test portal's real database, on a clock the test moves. */
function cacheWithClock(ttlMs = TTL, maxEntries?: number) {
  const clock = { now: 1_000_000 };
  const cache = new AuthCache(portal.deps.db, portal.deps.config, { ttlMs, now: () => clock.now, maxEntries });
  return { cache, clock };
}

function countQueries() {
  const queries: string[] = [];
  const listener = (query: { sql: string }) => queries.push(query.sql);
  portal.deps.db.on('query', listener);
  return { queries, stop: () => portal.deps.db.removeListener('query', listener) };
}

describe('AuthCache', () => {
  it('keeps a session for the lifetime, then sees that it ended (another instance ended it)', async () => {
    const { token, user } = await portal.createUser();
    const { cache, clock } = cacheWithClock();
    expect((await cache.principal(token))?.user.email).toBe(user.email);
    await portal.deps.db('sessions').where({ user_id: user.id }).delete();
    clock.now += TTL - 1;
    expect((await cache.principal(token))?.user.email).toBe(user.email);
    clock.now += 1;
    expect(await cache.principal(token)).toBeNull();
  });

  it('keeps grants and the app list for the lifetime, then reads them again', async () => {
    const app = await createApp(portal.admin);
    const { user } = await portal.createUser({ apps: [app] });
    const { cache, clock } = cacheWithClock();
    expect([...(await cache.accessOf(user.id)).apps.keys()]).toEqual([app.id]);
    expect((await cache.apps()).named(app.name)?.id).toBe(app.id);
    await portal.deps.db('user_apps').where({ user_id: user.id }).delete();
    await portal.deps.db('apps').where({ id: app.id }).delete();
    clock.now += TTL - 1;
    expect([...(await cache.accessOf(user.id)).apps.keys()]).toEqual([app.id]);
    expect((await cache.apps()).named(app.name)).toBeDefined();
    clock.now += 1;
    expect([...(await cache.accessOf(user.id)).apps.keys()]).toEqual([]);
    expect((await cache.apps()).named(app.name)).toBeUndefined();
  });

  it('forgets everything on clear()', async () => {
    const { token, user } = await portal.createUser();
    const { cache } = cacheWithClock();
    expect(await cache.principal(token)).not.toBeNull();
    await portal.deps.db('sessions').where({ user_id: user.id }).delete();
    cache.clear();
    expect(cache.size).toBe(0);
    expect(await cache.principal(token)).toBeNull();
  });

  it('serves hits without a query, and concurrent misses with one lookup', async () => {
    const { token, user } = await portal.createUser();
    // A commit, so that the session is not among the reads db/direct-reads.ts remembers either.
    await portal.deps.db('sessions').where({ user_id: user.id }).update({ last_seen_at: Date.now() });
    const { cache } = cacheWithClock();
    const counter = countQueries();
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => cache.principal(token)));
      expect(new Set(answers).size).toBe(1);
      const lookups = counter.queries.length;
      expect(lookups).toBe(1);
      await cache.principal(token);
      await cache.principal(token);
      expect(counter.queries.length).toBe(lookups);
    } finally {
      counter.stop();
    }
  });

  it('remembers unknown tokens too, within a bounded number of entries', async () => {
    const { cache } = cacheWithClock(TTL, 3);
    const counter = countQueries();
    try {
      expect(await cache.principal('unknown-token')).toBeNull();
      const lookups = counter.queries.length;
      expect(await cache.principal('unknown-token')).toBeNull();
      expect(counter.queries.length).toBe(lookups);
    } finally {
      counter.stop();
    }
    for (let i = 0; i < 10; i++) await cache.principal(`flood-${i}`);
    expect(cache.size).toBe(3);
  });

  it('with a lifetime of 0 always asks the database', async () => {
    const { token, user } = await portal.createUser();
    const { cache } = cacheWithClock(0);
    expect(await cache.principal(token)).not.toBeNull();
    await portal.deps.db('sessions').where({ user_id: user.id }).delete();
    expect(await cache.principal(token)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('does not keep a failed lookup', async () => {
    const map = new TtlMap<string, number>(TTL, () => 0);
    await expect(map.get('k', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(map.size).toBe(0);
    expect(await map.get('k', async () => 42)).toBe(42);
    expect(await map.get('k', async () => 43)).toBe(42);
  });

  it("shortens an entry made of an older one to that one's life (cap), never lengthens it", async () => {
    const clock = { now: 0 };
    const map = new TtlMap<string, number>(TTL, () => clock.now);
    await map.get('k', async () => 1);
    expect(map.expiryOf('k')).toBe(TTL);
    map.cap('k', TTL + 1000);
    expect(map.expiryOf('k')).toBe(TTL);
    map.cap('k', 2000);
    expect(map.expiryOf('k')).toBe(2000);
    clock.now = 2000;
    expect(map.expiryOf('k')).toBeUndefined();
    expect(await map.get('k', async () => 2)).toBe(2);
    // What it was made of is no longer held: the entry goes.
    map.cap('k', undefined);
    expect(map.size).toBe(0);
  });
});

describe('ExpiringMap', () => {
  it('keeps a value until the time given with it, and a bounded number of them', () => {
    const clock = { now: 0 };
    const map = new ExpiringMap<string, string>(() => clock.now, 2);
    map.set('a', 'A', 1000);
    map.set('late', 'L', 0);
    expect(map.get('late')).toBeUndefined();
    clock.now = 999;
    expect(map.get('a')).toBe('A');
    clock.now = 1000;
    expect(map.get('a')).toBeUndefined();
    expect(map.size).toBe(0);
    map.set('b', 'B', 5000);
    map.set('c', 'C', 5000);
    map.set('d', 'D', 5000);
    expect([map.get('b'), map.get('c'), map.get('d')]).toEqual([undefined, 'C', 'D']);
    map.clear();
    expect(map.size).toBe(0);
  });
});
