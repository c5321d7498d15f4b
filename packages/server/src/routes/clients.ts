import { clientInput, clientUpdate } from '@tools-portal/core';
import * as clients from '../services/clients.js';
import { usersOfClient } from '../services/users.js';
import { auditOf, bodyOf, created, idParam, noContent, type RouteSpec } from './route.js';

export const clientRoutes: RouteSpec[] = [
  {
    method: 'GET',
    path: '/client',
    access: 'admin',
    summary: 'All clients, by name',
    async handler(ctx, { db }) {
      ctx.body = await clients.listClients(db);
    },
  },
  {
    method: 'GET',
    path: '/client/:id',
    access: 'admin',
    summary: 'One client',
    async handler(ctx, { db }) {
      ctx.body = await clients.getClient(db, idParam(ctx, 'id'));
    },
  },
  {
    method: 'GET',
    path: '/client/:id/user',
    access: 'admin',
    summary: "A client's users, by email",
    async handler(ctx, { db }) {
      const client = await clients.getClient(db, idParam(ctx, 'id'));
      ctx.body = await usersOfClient(db, client.id);
    },
  },
  {
    method: 'POST',
    path: '/client',
    access: 'admin',
    summary: 'Create a client: {name}',
    async handler(ctx, { db }) {
      const { name } = bodyOf(ctx, clientInput);
      created(ctx, await clients.createClient(db, auditOf(ctx), name));
    },
  },
  {
    method: 'PUT',
    path: '/client',
    access: 'admin',
    summary: 'Rename a client: {id, name}',
    async handler(ctx, { db }) {
      const { id, name } = bodyOf(ctx, clientUpdate);
      ctx.body = await clients.renameClient(db, auditOf(ctx), id, name);
    },
  },
  {
    method: 'DELETE',
    path: '/client/:id',
    access: 'admin',
    summary: 'Delete a client and its users',
    async handler(ctx, { db }) {
      await clients.deleteClient(db, auditOf(ctx), idParam(ctx, 'id'));
      noContent(ctx);
    },
  },
];
