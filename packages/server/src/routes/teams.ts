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
  type Access,
} from '@tools-portal/core';
import * as teams from '../services/teams/teams.js';
import type { ActorContext } from '../services/support/context.js';
import { actorContext, route, type RouteSpec } from './route.js';

/** The team's id and the member's or app's. */
interface PartIds {
  teamId: number;
  otherId: number;
}

/**
 * A team's members and a team's apps are one shape of routes: list, add (a body naming the user or
 * app), change one, remove one: `/team/:id/{part}` and `/team/:id/{part}/:{key}`.
 */
interface TeamPart<Answer extends z.ZodType, Input extends z.ZodType, Update extends z.ZodType> {
  part: 'user' | 'app';
  key: 'userid' | 'appid';
  access: Access;
  answer: Answer;
  input: Input;
  update: Update;
  summaries: Record<'list' | 'add' | 'change' | 'remove', string>;
  list(ctx: ActorContext, teamId: number): Promise<z.input<Answer>[]>;
  add(ctx: ActorContext, teamId: number, body: z.output<Input>): Promise<void>;
  change(ctx: ActorContext, ids: PartIds, body: z.output<Update>): Promise<void>;
  remove(ctx: ActorContext, ids: PartIds): Promise<void>;
}

function teamPartRoutes<Answer extends z.ZodType, Input extends z.ZodType, Update extends z.ZodType>(part: TeamPart<Answer, Input, Update>): RouteSpec[] {
  const collection = `/team/:id/${part.part}`;
  const one = `${collection}/:${part.key}`;
  // The paths are built, so their parameters are typed here: `:id` and `:userid` or `:appid`.
  const idsOf = (params: unknown): PartIds => ({ teamId: teamId(params), otherId: (params as Record<string, number>)[part.key] });
  const teamId = (params: unknown) => (params as { id: number }).id;
  const { access, summaries } = part;
  return [
    route({
      method: 'GET',
      path: collection,
      response: { schema: z.array(part.answer) },
      access,
      summary: summaries.list,
      async handler({ params }, ctx, deps) {
        return part.list(actorContext(ctx, deps), teamId(params));
      },
    }),
    route({
      method: 'POST',
      path: collection,
      body: part.input,
      response: { status: 204 },
      access,
      summary: summaries.add,
      async handler({ params, body }, ctx, deps) {
        await part.add(actorContext(ctx, deps), teamId(params), body as z.output<Input>);
      },
    }),
    route({
      method: 'PUT',
      path: one,
      body: part.update,
      response: { status: 204 },
      access,
      summary: summaries.change,
      async handler({ params, body }, ctx, deps) {
        await part.change(actorContext(ctx, deps), idsOf(params), body as z.output<Update>);
      },
    }),
    route({
      method: 'DELETE',
      path: one,
      response: { status: 204 },
      access,
      summary: summaries.remove,
      async handler({ params }, ctx, deps) {
        await part.remove(actorContext(ctx, deps), idsOf(params));
      },
    }),
  ];
}

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
  ...teamPartRoutes({
    part: 'user',
    key: 'userid',
    access: 'admin',
    answer: teamMemberAnswer,
    input: membershipInput,
    update: membershipUpdate,
    summaries: {
      list: "A team's members, by email, with the membership's expiry where it has one",
      add: 'Add a user to a team: {userid, expires?} (expires: ISO 8601, in the future)',
      change: "Change a membership's expiry: {expires} (an ISO 8601 time in the future, or null for none)",
      remove: 'Remove a user from a team',
    },
    list: teams.membersOf,
    add: (ctx, teamId, body) => teams.addMember(ctx, { teamId, userId: body.userid, expiresAt: body.expires }),
    change: (ctx, { teamId, otherId }, body) => teams.setMemberExpiry(ctx, { teamId, userId: otherId, expiresAt: body.expires }),
    remove: (ctx, { teamId, otherId }) => teams.removeMember(ctx, { teamId, userId: otherId }),
  }),
  ...teamPartRoutes({
    part: 'app',
    key: 'appid',
    access: 'owner',
    answer: teamAppAnswer,
    input: teamGrantInput,
    update: teamGrantUpdate,
    summaries: {
      list: "A team's apps with role and expiry: admins all, an app's owners the apps they own",
      add: "Grant an app to a team: {appid, role?, expires?}; admins or the app's owners",
      change: "Change a team grant's role and/or expiry: {role?, expires?} (null: no expiry); admins or the app's owners",
      remove: "Revoke an app from a team; admins or the app's owners",
    },
    list: teams.appsOfTeam,
    add: (ctx, teamId, body) => teams.grantTeam(ctx, { teamId, appId: body.appid, role: body.role, expiresAt: body.expires }),
    change: (ctx, { teamId, otherId }, body) => teams.updateTeamGrant(ctx, { teamId, appId: otherId, role: body.role, expiresAt: body.expires }),
    remove: (ctx, { teamId, otherId }) => teams.revokeTeam(ctx, { teamId, appId: otherId }),
  }),
];
