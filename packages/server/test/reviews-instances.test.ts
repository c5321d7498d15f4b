/**
 * Two instances on one database close the same due access review (docs/reviews.md): the close is
 * one conditional UPDATE, so it happens once: one close entry, each grant removed and logged once.
 */
import { describe, expect, it } from 'vitest';
import { closeReview, runReviewJob } from '../src/services/reviews/review-close.js';
import { testDialect } from './support/database.js';
import { unique, useTwoPortals } from './support/support.js';

const { a, b } = useTwoPortals();

describe('a due review on two instances', () => {
  it('is closed once, each removal done and logged once', async () => {
    const app = await a.admin.apps.create({ name: unique('due'), url: `https://${unique('due')}.example.com/` });
    const users = await Promise.all([a.createUser(), a.createUser(), a.createUser()]);
    for (const user of users) await a.admin.users.grant(user.user.id, app.id);
    const review = await a.admin.reviews.start({
      name: unique('twice'),
      apps: [app.id],
      reviewers: 'admins',
      due: new Date(Date.now() + 3_600_000).toISOString(),
      whenMissed: 'revoke',
    });
    const now = Date.parse(review.due) + 1;
    const jobs = [a, b, a].map((portal) => () => runReviewJob(portal.deps.db, { policy: portal.deps.config, now }));
    // PostgreSQL: a real race. SQLite: both instances live in this one process, where
    // better-sqlite3 waits for the other's write lock synchronously (blocking that other too), so
    // they run in turn; each found the review due, and only the first UPDATE takes it.
    const closed = testDialect() === 'postgres' ? await Promise.all(jobs.map((job) => job())) : [await jobs[0](), await jobs[1](), await jobs[2]()];
    expect(closed.reduce((sum, count) => sum + count, 0)).toBe(1);
    const log = await b.admin.logs.page(1, 100, { type: 'review.' });
    const mine = log.filter((entry) => entry.event.includes(review.name));
    expect(mine.filter((entry) => entry.type === 'review.close')).toHaveLength(1);
    expect(mine.filter((entry) => entry.type === 'review.revoke')).toHaveLength(3);
    expect(mine.filter((entry) => entry.type === 'review.noop')).toHaveLength(0);
    expect((await b.admin.reviews.get(review.id)).status).toBe('closed');
    expect(await b.admin.apps.access(app.id)).toEqual([]);
  });
});

describe('a review found due by two instances', () => {
  it('is closed by the first; the second, racing from the same list, does nothing', async () => {
    const app = await a.admin.apps.create({ name: unique('race'), url: `https://${unique('race')}.example.com/` });
    const user = await a.createUser();
    await a.admin.users.grant(user.user.id, app.id);
    const review = await a.admin.reviews.start({
      name: unique('race'),
      apps: [app.id],
      reviewers: 'admins',
      due: new Date(Date.now() + 60_000).toISOString(),
      whenMissed: 'revoke',
    });
    const ctx = (portal: typeof a) => ({
      db: portal.deps.db,
      policy: portal.deps.config,
      now: () => Date.parse(review.due),
      actor: null,
      ip: '',
      userAgent: 'test',
    });
    expect(await closeReview(ctx(a), { reviewId: review.id, by: null })).toBe(true);
    expect(await closeReview(ctx(b), { reviewId: review.id, by: null })).toBe(false);
    const log = await b.admin.logs.page(1, 100, { type: 'review.' });
    expect(log.filter((entry) => entry.event.includes(review.name) && entry.type === 'review.close')).toHaveLength(1);
  });
});
