import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { done, requestList } from '../present.js';
import { isId } from '../resolve.js';
import { expiryOption } from './users.js';

function requestId(ref: string): number {
  if (!isId(ref)) throw new UsageError(`${ref} is not a request id (see toolsctl requests list)`);
  return Number(ref);
}

export async function list(ctx: Context, options: { open?: boolean }): Promise<Result> {
  const requests = await (await ctx.client()).accessRequests.list();
  return requestList(options.open ? requests.filter((request) => request.status === 'open') : requests);
}

export async function approve(ctx: Context, ref: string, options: { expires?: string }): Promise<Result> {
  const id = requestId(ref);
  const expires = expiryOption(options.expires);
  const request = await (await ctx.client()).accessRequests.approve(id, expires);
  const until = expires ? ` until ${expires}` : '';
  return done(`approved request ${request.id}: granted app ${request.app.name} to ${request.user.email}${until}`, request, [request.id]);
}

export async function deny(ctx: Context, ref: string, options: { reason?: string }): Promise<Result> {
  const id = requestId(ref);
  const request = await (await ctx.client()).accessRequests.deny(id, options.reason);
  return done(`denied request ${request.id}: app ${request.app.name} for ${request.user.email}`, request, [request.id]);
}
