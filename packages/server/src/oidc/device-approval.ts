/**
 * The portal's verification page of the device grant (docs/oidc.md, Device grant): a signed-in user
 * looks a request up by the code the device shows, sees which device asks, and allows or denies it.
 * Allowing signs the device in: a new portal session of the user named after it ("toolsctl on HOST",
 * through the one sign-in pipeline), a provider grant bound to that session, and the device code
 * completed so that the device's next poll gets its tokens. The tokens are that session's: they end
 * with it (services/sign-in/sessions.ts reads a `toolsctl` access token as its session).
 *
 * A code typed wrong counts against the open request it differs from in one character (a typo of
 * the code shown): the fifth voids that request. Every lookup counts against the user too
 * (DEVICE_LOOKUPS_PER_USER in a window), so that nobody can try codes at will.
 */
import { ApiError, deviceSessionName, OIDC_SCOPES, TOOLSCTL_CLIENT_ID, type CurrentUser, type DeviceRequest } from '@tools-portal/core';
import type Provider from 'oidc-provider';
import type { Config } from '../config.js';
import { userMayUseApp } from '../services/access/forward-auth.js';
import type { AuthCache } from '../services/access/auth-cache.js';
import { logEvent } from '../services/log/audit.js';
import { bindCliGrant, countWrongCode, decide, DEVICE_CODE_MAX_FAILURES, openDeviceCodes } from '../services/openid/device-requests.js';
import { bindGrantToSession } from '../services/openid/openid-grants.js';
import type { Principal } from '../services/sign-in/sessions.js';
import { acrOf, completeSignIn } from '../services/sign-in/sign-in.js';
import { hitRateLimit } from '../services/support/rate-limits.js';
import type { ServiceContext } from '../services/support/context.js';
import { DEVICE_CODE_GRACE_MS } from './adapter.js';
import type { DeviceInfo } from './device-flow.js';
import { TTL } from './lifetimes.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const LOOKUP_WINDOW_MS = 10 * 60 * 1000;
/** Lookups, allows and denies one user may make in LOOKUP_WINDOW_MS. */
const DEVICE_LOOKUPS_PER_USER = 30;
const APP_ID = 'urn:tools-portal:app_id';

/** A service of the verification page: the caller's signed-in session and the provider of this instance. */
export interface DeviceContext extends ServiceContext<Config> {
  actor: CurrentUser;
  session: Principal;
  provider: Provider;
  authCache: AuthCache;
}

interface DeviceCodeLike {
  jti: string;
  exp?: number;
  iat?: number;
  isExpired: boolean;
  clientId: string;
  userCode?: string;
  error?: string;
  errorDescription?: string;
  accountId?: string;
  inFlight?: boolean;
  deviceInfo?: Partial<DeviceInfo>;
  params?: Record<string, unknown>;
  save(): Promise<string>;
  [key: string]: unknown;
}

interface DeviceCodeModel {
  findByUserCode(userCode: string, options?: { ignoreExpiration?: boolean }): Promise<DeviceCodeLike | undefined>;
  find(id: string, options?: { ignoreExpiration?: boolean; ignoreSessionBinding?: boolean }): Promise<DeviceCodeLike | undefined>;
}

/** A user code as typed, as the provider stores it: upper case, letters and digits only. */
const normalize = (typed: string) => typed.toUpperCase().replace(/[^A-Z0-9]/g, '');
/** The stored code as the device shows it: BCDF-GHJK. */
const present = (normalized: string) => (normalized.length === 8 ? `${normalized.slice(0, 4)}-${normalized.slice(4)}` : normalized);

const codes = (ctx: DeviceContext) => ctx.provider.DeviceCode as unknown as DeviceCodeModel;

/** Which device asks with this code (the verification page shows it before Allow and Deny). */
export async function lookUpDeviceRequest(ctx: DeviceContext, userCode: string): Promise<DeviceRequest> {
  const code = await openRequest(ctx, userCode);
  const info = code.deviceInfo ?? {};
  return {
    user_code: present(code.userCode ?? normalize(userCode)),
    client_id: code.clientId,
    name: deviceSessionName(code.clientId, info.host ?? ''),
    host: info.host ?? '',
    address: info.ip ?? '',
    requestedTimestamp: new Date((code.iat ?? 0) * 1000).toISOString(),
  };
}

