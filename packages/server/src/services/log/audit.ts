/**
 * The auth event log (docs/event-log.md): one row per login, logout, registration, Google
 * sign-in and admin change: its type (core's catalogue), who did it (the actor), the client and
 * user it concerns, the address and user agent.
 */
import { eventArea, type CurrentUser, type EventType, type LogEntry } from '@tools-portal/core';
import type { Knex } from 'knex';
import type { Origin } from '../support/context.js';
import { sha256 } from '../support/secrets.js';
import { queueDeliveries } from '../webhooks/fan-out.js';

/** Who did something, and from where; every service that changes data takes one (a ServiceContext is one). */
export interface Audit extends Origin {
  /** Who did it; null when anonymous (a failed login, a denied request). */
  actor: CurrentUser | null;
  /** The API key the actor called with, if one: its refusals collapse apart from the session's (`logRepeated`). */
  apiKeyId?: number;
  /** Who acted when no user did (an access review closing itself): written as the entry's actor. */
  actorName?: string;
}

export interface EventSubject {
  client?: string;
  user?: string;
}

const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

const MINUTE_MS = 60 * 1000;

/** The longest URL an entry's text carries (docs/event-log.md); a longer one ends in `…` at this length. */
const MAX_LOGGED_URL = 512;

/** A URL (or anything a caller sent as one) for an entry's text: at most MAX_LOGGED_URL characters. */
export const clipUrl = (url: string) => (url.length > MAX_LOGGED_URL ? `${url.slice(0, MAX_LOGGED_URL - 1)}…` : url);

// Whatever looks like an absolute URL in a text, up to the next white space.
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/\S*/gi;

/** Cuts every URL in an entry's text to MAX_LOGGED_URL characters. */
const clipUrlsIn = (text: string) => text.replace(URL_IN_TEXT, clipUrl);

/** One event to log: its type (core's catalogue), its text, and the client and user it concerns (default: the actor's). */
export interface NewEvent {
  type: EventType;
  event: string;
  subject?: EventSubject;
}

function eventRow(audit: Audit, { type, event, subject }: NewEvent) {
  return {
    at: Date.now(),
    type,
    area: eventArea(type),
    actor: clip(audit.actor?.email ?? audit.actorName ?? '', 254),
    client: clip(subject?.client ?? audit.actor?.client.name ?? '', 200),
    user: clip(subject?.user ?? audit.actor?.email ?? '', 254),
    event: clip(clipUrlsIn(event), 1000),
    ip: clip(audit.ip, 64),
    user_agent: clip(audit.userAgent, 512),
  };
}

/**
 * Records one event of `type`, done by `audit.actor`; the subject (the client and user it is
 * about) defaults to the actor. Pass the transaction of the change it records, so that both
 * commit or neither does: the webhook deliveries of the entry are written with it. Answers the
 * entry's id.
 */
export async function logEvent(db: Knex, audit: Audit, entry: NewEvent): Promise<number> {
  const row = eventRow(audit, entry);
  const [inserted] = await db('auth_log').insert(row).returning('id');
  const id = Number(typeof inserted === 'object' ? inserted.id : inserted);
  await queueDeliveries(db, { logId: id, type: row.type, now: row.at, dueAt: row.at });
  return id;
}

/** The group of a repeated event within the current minute (the default of `logRepeated`). */
export const thisMinute = (now = Date.now()) => `minute ${Math.floor(now / MINUTE_MS)}`;

/** A group of `logRepeated` that ends at a known time (a rate limit's window): its count is final then. */
export interface RepeatGroup {
  key: string;
  endsAt: number;
}

/** The group of a rate limit's window starting at `windowStart`. */
export const inWindow = (windowStart: number, windowMs: number): RepeatGroup => ({ key: `window ${windowStart}`, endsAt: windowStart + windowMs });

// A counted entry is delivered to webhooks this long after its group ends: requests that began in
// the group and commit a moment later are counted in it.
const COUNT_SETTLES_MS = 5_000;

function groupOf(group: string | RepeatGroup | undefined, now: number): RepeatGroup {
  if (typeof group === 'object') return group;
  if (group === undefined) return { key: thisMinute(now), endsAt: (Math.floor(now / MINUTE_MS) + 1) * MINUTE_MS };
  return { key: group, endsAt: now + MINUTE_MS };
}

/**
 * An event of `logRepeated` whose text carries details the caller chooses (a URL, a name asked
 * for): `text` is written, `sameAs` decides which occurrences are the same.
 */
export interface RepeatedEvent {
  text: string;
  sameAs: string;
}

/**
 * Records an event that a caller can repeat at will (a `/verify` or OpenID Connect refusal, a
 * refused Google sign-in): the same event by the same caller in the same group (by default the
 * same minute) is one row whose `count` grows. The caller is the signed-in user (and the API key
 * it used, if any) or, anonymous, the address. One upsert on the row's unique `collapse_key`
 * does it, so the first is written at once and concurrent requests and every instance sharing the
 * database add to the same row. The row keeps the time, text, address, user agent and subject of
 * the first occurrence. The first occurrence queues the entry's webhook deliveries, due when the
 * group has ended (a string group: a minute after), so that they carry the final count.
 */
export async function logRepeated(
  db: Knex,
  audit: Audit,
  { type, event, group, subject }: Omit<NewEvent, 'event'> & { event: string | RepeatedEvent; group?: string | RepeatGroup },
): Promise<void> {
  const { text, sameAs } = typeof event === 'string' ? { text: event, sameAs: event } : event;
  const row = eventRow(audit, { type, event: text, subject });
  const { key, endsAt } = groupOf(group, row.at);
  const caller = audit.actor ? ['user', audit.actor.id, audit.apiKeyId ?? null] : ['address', row.ip];
  const collapseKey = sha256(JSON.stringify([key, row.type, ...caller, row.client, row.user, sameAs]));
  const [written] = await db('auth_log')
    .insert({ ...row, count: 1, collapse_key: collapseKey })
    .onConflict('collapse_key')
    .merge({ count: db.raw('auth_log.count + 1') })
    .returning(['id', 'count']);
  if (written && Number(written.count) === 1) {
    await queueDeliveries(db, { logId: Number(written.id), type: row.type, now: row.at, dueAt: Math.max(endsAt, row.at) + COUNT_SETTLES_MS });
  }
}

export const LOG_COLUMNS = ['id', 'at', 'type', 'client', 'user', 'actor', 'event', 'ip', 'user_agent', 'count'] as const;

export interface LogRow {
  id: number;
  at: number | string;
  type: string;
  client: string;
  user: string;
  actor: string;
  event: string;
  ip: string;
  user_agent: string;
  count: number | string;
}

/** The presenter of a log row: the fields of core's LogEntry, nothing else. */
export function toLogEntry(row: LogRow): LogEntry {
  return {
    id: Number(row.id),
    timestamp: new Date(Number(row.at)).toISOString(),
    type: row.type,
    client: row.client,
    user: row.user,
    actor: row.actor,
    event: row.event,
    ip: row.ip,
    userAgent: row.user_agent,
    count: Number(row.count),
  };
}
