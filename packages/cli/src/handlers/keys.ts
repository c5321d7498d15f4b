import { generateApiKey, maskApiKey } from '@tools-portal/core';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import type { Result } from '../output.js';
import { done, keyList } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { isId } from '../resolve.js';
import { expiryOption } from './users.js';

export async function list(ctx: Context): Promise<Result> {
  return keyList(await (await ctx.client()).accessTokens.list());
}

/** Generates the key here, as the web portal does in the browser; the server keeps only its hash. */
export async function create(ctx: Context, options: { name?: string; expires?: string } = {}): Promise<Result> {
  const expires = expiryOption(options.expires);
  const api = await ctx.client();
  const key = generateApiKey();
  const input = { ...(options.name !== undefined ? { name: options.name } : {}), ...(expires ? { expires } : {}) };
  const created = await api.accessTokens.create(key, Object.keys(input).length > 0 ? input : undefined);
  return {
    json: { ...created, key },
    quiet: [key],
    message: `created new access token ${created.token} (id ${created.id})\nCopy the key now; it is not shown again:\n${key}`,
  };
}

export async function remove(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  if (!isId(ref) && !ref.startsWith('apikey-')) throw new UsageError(`name the key by its id or the full key, not ${ref}`);
  const api = await ctx.client();
  const label = isId(ref) ? `API key ${ref}` : 'this API key';
  await confirmOrRefuse(`delete ${label}`, options.yes);
  await api.accessTokens.delete(isId(ref) ? Number(ref) : ref);
  const shown = isId(ref) ? ref : maskApiKey(ref);
  return done(`deleted access token ${shown}`, { deleted: isId(ref) ? Number(ref) : shown }, [shown]);
}
