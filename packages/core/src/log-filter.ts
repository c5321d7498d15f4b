/**
 * Filters of the event log (docs/event-log.md), shared by the server (which checks them), the
 * typed client, the web screen and toolsctl: query parameters of `GET /log/{page}/{perPage}`,
 * `GET /log/count` and `GET /log/export`.
 */
import { invalidInput } from './errors.js';

export interface LogFilter {
  /** The user the event is about: an exact email or name, any case. */
  user?: string;
  /** The client the event is about: an exact name, any case. */
  client?: string;
  /** Who did it: an exact email, any case. */
  actor?: string;
  /** A type (`login.failure`) or a prefix of types ending in `.` (`login.`). */
  type?: string;
  /** A piece of the event text, any case. */
  q?: string;
  /** ISO 8601: `2026-11-23` (the day's start, UTC) or a date and time (UTC unless it names an offset). */
  from?: string;
  /** ISO 8601: `2026-11-23` (up to that day's end, UTC) or a date and time, inclusive. */
  to?: string;
}

export const LOG_FILTER_KEYS = ['user', 'client', 'actor', 'type', 'q', 'from', 'to'] as const satisfies ReadonlyArray<keyof LogFilter>;

/** A filter checked and ready for a query: times as milliseconds, `to` exclusive. */
export interface CheckedLogFilter {
  user?: string;
  client?: string;
  actor?: string;
  type?: string;
  q?: string;
  fromMs?: number;
  toMs?: number;
}

const LIMITS: Record<Exclude<keyof LogFilter, 'from' | 'to'>, number> = { user: 254, client: 200, actor: 254, type: 64, q: 200 };
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const TYPE = /^[a-z][a-z_]*(\.[a-z][a-z_]*)*\.?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Milliseconds of an ISO 8601 date or date-time; a bare date is its day's start (or, `end`, the next day's), UTC. */
function instant(name: string, value: string, end: boolean): number {
  let ms = Number.NaN;
  const date = DATE.exec(value);
  if (date) {
    ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    // Date.UTC rolls 2026-02-31 over into March: that is no date.
    if (new Date(ms).toISOString().slice(0, 10) !== value) ms = Number.NaN;
    else if (end) ms += DAY_MS;
  } else if (DATE_TIME.test(value)) {
    ms = Date.parse(/[zZ]|[+-]\d{2}:\d{2}$/.test(value) ? value : `${value}Z`);
    if (end && !Number.isNaN(ms)) ms += 1;
  }
  if (Number.isNaN(ms)) throw invalidInput(name, 'must be an ISO 8601 date (2026-11-23) or date and time (2026-11-23T10:00:00Z)');
  return ms;
}

/**
 * Checks the query parameters of a log request: unknown parameters, repeated ones and bad values
 * are an `invalid_input` naming the parameter. Empty values count as not given.
 */
export function checkLogFilter(query: Record<string, unknown>, allowed: readonly string[] = []): CheckedLogFilter {
  const filter: CheckedLogFilter = {};
  for (const [name, raw] of Object.entries(query)) {
    if (allowed.includes(name)) continue;
    if (!(LOG_FILTER_KEYS as readonly string[]).includes(name)) throw invalidInput(name, 'is not a filter of the log (user, client, actor, type, q, from, to)');
    if (typeof raw !== 'string') throw invalidInput(name, 'must be given once');
    const value = raw.trim();
    if (value === '') continue;
    if (CONTROL_CHARS.test(value)) throw invalidInput(name, 'must not contain control characters');
    if (name === 'from') filter.fromMs = instant(name, value, false);
    else if (name === 'to') filter.toMs = instant(name, value, true);
    else {
      const key = name as keyof typeof LIMITS;
      if (value.length > LIMITS[key]) throw invalidInput(name, `must be at most ${LIMITS[key]} characters`);
      if (key === 'type' && !TYPE.test(value)) throw invalidInput(name, 'must be an event type (login.failure) or a prefix ending in . (login.)');
      filter[key] = value;
    }
  }
  if (filter.fromMs !== undefined && filter.toMs !== undefined && filter.toMs <= filter.fromMs) throw invalidInput('to', 'must not be before from');
  return filter;
}

/** The most `GET /log/count?max=` counts to: it answers min(matches, max), and stops there. */
export const LOG_COUNT_MAX_LIMIT = 1_000_000;

/** `max` of `GET /log/count`: undefined when not given, else a whole number from 1 to LOG_COUNT_MAX_LIMIT. */
export function checkCountLimit(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = typeof raw === 'string' && /^\d{1,7}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(value >= 1 && value <= LOG_COUNT_MAX_LIMIT)) throw invalidInput('max', `must be a whole number from 1 to ${LOG_COUNT_MAX_LIMIT}`);
  return value;
}

/** The query string of a filter (with a leading `?`, or empty), for the client. */
export function logFilterQuery(filter: LogFilter = {}, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of LOG_FILTER_KEYS) {
    const value = filter[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
