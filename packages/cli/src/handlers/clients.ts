import { byName } from '@tools-portal/core';
import type { Context } from '../context.js';
import type { Result } from '../output.js';
import { clientList, clientRecord, done, userList } from '../present.js';
import { confirmOrRefuse } from '../prompts.js';
import { findClient } from '../resolve.js';

export async function list(ctx: Context): Promise<Result> {
  const clients = await (await ctx.client()).clients.list();
  return clientList([...clients].sort(byName));
}

export async function show(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const client = await findClient(api, ref);
  return clientRecord(client, await api.clients.users(client.id));
}

export async function create(ctx: Context, name: string): Promise<Result> {
  const client = await (await ctx.client()).clients.create(name);
  return clientRecord(client, [], `created new client ${client.name} (id ${client.id})`);
}

export async function rename(ctx: Context, ref: string, name: string): Promise<Result> {
  const api = await ctx.client();
  const client = await findClient(api, ref);
  const renamed = await api.clients.rename(client.id, name);
  return clientRecord(renamed, await api.clients.users(renamed.id), `renamed client ${client.name} to ${renamed.name}`);
}

export async function remove(ctx: Context, ref: string, options: { yes?: boolean }): Promise<Result> {
  const api = await ctx.client();
  const client = await findClient(api, ref);
  const members = await api.clients.users(client.id);
  await confirmOrRefuse(`delete client ${client.name} (id ${client.id}) and its ${members.length} user(s)`, options.yes);
  await api.clients.delete(client.id);
  return done(`deleted client ${client.name}`, { deleted: client, users: members }, [client.id]);
}

export async function users(ctx: Context, ref: string): Promise<Result> {
  const api = await ctx.client();
  const client = await findClient(api, ref);
  return userList(await api.clients.users(client.id));
}
