/** `toolsctl reviews list|start|show|decide|close|export` (docs/cli.md, Access reviews). */
import type { Review, ReviewItem } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { unique } from '../../server/test/support/support.js';
import { json, useAdminToolsctl } from './toolsctl.js';

const { portal, run } = useAdminToolsctl();

describe('reviews', () => {
  it('starts, lists, shows with filters, decides by ids and by filter, closes and exports; tables and JSON', async () => {
    const app = await portal.admin.apps.create({ name: unique('jira'), url: 'https://jira.example.com/', roles: ['viewer', 'editor'] });
    const [ann, bob] = await Promise.all([portal.createUser(), portal.createUser()]);
    await portal.admin.users.grant(ann.user.id, app.id, { role: 'editor' });
    await portal.admin.users.grant(bob.user.id, app.id);
    const name = unique('Q4');

    const started = await run(['reviews', 'start', name, app.name, '--due', '30d', '--when-missed', 'revoke', '--json']);
    expect(started.code).toBe(0);
    const review = json<Review>(started);
    expect(review).toMatchObject({ name, whenMissed: 'revoke', reviewers: 'owners', progress: { items: 2 } });
    expect((await run(['reviews', 'list'])).stdout).toContain(name);
    expect(json<Review[]>(await run(['reviews', 'list', '--json'])).some((listed) => listed.id === review.id)).toBe(true);

    const shown = await run(['reviews', 'show', String(review.id)]);
    expect(shown.stdout).toContain(ann.email);
    expect(shown.stdout).toContain('never');
    const items = json<{ items: ReviewItem[] }>(await run(['reviews', 'show', String(review.id), '--json'])).items;
    const annItem = items.find((item) => item.user?.email === ann.email)!;

    const kept = await run(['reviews', 'decide', String(review.id), 'keep', String(annItem.id), '--comment', 'still on the team']);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('keep: 1 item of review');
    // The rest by filter: the undecided ones, not used in 90 days.
    const removed = await run(['reviews', 'decide', String(review.id), 'remove', '--undecided', '--unused-days', '90', '--json']);
    expect(json<ReviewItem[]>(removed).map((item) => item.user?.email)).toEqual([bob.email]);
    expect(json<{ items: ReviewItem[] }>(await run(['reviews', 'show', String(review.id), '--undecided', '--json'])).items).toEqual([]);

    // Usage errors exit 2; a refusal by the portal 1.
    expect((await run(['reviews', 'decide', String(review.id), 'maybe', '1'])).code).toBe(2);
    expect((await run(['reviews', 'decide', String(review.id), 'keep'])).code).toBe(2);
    expect((await run(['reviews', 'start', 'x', app.name, '--due', 'soon'])).code).toBe(2);
    expect((await run(['reviews', 'close', String(review.id)])).code).toBe(2);

    const closed = await run(['reviews', 'close', String(review.id), '--yes']);
    expect(closed.stdout).toContain(`closed review ${review.id}`);
    expect((await run(['reviews', 'close', String(review.id), '--yes'])).code).toBe(1);
    expect((await portal.admin.apps.access(app.id)).map((user) => user.email)).toEqual([ann.email]);

    const csv = await run(['reviews', 'export', String(review.id)]);
    expect(csv.stdout.split('\r\n')[0]).toContain('review,item,app,kind,grantee');
    expect(csv.stdout).toContain('still on the team');
    const jsonl = (await run(['reviews', 'export', String(review.id), '--format', 'jsonl'])).stdout.trim().split('\n');
    expect(jsonl.map((line) => (JSON.parse(line) as { outcome: string }).outcome).sort()).toEqual(['kept', 'removed']);
  });
});
