/**
 * A route is a declaration: method, path, who may call it, and a thin handler that parses input,
 * calls one service and presents the answer. The list of declarations is what the permission
 * tests walk, so a new route cannot be left out of them.
 */
import { invalidInput, parse, pathId, unauthenticated, type Access, type CurrentUser, type z } from '@tools-portal/core';
import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { OidcProvider } from '../oidc/provider.js';
import type { Audit } from '../services/audit.js';
import type { AuthCache } from '../services/auth-cache.js';
import type { PasswordHasher } from '../services/passwords.js';
import type { SecretBox } from '../services/secret-box.js';
import type { Principal } from '../services/sessions.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Deps {
  db: Knex;
  config: Config;
  hasher: PasswordHasher;
  logger: Logger;
  /** The forward-auth cache of sessions, grants and apps (services/auth-cache.ts). */
  authCache: AuthCache;
  /** Encrypts secrets that must be read back, with SECRET_KEY (services/secret-box.ts). */
  secrets: SecretBox;
  /** The OpenID provider of this instance (oidc/provider.ts). */
  oidc: OidcProvider;
  /** Prometheus metrics of this portal (metrics.ts). */
  metrics: Metrics;
}

export interface RouteSpec {
  method: Method;
  /** Path below the API prefix, in @koa/router syntax; a trailing slash is optional on every path. */
  path: string;
  access: Access;
  summary: string;
  /** The JSON body's schema (core's), for the OpenAPI document; handlers still parse with bodyOf. */
  body?: z.ZodType;
  /** Query parameters, an object schema (for the OpenAPI document). */
  query?: z.ZodObject;
  /**
   * The success answer, for the OpenAPI document (openapi.ts): status (200 unless said) and body
   * schema (core's answers.ts). A route without one is documented with a generic JSON answer.
   */
  response?: RouteResponse;
  /**
   * Refuses API keys (403 `session_required`): calls on credentials, i.e. API keys, factors,
   * sessions or the password (docs/security.md).
   */
  sessionOnly?: true;
  /** Allowed to a session restricted to enrolling a second factor (MFA_REQUIRED). */
  duringEnrolment?: true;
  handler(ctx: Context, deps: Deps): Promise<void>;
}

interface RouteResponse {
  status?: 200 | 201 | 204;
  schema?: z.ZodType;
  description?: string;
}

export function principalOf(ctx: Context): Principal | null {
  return (ctx.state.principal as Principal | null | undefined) ?? null;
}

/** The calling user; only for routes whose access is not public. */
export function actorOf(ctx: Context): CurrentUser {
  const principal = principalOf(ctx);
  if (!principal) throw unauthenticated();
  return principal.user;
}

export function clientInfo(ctx: Context): { ip: string; userAgent: string } {
  return { ip: ctx.ip ?? '', userAgent: ctx.get('user-agent') };
}

export function auditOf(ctx: Context): Audit & { actor: CurrentUser } {
  return { actor: actorOf(ctx), ...clientInfo(ctx) };
}

export function bodyOf<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  return parse(schema, (ctx.request as { body?: unknown }).body);
}

/** A numeric path parameter; anything but plain digits is a 400 naming the parameter. */
export function idParam(ctx: Context, name: string): number {
  const result = pathId.safeParse(ctx.params[name] ?? '');
  if (!result.success) throw invalidInput(name, 'must be a positive integer');
  return result.data;
}

export function created(ctx: Context, body: unknown): void {
  ctx.status = 201;
  ctx.body = body;
}

export function noContent(ctx: Context): void {
  ctx.status = 204;
}
