/** Teams, their members and their apps (docs/api.md, Teams, roles and owners). */
import {
  membershipInput,
  membershipUpdate,
  teamAnswer,
  teamAppAnswer,
  teamGrantInput,
  teamGrantUpdate,
  teamInput,
  teamMemberAnswer,
  teamUpdate,
  z,
} from '@tools-portal/core';
import * as teams from '../services/teams/teams.js';
import { actorContext, route, type RouteSpec } from './route.js';

export const teamRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/team',
    response: { schema: z.array(teamAnswer) },
    access: 'user',
    summary: "Teams by name: every team for admins, the caller's own for others",
    async handler(_input, ctx, deps) {
      return teams.listTeams(actorContext(ctx, deps));
    },
  }),
  route({
    method: 'POST',
    path: '/team',
    body: teamInput,
    response: { status: 201, schema: teamAnswer },
    access: 'admin',
    summary: 'Create a team from {name, description?} (client-name rules; never Admin or a name like it)',
    async handler({ body }, ctx, deps) {
      return teams.createTeam(actorContext(ctx, deps), body);
    },
  }),
  route({
    method: 'PUT',
    path: '/team',
    body: teamUpdate,
    response: { schema: teamAnswer },
    access: 'admin',
    summary: 'Rename a team or change its description: {id, name, description?}',
    async handler({ body }, ctx, deps) {
      return teams.updateTeam(actorContext(ctx, deps), body);
    },
  }),
  route({
    method: 'GET',
    path: '/team/:id',
    response: { schema: teamAnswer },
    access: 'user',
    summary: 'One team: admins, or its members',
    async handler({ params }, ctx, deps) {
      return teams.getVisibleTeam(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'DELETE',
    path: '/team/:id',
    response: { status: 204 },
    access: 'admin',
    summary: 'Delete a team with its memberships, grants and ownerships',
    async handler({ params }, ctx, deps) {
      await teams.deleteTeam(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/team/:id/user',
    response: { schema: z.array(teamMemberAnswer) },
    access: 'admin',
    summary: "A team's members, by email, with the membership's expiry where it has one",
    async handler({ params }, ctx, deps) {
      return teams.membersOf(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/team/:id/user',
    body: membershipInput,
    response: { status: 204 },
    access: 'admin',
    summary: 'Add a user to a team: {userid, expires?} (expires: ISO 8601, in the future)',
    async handler({ params, body }, ctx, deps) {
      await teams.addMember(actorContext(ctx, deps), { teamId: params.id, userId: body.userid, expiresAt: body.expires });
    },
  }),
  route({
    method: 'PUT',
    path: '/team/:id/user/:userid',
    body: membershipUpdate,
    response: { status: 204 },
    access: 'admin',
    summary: "Change a membership's expiry: {expires} (an ISO 8601 time in the future, or null for none)",
    async handler({ params, body }, ctx, deps) {
      await teams.setMemberExpiry(actorContext(ctx, deps), { teamId: params.id, userId: params.userid, expiresAt: body.expires });
    },
  }),
  route({
    method: 'DELETE',
    path: '/team/:id/user/:userid',
    response: { status: 204 },
    access: 'admin',
    summary: 'Remove a user from a team',
    async handler({ params }, ctx, deps) {
      await teams.removeMember(actorContext(ctx, deps), { teamId: params.id, userId: params.userid });
    },
  }),
  route({
    method: 'GET',
    path: '/team/:id/app',
    response: { schema: z.array(teamAppAnswer) },
    access: 'owner',
    summary: "A team's apps with role and expiry: admins all, an app's owners the apps they own",
    async handler({ params }, ctx, deps) {
      return teams.appsOfTeam(actorContext(ctx, deps), params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/team/:id/app',
    body: teamGrantInput,
    response: { status: 204 },
    access: 'owner',
    summary: "Grant an app to a team: {appid, role?, expires?}; admins or the app's owners",
    async handler({ params, body }, ctx, deps) {
      await teams.grantTeam(actorContext(ctx, deps), { teamId: params.id, appId: body.appid, role: body.role, expiresAt: body.expires });
    },
  }),
  route({
    method: 'PUT',
    path: '/team/:id/app/:appid',
    body: teamGrantUpdate,
    response: { status: 204 },
    access: 'owner',
    summary: "Change a team grant's role and/or expiry: {role?, expires?} (null: no expiry); admins or the app's owners",
    async handler({ params, body }, ctx, deps) {
      await teams.updateTeamGrant(actorContext(ctx, deps), { teamId: params.id, appId: params.appid, role: body.role, expiresAt: body.expires });
    },
  }),
  route({
    method: 'DELETE',
    path: '/team/:id/app/:appid',
    response: { status: 204 },
    access: 'owner',
    summary: "Revoke an app from a team; admins or the app's owners",
    async handler({ params }, ctx, deps) {
      await teams.revokeTeam(actorContext(ctx, deps), { teamId: params.id, appId: params.appid });
    },
  }),
];
