/**
 * Applying a setup document (docs/cli.md, "The portal's setup as a file"): all or nothing in one
 * transaction, planned inside it (on PostgreSQL under an advisory lock, so two applies run one
 * after the other), refused with 409 when the plan is not the one `expect` names. Every change goes
 * through its usual service and writes its usual event; one `setup.apply` event names the hash.
 */
import {
  ApiError,
  conflict,
  foldName,
  type CurrentUser,
  type SetupApplied,
  type SetupApplyInput,
  type SetupApp,
  type SetupDocument,
  type SetupRef,
  type SetupStep,
} from '@tools-portal/core';
import type { Config } from '../../config.js';
import { dialectOf } from '../../db/connection.js';
import { enableClient } from '../../oidc/clients.js';
import { setIcon } from '../apps/app-icons.js';
import { createApp, deleteApp, grantApp, revokeApp, updateApp, updateGrant } from '../apps/apps.js';
import { checkIcon } from '../apps/icon-images.js';
import { logEvent } from '../log/audit.js';
import { withDb, type ServiceContext } from '../support/context.js';
import { addMember, createTeam, deleteTeam, grantTeam, removeMember, revokeTeam, setMemberExpiry, updateTeam, updateTeamGrant } from '../teams/teams.js';
import { createClient, deleteClient } from '../users/clients.js';
import { createInvite } from '../users/invites.js';
import { planDocument, type SetupPlanned } from './setup-plan.js';

type SetupContext = ServiceContext<Config> & { actor: CurrentUser };

// One number for every apply: pg_advisory_xact_lock holds it until the transaction ends.
const SETUP_LOCK = 2_026_112_608;

export async function applyDocument(ctx: SetupContext, input: SetupApplyInput): Promise<SetupApplied> {
  return ctx.db.transaction(async (trx) => {
    if (dialectOf(trx) === 'postgres') await trx.raw('select pg_advisory_xact_lock(?)', [SETUP_LOCK]);
    const plan = await planDocument(trx, { ...input, now: ctx.now(), callerEmail: ctx.actor.email });
    if (input.expect !== undefined && input.expect !== plan.hash) {
      throw conflict(`the portal changed since the plan ${input.expect} was made: the plan is now ${plan.hash}; plan again and review it`);
    }
    const run = new Run(withDb(ctx, trx), plan);
    await run.load();
    for (const step of plan.steps) await run.step(step);
    await logEvent(trx, ctx, { type: 'setup.apply', event: `applied a setup document: ${plan.changes.length} changes, plan ${plan.hash}` });
    return { changes: plan.changes, hash: plan.hash, secrets: run.secrets };
  });
}

/** Ids by the names a document uses, kept up to date as the steps create and delete. */
class Run {
  readonly secrets: SetupApplied['secrets'] = [];
  private clients = new Map<string, number>();
  private teams = new Map<string, number>();
  private apps = new Map<string, number>();
  private users = new Map<string, number>();
  /** Apps granted to people invited in this document: they ride on the invitation. */
  private ridden = new Map<string, Set<string>>();
  private updatedApps = new Set<string>();
  private changed = new Set<string>();

  constructor(
    private readonly ctx: SetupContext,
    private readonly plan: SetupPlanned,
  ) {}

  async load(): Promise<void> {
    const { db } = this.ctx;
    const [clients, teams, apps, users] = await Promise.all([
      db('clients').select('id', 'name') as Promise<{ id: number; name: string }[]>,
      db('teams').select('id', 'name') as Promise<{ id: number; name: string }[]>,
      db('apps').select('id', 'name') as Promise<{ id: number; name: string }[]>,
      db('users').select('id', 'email') as Promise<{ id: number; email: string }[]>,
    ]);
    for (const row of clients) this.clients.set(foldName(row.name), Number(row.id));
    for (const row of teams) this.teams.set(foldName(row.name), Number(row.id));
    for (const row of apps) this.apps.set(row.name, Number(row.id));
    for (const row of users) this.users.set(row.email, Number(row.id));
  }

