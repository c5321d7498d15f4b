import { Readable } from 'node:stream';
import { expiryFrom, type PortalClient, type Review, type ReviewItem, type ReviewItemFilter } from '@tools-portal/core';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { done } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { findApp, findApps, isId } from '../resolve.js';

function reviewId(ref: string): number {
  if (!isId(ref)) throw new UsageError(`${ref} is not a review id (see toolsctl reviews list)`);
  return Number(ref);
}

const progressText = (review: Review) => `${review.progress.decided}/${review.progress.items}`;

const reviewList = (reviews: Review[]): Result => ({
  json: reviews,
  quiet: reviews.map((review) => review.id),
  table: {
    head: ['id', 'name', 'status', 'due', 'decided', 'waiting for you', 'apps'],
    rows: reviews.map((review) => [
      review.id,
      review.name,
      review.status,
      review.due,
      progressText(review),
      review.waiting,
      review.apps.map((app) => app.name).join(', '),
    ]),
  },
});

const itemTable = (items: ReviewItem[]) => ({
  head: ['item', 'app', 'grantee', 'role', 'last used', 'decision', 'by', 'outcome'],
  rows: items.map((item) => [
    item.id,
    item.app.name,
    item.user?.email ?? `team ${item.team?.name}`,
    item.role ?? '',
    item.lastUsed ?? 'never',
    item.decision ?? '',
    item.decidedBy ?? '',
    item.outcome ?? '',
  ]),
});

export async function list(ctx: Context): Promise<Result> {
  return reviewList(await (await ctx.client()).reviews.list());
}

interface StartOptions {
  name: string;
  apps: string[];
  all?: boolean;
  reviewers: 'owners' | 'admins';
  due: string;
  whenMissed: 'keep' | 'revoke';
}

export async function start(ctx: Context, options: StartOptions): Promise<Result> {
  const due = expiryFrom(options.due, Date.now());
  if (!due) throw new UsageError(`--due: ${options.due} is neither a duration (30d, 2w) nor a date (2026-12-31)`);
  if (options.all === options.apps.length > 0) throw new UsageError('name the apps, or pass --all (not both)');
  const api = await ctx.client();
  const apps = options.all ? ('all' as const) : (await findApps(api, options.apps)).map((app) => app.id);
  const review = await api.reviews.start({ name: options.name, apps, reviewers: options.reviewers, due, whenMissed: options.whenMissed });
  return done(`started review ${review.id} (${review.name}): ${review.progress.items} items, due ${review.due}`, review, [review.id]);
}

interface FilterOptions {
  undecided?: boolean;
  decided?: boolean;
  app?: string;
  unusedDays?: number;
}

async function filterOf(api: PortalClient, options: FilterOptions): Promise<ReviewItemFilter> {
  if (options.undecided && options.decided) throw new UsageError('--decided and --undecided exclude each other');
  return {
    ...(options.undecided ? { decided: false } : options.decided ? { decided: true } : {}),
    ...(options.app === undefined ? {} : { app: (await findApp(api, options.app)).id }),
    ...(options.unusedDays === undefined ? {} : { unusedDays: options.unusedDays }),
  };
}

export async function show(ctx: Context, ref: string, options: FilterOptions): Promise<Result> {
  const id = reviewId(ref);
  const api = await ctx.client();
  const review = await api.reviews.get(id);
  const items = await api.reviews.items(id, await filterOf(api, options));
  return {
    json: { ...review, items },
    quiet: items.map((item) => item.id),
    record: [
      ['id', review.id],
      ['name', review.name],
      ['status', review.status],
      ['due', review.due],
      ['reviewers', review.reviewers],
      ['when missed', review.whenMissed],
      ['started', `${review.started} by ${review.startedBy}`],
      ...(review.closed ? [['closed', `${review.closed} by ${review.closedBy}`] as [string, string]] : []),
      ['decided', `${progressText(review)} (keep ${review.progress.keep}, remove ${review.progress.remove})`],
      ['apps', review.apps.map((app) => app.name).join(', ')],
    ],
    table: itemTable(items),
  };
}

interface DecideOptions extends FilterOptions {
  review: string;
  decision: string;
  items: string[];
  comment?: string;
  applyNow?: boolean;
}

export async function decide(ctx: Context, options: DecideOptions): Promise<Result> {
  const id = reviewId(options.review);
  if (options.decision !== 'keep' && options.decision !== 'remove') throw new UsageError(`decision: ${options.decision} is neither keep nor remove`);
  const filtering = options.undecided || options.app !== undefined || options.unusedDays !== undefined;
  if (options.items.length > 0 && filtering) throw new UsageError('give item ids or filters, not both');
  if (options.items.length === 0 && !filtering) throw new UsageError('give item ids, or filters (--undecided, --app, --unused-days) that select items');
  for (const item of options.items) if (!isId(item)) throw new UsageError(`${item} is not an item id (see toolsctl reviews show ${id})`);
  const api = await ctx.client();
  const itemIds = filtering ? (await api.reviews.items(id, await filterOf(api, options))).map((item) => item.id) : options.items.map(Number);
  if (itemIds.length === 0) return done('no items matched: nothing decided', [], []);
  const decided = await api.reviews.decideMany(id, { items: itemIds, decision: options.decision, comment: options.comment, applyNow: options.applyNow });
  const applied = decided.filter((item) => item.outcome === 'removed').length;
  const now = options.applyNow && options.decision === 'remove' ? `; ${applied} removed now` : '';
  return {
    ...done(
      `${options.decision}: ${decided.length} item${decided.length === 1 ? '' : 's'} of review ${id}${now}`,
      decided,
      decided.map((item) => item.id),
    ),
    table: itemTable(decided),
  };
}

export async function close(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const id = reviewId(ref);
  const api = await ctx.client();
  const review = await api.reviews.get(id);
  await confirmOrRefuse(
    `close review ${review.name} (id ${id}): removals take effect, undecided items are ${review.whenMissed === 'revoke' ? 'removed' : 'kept'}`,
    options.yes,
  );
  const closed = await api.reviews.close(id);
  return done(
    `closed review ${closed.id} (${closed.name}): keep ${closed.progress.keep}, remove ${closed.progress.remove}, undecided ${closed.progress.items - closed.progress.decided}`,
    closed,
    [closed.id],
  );
}

export async function exportReview(ctx: Context, ref: string, options: { format: 'csv' | 'jsonl' }): Promise<void> {
  const response = await (await ctx.client()).reviews.export(reviewId(ref), options.format);
  if (!response.body) throw new Error('the portal answered the export without a body');
  for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)) {
    if (!process.stdout.write(chunk as Buffer)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}
