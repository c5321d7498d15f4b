/**
 * A route is a declaration: method, path, who may call it, its input (path parameters, query,
 * body) and its answer, and a thin handler that gets the input parsed, calls one service and
 * returns the answer. The router (app.ts) parses the input with the declared schemas once; the
 * OpenAPI document and the contract check of every answer read the same declarations. The list of
 * declarations is what the permission tests walk, so a new route cannot be left out of them.
 */
import { invalidInput, parse, pathId, unauthenticated, type Access, type CurrentUser, type z } from '@tools-portal/core';
import type { Context } from 'koa';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { OidcProvider } from '../oidc/provider.js';
import type { AuthCache } from '../services/access/auth-cache.js';
import type { Origin, ServiceContext } from '../services/support/context.js';
import type { PasswordHasher } from '../services/sign-in/passwords.js';
import type { SecretBox } from '../services/support/secret-box.js';
import type { EncodedJson } from '../encoded-json.js';
import type { LastUse } from '../services/access/last-use.js';
import type { Principal } from '../services/sign-in/sessions.js';
import { rawBodyOf } from './raw-body.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Deps {
  db: Knex;
  config: Config;
  hasher: PasswordHasher;
  logger: Logger;
  /** The forward-auth cache of sessions, grants and apps (services/access/auth-cache.ts). */
  authCache: AuthCache;
  /** Encrypts secrets that must be read back, with SECRET_KEY (services/support/secret-box.ts). */
  secrets: SecretBox;
  /** The OpenID provider of this instance (oidc/provider.ts). */
  oidc: OidcProvider;
  /** Prometheus metrics of this portal (metrics.ts). */
  metrics: Metrics;
  /** When each user last used each app, written in batches (services/access/last-use.ts). */
  lastUse: LastUse;
}

/** Path parameters that are not numeric ids (every other `:name` is one: plain digits, else a 400). */
export const STRING_PARAMETERS = ['token'] as const;
type StringParameter = (typeof STRING_PARAMETERS)[number];

type ParameterNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParameterNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** `/app/:appid/user/:userid` → `{appid: number; userid: number}` (`token` stays a string). */
type PathParameters<P extends string> = { [K in ParameterNames<P>]: K extends StringParameter ? string : number };

/**
 * A body that is not JSON: the router reads it as bytes (413 past `limit`, naming `field`) and
 * hands the handler a Buffer; the handler judges its content.
 */
export interface RawBody {
  raw: true;
  limit: number;
  field: string;
  /** The content types it may have, for the OpenAPI document. */
  contentTypes: readonly string[];
}

export const rawBody = (field: string, limit: number, contentTypes: readonly string[]): RawBody => ({ raw: true, limit, field, contentTypes });

type Parsed<S, Otherwise> = S extends RawBody ? Buffer : S extends z.ZodType ? z.output<S> : Otherwise;

/** What the router hands a handler: the parsed path parameters, query and body. */
export interface RouteInput<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
}

/** What a handler returns: the declared answer (or it encoded once), nothing for 204, else any body it sends. */
type AnswerOf<R> = R extends { schema: infer S extends z.ZodType } ? z.input<S> | EncodedJson : R extends { status: 204 } ? void : unknown;

export interface RouteDeclaration<Path extends string, P, Q, B, R extends RouteResponse = RouteResponse> {
  method: Method;
  /** Path below the API prefix, in @koa/router syntax; a trailing slash is optional on every path. */
  path: Path;
  access: Access;
  summary: string;
  /**
   * The path parameters' schema, when they are more than ids: by default every `:name` is an id
   * (plain digits, else a 400 naming it), `:token` a string.
   */
  params?: P;
  /** The query's schema (core's), parsed by the router; its output is `query`. */
  query?: Q;
  /** The JSON body's schema (core's), parsed by the router (a 400 naming the field); or a raw body. */
  body?: B;
  /**
   * The handler reads the request itself, not through the router (why): declared `query` is then
   * what that code reads, for the document only.
   */
  readsRequest?: string;
  /** The success answer: the OpenAPI document and the contract check of every answer use it. */
  response: R;
  /**
   * Refuses API keys (403 `session_required`): calls on credentials, i.e. API keys, factors,
   * sessions or the password (docs/security.md).
   */
  sessionOnly?: true;
  /** Allowed to a session restricted to enrolling a second factor (MFA_REQUIRED). */
  duringEnrolment?: true;
  /**
   * Returns the answer's body, sent with `response.status` (none for 204); a handler that writes
   * the answer itself (headers, a stream, an image) returns undefined.
   */
  handler(
    input: RouteInput<Parsed<P, PathParameters<Path>>, Parsed<Q, Record<string, never>>, Parsed<B, undefined>>,
    ctx: Context,
    deps: Deps,
  ): Promise<AnswerOf<R>>;
}