  async step({ change, ref }: SetupStep): Promise<void> {
    // The `~` steps of one entry are made by one call of its service (all its fields at once).
    const key = `${change.kind}\u0000${change.name}`;
    if (change.op === '~' && this.changed.has(key)) return;
    this.changed.add(key);
    try {
      await this.apply(change.op, ref);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new ApiError(
        error.code,
        `${change.op} ${change.kind} ${change.name}${change.field ? ` (${change.field})` : ''}: ${error.message}; nothing was applied`,
        error.details,
      );
    }
  }

  private async apply(op: '+' | '~' | '-', ref: SetupRef): Promise<void> {
    switch (ref.kind) {
      case 'client':
        return op === '+' ? this.addClient(ref.client) : deleteClient(this.ctx, this.id(this.clients, foldName(ref.client)));
      case 'team':
        return this.team(op, ref);
      case 'app':
        return this.app(op, ref.app);
      case 'membership':
        return this.membership(op, ref);
      case 'grant':
        return this.grant(op, ref);
      case 'invite':
        return this.invite(ref.email);
    }
  }

  private id(map: Map<string, number>, key: string): number {
    const id = map.get(key);
    if (id === undefined) throw new ApiError('not_found', `${key} does not exist`);
    return id;
  }

  private async addClient(name: string): Promise<void> {
    const client = await createClient(this.ctx, name);
    this.clients.set(foldName(name), Number(client.id));
  }

  private async team(op: '+' | '~' | '-', ref: Extract<SetupRef, { kind: 'team' }>): Promise<void> {
    const key = foldName(ref.team);
    if (op === '-') {
      await deleteTeam(this.ctx, this.id(this.teams, key));
      this.teams.delete(key);
      return;
    }
    const wanted = this.plan.desired.teams?.find((team) => foldName(team.name) === key);
    if (op === '+') {
      const team = await createTeam(this.ctx, { name: ref.team, description: wanted?.description ?? '' });
      this.teams.set(key, team.id);
      return;
    }
    // A `~` of the name and one of the description: one update makes both, the second finds nothing to do.
    await updateTeam(this.ctx, { id: this.id(this.teams, key), name: ref.team, description: wanted?.description });
  }

  private async app(op: '+' | '~' | '-', name: string): Promise<void> {
    const { ctx } = this;
    if (op === '-') {
      await deleteApp(ctx, this.id(this.apps, name));
      this.apps.delete(name);
      return;
    }
    if (this.updatedApps.has(name)) return;
    this.updatedApps.add(name);
    const wanted = this.plan.desired.apps?.find((app) => app.name === name) as SetupApp;
    const before = this.plan.current.apps?.find((app) => app.name === name);
    const fields = { ...before, ...wanted };
    const owners = {
      users: (fields.owners?.users ?? []).map((email) => this.id(this.users, email)),
      teams: (fields.owners?.teams ?? []).map((team) => this.id(this.teams, foldName(team))),
    };
    const common = {
      name,
      url: fields.url,
      description: fields.description ?? '',
      doclink: fields.doclink ?? '',
      category: fields.category ?? '',
      requestable: fields.requestable ?? false,
      roles: fields.roles ?? [],
      owners,
    };
    let id: number;
    if (op === '+') {
      id = (await createApp(ctx, { ...common, descriptionDe: '' })).id;
      this.apps.set(name, id);
    } else {
      id = this.id(this.apps, name);
      const changed = this.plan.changes.some((c) => c.kind === 'app' && c.name === name && c.field !== 'icon' && c.field !== 'openid');
      if (changed) await updateApp(ctx, { id, ...common, owners: wanted.owners ? owners : undefined });
    }
    if (wanted.icon !== undefined && wanted.icon !== before?.icon) {
      const data = this.plan.icons.get(wanted.icon) as Buffer;
      const check = checkIcon(data);
      await setIcon(ctx, { appId: id, declaredType: check.ok ? check.type : 'image/png', data });
    }
    if (wanted.openid && JSON.stringify(wanted.openid) !== JSON.stringify(before?.openid)) await this.openid(id, wanted);
  }

