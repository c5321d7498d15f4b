/**
 * The auth event log (docs/product.md, Event log): one row per login, logout, registration, Google
 * sign-in and admin change, with the client and user it concerns, the address and user agent.
 */
import type { CurrentUser, LogEntry } from '@tools-portal/core';
import type { Knex } from 'knex';
import { sha256 } from './secrets.js';

/** Who did something, and from where; every service that changes data takes one. */
export interface Audit {
  actor: CurrentUser | null;
  ip: string;
  userAgent: string;
}

export interface EventSubject {
  client?: string;
  user?: string;
}

const clip = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

const MINUTE_MS = 60 * 1000;

function eventRow(audit: Audit, event: string, subject?: EventSubject) {
  return {
    at: Date.now(),
    client: clip(subject?.client ?? audit.actor?.client.name ?? '', 200),
    user: clip(subject?.user ?? audit.actor?.email ?? '', 254),
    event: clip(event, 1000),
    ip: clip(audit.ip, 64),
    user_agent: clip(audit.userAgent, 512),
  };
}

/** Records one event; the subject defaults to the actor. */
export async function logEvent(db: Knex, audit: Audit, event: string, subject?: EventSubject): Promise<void> {
  await db('auth_log').insert(eventRow(audit, event, subject));
}

/** The group of a repeated event within the current minute (the default of `logRepeated`). */
export const thisMinute = (now = Date.now()) => `minute ${Math.floor(now / MINUTE_MS)}`;

/**
 * Records an event that anonymous traffic can repeat at will (a `/verify` denial, a refused
 * Google sign-in): the same event from the same address in the same group (by default the same
 * minute) is one row whose `count` grows. One upsert on the row's unique `collapse_key` does it,
 * so concurrent requests and every instance sharing the database add to the same row.
 * The row keeps the time, user agent and subject of the first occurrence.
 */
export async function logRepeated(db: Knex, audit: Audit, event: string, group = thisMinute(), subject?: EventSubject): Promise<void> {
  const row = eventRow(audit, event, subject);
  const collapseKey = sha256(JSON.stringify([group, row.ip, row.client, row.user, row.event]));
  await db('auth_log')
    .insert({ ...row, count: 1, collapse_key: collapseKey })
    .onConflict('collapse_key')
    .merge({ count: db.raw('auth_log.count + 1') });
}

/** A page of the log, newest first; pages count from 1. */
export async function listEvents(db: Knex, page: number, perPage: number): Promise<LogEntry[]> {
  const rows = await db('auth_log')
    .select('id', 'at', 'client', 'user', 'event', 'count')
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage);
  return rows.map((row) => ({
    id: row.id,
    timestamp: new Date(Number(row.at)).toISOString(),
    client: row.client,
    user: row.user,
    event: row.event,
    count: Number(row.count),
  }));
}