/** A route as the router, the permission tests and the OpenAPI document see it. */
export type RouteSpec = RouteDeclaration<string, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | RawBody | undefined>;

/** Declares a route: its input types follow from its path and schemas. */
export function route<
  Path extends string,
  const R extends RouteResponse,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | RawBody | undefined = undefined,
>(declaration: RouteDeclaration<Path, P, Q, B, R>): RouteSpec {
  return declaration as unknown as RouteSpec;
}

interface RouteResponse {
  status?: 200 | 201 | 204;
  /** The JSON body's schema (strict: no field it does not name); none for 204 or a `content` answer. */
  schema?: z.ZodType;
  /** A body that is not JSON: its content type (`image/*`, `text/csv`...). */
  content?: readonly string[];
  /** An answer with no body at all though not 204 (forward auth's 200). */
  empty?: true;
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

export function requestOrigin(ctx: Context): Origin {
  return { ip: ctx.ip ?? '', userAgent: ctx.get('user-agent') };
}

/**
 * The services' context of this request (services/support/context.ts): the database, the configuration
 * as policy, the clock, the caller (null when anonymous) with the API key it used, and its origin.
 */
export function serviceContext(ctx: Context, deps: Pick<Deps, 'db' | 'config'>): ServiceContext<Config> {
  const principal = principalOf(ctx);
  return {
    db: deps.db,
    policy: deps.config,
    now: Date.now,
    actor: principal?.user ?? null,
    ...(principal?.apiKeyId === undefined ? {} : { apiKeyId: principal.apiKeyId }),
    ...requestOrigin(ctx),
  };
}

/** The services' context of a route whose access is not public: the caller is known. */
export function actorContext(ctx: Context, deps: Pick<Deps, 'db' | 'config'>): ServiceContext<Config> & { actor: CurrentUser } {
  return { ...serviceContext(ctx, deps), actor: actorOf(ctx) };
}

function bodyOf<S extends z.ZodType>(ctx: Context, schema: S): z.output<S> {
  return parse(schema, (ctx.request as { body?: unknown }).body);
}

/** A numeric path parameter; anything but plain digits is a 400 naming the parameter. */
function idParam(ctx: Context, name: string): number {
  const result = pathId.safeParse(ctx.params[name] ?? '');
  if (!result.success) throw invalidInput(name, 'must be a positive integer');
  return result.data;
}

export const isRaw = (body: z.ZodType | RawBody): body is RawBody => (body as Partial<RawBody>).raw === true;

/** The input of a request as its route declares it: path parameters, then query, then body. */
export async function inputOf(route: RouteSpec, ctx: Context): Promise<RouteInput<unknown, unknown, unknown>> {
  if (route.readsRequest) return { params: {}, query: {}, body: undefined };
  const params = route.params
    ? parse(route.params, ctx.params)
    : Object.fromEntries(
        Object.keys(ctx.params).map((name) => [name, (STRING_PARAMETERS as readonly string[]).includes(name) ? ctx.params[name] : idParam(ctx, name)]),
      );
  const query = route.query ? parse(route.query, ctx.query) : {};
  const body = route.body === undefined ? undefined : isRaw(route.body) ? await rawBodyOf(ctx, route.body.limit, route.body.field) : bodyOf(ctx, route.body);
  return { params, query, body };
}