  private async openid(appId: number, app: SetupApp): Promise<void> {
    const openid = {
      post_logout_redirect_uris: [],
      public: false,
      device: false,
      ...this.plan.current.apps?.find((a) => a.name === app.name)?.openid,
      ...app.openid,
    };
    const row: { id_token_alg: string } | undefined = await this.ctx.db('oidc_clients').where({ app_id: appId }).first('id_token_alg');
    const created = await enableClient(this.ctx, {
      appId,
      input: {
        redirect_uris: openid.redirect_uris ?? [],
        post_logout_redirect_uris: openid.post_logout_redirect_uris,
        public: openid.public,
        device: openid.device,
        id_token_signed_response_alg: (row?.id_token_alg ?? 'RS256') as 'RS256',
        keepSecret: true,
      },
    });
    if (created.client_secret) this.secrets.push({ app: app.name, client_id: created.client_id, client_secret: created.client_secret });
  }

  private async membership(op: '+' | '~' | '-', ref: Extract<SetupRef, { kind: 'membership' }>): Promise<void> {
    const ids = { teamId: this.id(this.teams, foldName(ref.team)), userId: this.id(this.users, ref.email) };
    if (op === '-') return removeMember(this.ctx, ids);
    const wanted = this.plan.desired.teams?.find((team) => foldName(team.name) === foldName(ref.team))?.members?.find((m) => m.email === ref.email);
    const expiresAt = wanted?.expires === undefined ? undefined : Date.parse(wanted.expires);
    if (op === '+') return addMember(this.ctx, { ...ids, expiresAt });
    return setMemberExpiry(this.ctx, { ...ids, expiresAt: expiresAt ?? null });
  }

  private async grant(op: '+' | '~' | '-', ref: Extract<SetupRef, { kind: 'grant' }>): Promise<void> {
    const appId = this.id(this.apps, ref.app);
    const wanted = this.plan.desired.grants?.find(
      (g) => g.app === ref.app && (ref.user !== undefined ? g.user === ref.user : g.team !== undefined && foldName(g.team) === foldName(ref.team ?? '')),
    );
    const expiresAt = wanted?.expires === undefined ? undefined : Date.parse(wanted.expires);
    if (ref.user !== undefined && !this.users.has(ref.user)) {
      this.ridden.set(ref.user, (this.ridden.get(ref.user) ?? new Set()).add(ref.app));
      return;
    }
    if (ref.user !== undefined) {
      const ids = { userId: this.id(this.users, ref.user), appId };
      if (op === '-') return revokeApp(this.ctx, ids);
      if (op === '+') return grantApp(this.ctx, { ...ids, role: wanted?.role, expiresAt });
      return updateGrant(this.ctx, { ...ids, role: wanted?.role, expiresAt: expiresAt ?? null });
    }
    const ids = { teamId: this.id(this.teams, foldName(ref.team ?? '')), appId };
    if (op === '-') return revokeTeam(this.ctx, ids);
    if (op === '+') return grantTeam(this.ctx, { ...ids, role: wanted?.role, expiresAt });
    return updateTeamGrant(this.ctx, { ...ids, role: wanted?.role, expiresAt: expiresAt ?? null });
  }

  private async invite(email: string): Promise<void> {
    const invite = (this.plan.desired.invites ?? []).find((entry) => entry.email === email) as NonNullable<SetupDocument['invites']>[number];
    const apps = [...new Set([...(invite.apps ?? []), ...(this.ridden.get(email) ?? [])])];
    await createInvite(this.ctx, {
      email,
      clientid: this.id(this.clients, foldName(invite.client)),
      apps: apps.map((name) => this.id(this.apps, name)),
    });
  }
}