/** Signs the device in as the caller: a new session named after it, whose tokens the device's next poll gets. */
export async function allowDeviceRequest(ctx: DeviceContext, userCode: string): Promise<void> {
  const code = await openRequest(ctx, userCode);
  const client = (await ctx.provider.Client.find(code.clientId)) as unknown as Record<string, unknown> | undefined;
  if (!client) throw new ApiError('not_found', `${code.clientId} may no longer sign in devices`);
  const appId = code.clientId === TOOLSCTL_CLIENT_ID ? undefined : Number(client[APP_ID]);
  if (appId !== undefined && !(await userMayUseApp(ctx.authCache, ctx.actor, appId))) {
    throw new ApiError('forbidden', `you may not use app ${code.clientId}`);
  }
  await takeDecision(ctx, code);
  const info = code.deviceInfo ?? {};
  const name = deviceSessionName(code.clientId, info.host ?? '');
  const signedInAt = ctx.session.signedInAt ?? ctx.now();
  const amr = ctx.session.amr ?? [];
  const signedIn = await completeSignIn(ctx, {
    user: ctx.actor,
    method: 'device',
    proof: { device: { name, ip: info.ip ?? '', userAgent: info.ua ?? '', signedInAt, amr } },
  });
  const sessionId = signedIn.sessionId!;
  const sessionEnd = ctx.now() + ctx.policy.sessionTtlDays * DAY_MS;
  // toolsctl's grant lives as long as its session may; an app's no longer than any other grant.
  const grantEnd = appId === undefined ? sessionEnd : Math.min(sessionEnd, ctx.now() + TTL.Grant * 1000);
  const accountId = String(ctx.actor.id);
  const grant = new ctx.provider.Grant({ accountId, clientId: code.clientId, expiresIn: Math.ceil((grantEnd - ctx.now()) / 1000) } as never);
  const scope = grantedScope(code.params?.scope);
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  if (appId === undefined) await bindCliGrant(ctx.db, { grantId, sessionId, userId: ctx.actor.id, expiresAt: grantEnd });
  else await bindGrantToSession(ctx.db, { grantId, sessionId, userId: ctx.actor.id, appId, latestEnd: grantEnd });
  Object.assign(code, {
    accountId,
    authTime: Math.floor(signedInAt / 1000),
    acr: acrOf(amr),
    ...(amr.length > 0 ? { amr } : {}),
    grantId,
    scope,
  });
  await code.save();
}

/** Refuses the device: its next poll is answered `access_denied`. */
export async function denyDeviceRequest(ctx: DeviceContext, userCode: string): Promise<void> {
  const code = await openRequest(ctx, userCode);
  await takeDecision(ctx, code);
  await refuse(code, 'the user denied the request');
  const name = deviceSessionName(code.clientId, code.deviceInfo?.host ?? '');
  await logEvent(ctx.db, ctx, { type: 'device.deny', event: `denied the sign-in of ${name} (requested from ${code.deviceInfo?.ip ?? 'an unknown address'})` });
}

function grantedScope(requested: unknown): string {
  const wanted = typeof requested === 'string' ? requested.split(' ') : [];
  const scopes = OIDC_SCOPES.filter((scope) => wanted.includes(scope));
  return scopes.join(' ');
}

async function takeDecision(ctx: DeviceContext, code: DeviceCodeLike): Promise<void> {
  const decided = await decide(ctx.db, { id: code.jti, expiresAt: (code.exp ?? 0) * 1000 + DEVICE_CODE_GRACE_MS }, ctx.now());
  if (!decided) throw new ApiError('conflict', 'this code has been used already');
}

async function refuse(code: DeviceCodeLike, description: string): Promise<void> {
  Object.assign(code, { error: 'access_denied', errorDescription: description });
  await code.save();
}

/** The open request of a code, counting the lookup against the caller; a wrong code counts against the request it nearly is. */
async function openRequest(ctx: DeviceContext, userCode: string): Promise<DeviceCodeLike> {
  const now = ctx.now();
  const hit = await hitRateLimit(
    ctx.db,
    { kind: 'device-code', limit: DEVICE_LOOKUPS_PER_USER, windowMs: LOOKUP_WINDOW_MS },
    { subject: String(ctx.actor.id), now },
  );
  if (!hit.allowed) {
    const retryAfter = Math.max(1, Math.ceil((hit.windowStart + LOOKUP_WINDOW_MS - now) / 1000));
    throw new ApiError('too_many_requests', `too many device codes tried; try again in ${Math.ceil(retryAfter / 60)} minutes`, { retryAfter });
  }
  const typed = normalize(userCode);
  const code = typed.length === 0 ? undefined : await codes(ctx).findByUserCode(typed, { ignoreExpiration: true });
  if (!code) {
    await countAgainstNearest(ctx, typed);
    throw new ApiError('not_found', 'no device asks with this code: check the code the device shows');
  }
  if (code.isExpired) throw new ApiError('not_found', 'this code has expired: start again on the device');
  if (code.error || code.accountId || code.inFlight) throw new ApiError('conflict', 'this code has been used already');
  return code;
}

/** One character off an open request's code: a typo of that code, counted against it; the fifth voids it. */
async function countAgainstNearest(ctx: DeviceContext, typed: string): Promise<void> {
  if (typed.length !== 8) return;
  const open = await openDeviceCodes(ctx.db, ctx.now() + DEVICE_CODE_GRACE_MS);
  for (const candidate of open.filter((row) => oneOff(row.userCode, typed))) {
    const failures = await countWrongCode(ctx.db, { id: candidate.id, expiresAt: candidate.expiresAt });
    if (failures < DEVICE_CODE_MAX_FAILURES) continue;
    const code = await codes(ctx).find(candidate.id, { ignoreExpiration: true, ignoreSessionBinding: true });
    if (!code || code.error || code.accountId || !(await decide(ctx.db, { id: candidate.id, expiresAt: candidate.expiresAt }, ctx.now()))) continue;
    await refuse(code, `its code was typed wrong ${DEVICE_CODE_MAX_FAILURES} times`);
    const name = deviceSessionName(code.clientId, code.deviceInfo?.host ?? '');
    await logEvent(ctx.db, ctx, { type: 'device.void', event: `voided the sign-in of ${name}: its code was typed wrong ${DEVICE_CODE_MAX_FAILURES} times` });
  }
}

function oneOff(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let differences = 0;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) differences += 1;
  return differences === 1;
}
