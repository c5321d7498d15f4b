/**
 * The auth event log (DESIGN.md, Event log): one row per login, logout, registration, Google
 * sign-in and admin change, with the client and user it concerns, the address and user agent.
 */
import type { CurrentUser, LogEntry } from '@tools-portal/core';
import type { Knex } from 'knex';

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

/** Records one event; the subject defaults to the actor. */
export async function logEvent(db: Knex, audit: Audit, event: string, subject?: EventSubject): Promise<void> {
  await db('auth_log').insert({
    at: Date.now(),
    client: clip(subject?.client ?? audit.actor?.client.name ?? '', 200),
    user: clip(subject?.user ?? audit.actor?.email ?? '', 254),
    event: clip(event, 1000),
    ip: clip(audit.ip, 64),
    user_agent: clip(audit.userAgent, 512),
  });
}

/** A page of the log, newest first; pages count from 1. */
export async function listEvents(db: Knex, page: number, perPage: number): Promise<LogEntry[]> {
  const rows = await db('auth_log')
    .select('id', 'at', 'client', 'user', 'event')
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage);
  return rows.map((row) => ({
    id: row.id,
    timestamp: new Date(Number(row.at)).toISOString(),
    client: row.client,
    user: row.user,
    event: row.event,
  }));
}
