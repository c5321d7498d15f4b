import type { Context } from '../context.js';
import type { Result } from '../output.js';
import { mailList } from '../present.js';

export async function list(ctx: Context): Promise<Result> {
  return mailList(await (await ctx.client()).mail.list());
}
