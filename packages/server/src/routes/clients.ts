import { clientInput, clientUpdate, clientAnswer, userAnswer, z } from '@tools-portal/core';
import * as clients from '../services/users/clients.js';
import { usersOfClient } from '../services/users/users.js';
import { actorContext, route, type RouteSpec } from './route.js';

export const clientRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/client',
    response: { schema: z.array(clientAnswer) },
    access: 'admin',
    summary: 'All clients, by name',
    async handler(_input, _ctx, { db }) {
      return clients.listClients(db);
    },
  }),
  route({
    method: 'GET',
    path: '/client/:id',
    response: { schema: clientAnswer },
    access: 'admin',
    summary: 'One client',
    async handler({ params }, _ctx, { db }) {
      return clients.getClient(db, params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/client/:id/user',
    response: { schema: z.array(userAnswer) },
    access: 'admin',
    summary: "A client's users, by email",
    async handler({ params }, _ctx, { db }) {
      const client = await clients.getClient(db, params.id);
      return usersOfClient(db, client.id);
    },
  }),
  route({
    method: 'POST',
    path: '/client',
    body: clientInput,
    response: { status: 201, schema: clientAnswer },
    access: 'admin',
    summary: 'Create a client: {name}',
    async handler({ body }, ctx, deps) {
      return clients.createClient(actorContext(ctx, deps), body.name);
    },
  }),
  route({
    method: 'PUT',
    path: '/client',
    access: 'admin',
    summary: 'Rename a client: {id, name}',
    body: clientUpdate,
    response: { schema: clientAnswer },
    async handler({ body }, ctx, deps) {
      return clients.renameClient(actorContext(ctx, deps), body);
    },
  }),
  route({
    method: 'DELETE',
    path: '/client/:id',
    response: { status: 204 },
    access: 'admin',
    summary: 'Delete a client and its users',
    async handler({ params }, ctx, deps) {
      await clients.deleteClient(actorContext(ctx, deps), params.id);
    },
  }),
];
