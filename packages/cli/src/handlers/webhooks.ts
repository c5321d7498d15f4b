import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { deliveryList, done, webhookList } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { isId } from '../resolve.js';

const hookId = (ref: string) => {
  if (!isId(ref)) throw new UsageError(`name the webhook by its id, not ${ref}`);
  return Number(ref);
};

export async function list(ctx: Context): Promise<Result> {
  return webhookList(await (await ctx.client()).webhooks.list());
}

export async function create(ctx: Context, url: string, options: { events: string; description?: string }): Promise<Result> {
  const events = options.events
    .split(',')
    .map((event) => event.trim())
    .filter(Boolean);
  const created = await (
    await ctx.client()
  ).webhooks.create({ url, events, ...(options.description !== undefined ? { description: options.description } : {}) });
  const warning = created.warning ? `\nwarning: ${created.warning}` : '';
  return {
    json: created,
    quiet: [created.secret],
    message: `created webhook ${created.id} to ${created.url} for ${created.events.join(', ')}${warning}\nCopy the signing secret now; it is not shown again:\n${created.secret}`,
  };
}

export async function remove(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const id = hookId(ref);
  const api = await ctx.client();
  await confirmOrRefuse(`delete webhook ${id} and its deliveries`, options.yes);
  await api.webhooks.delete(id);
  return done(`deleted webhook ${id}`, { deleted: id }, [id]);
}

export async function test(ctx: Context, ref: string): Promise<Result> {
  const delivery = await (await ctx.client()).webhooks.test(hookId(ref));
  const outcome =
    delivery.status === 'delivered'
      ? `delivered: the receiver answered ${delivery.lastCode} in ${delivery.durationMs} ms`
      : `not delivered: ${delivery.error ?? 'no answer'}`;
  return { json: delivery, quiet: [delivery.status], message: `test delivery ${delivery.id} to webhook ${ref} ${outcome}` };
}

export async function deliveries(ctx: Context, ref: string): Promise<Result> {
  return deliveryList(await (await ctx.client()).webhooks.deliveries(hookId(ref)));
}
