/**
 * Database driver errors translated into domain errors, per dialect, so that no raw driver error
 * reaches a client: duplicates are `conflict`, a missing referenced row is `not_found`, and a
 * database that cannot be reached or is overloaded is `unavailable` (503, try again).
 */
import { ApiError } from '@tools-portal/core';

interface DriverError {
  name?: string;
  code?: string;
  message?: string;
  /** pg: the table and `Key (column, …)=(value, …) already exists.` of a unique violation. */
  table?: string;
  detail?: string;
  /** Node's AggregateError (one attempt per address of a host name) carries the attempts here. */
  errors?: unknown[];
}

type Kind = 'conflict' | 'missing_reference' | 'bad_value' | 'busy' | 'unreachable';

// better-sqlite3: SQLite extended result codes.
const sqliteCodes: Record<string, Kind> = {
  SQLITE_CONSTRAINT_UNIQUE: 'conflict',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'conflict',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'missing_reference',
  SQLITE_TOOBIG: 'bad_value',
  SQLITE_MISMATCH: 'bad_value',
  SQLITE_BUSY: 'busy',
  SQLITE_BUSY_SNAPSHOT: 'busy',
  SQLITE_BUSY_RECOVERY: 'busy',
  SQLITE_LOCKED: 'busy',
  SQLITE_CANTOPEN: 'unreachable',
  SQLITE_IOERR: 'unreachable',
  SQLITE_FULL: 'unreachable',
  SQLITE_READONLY: 'unreachable',
};

// pg: SQLSTATE codes (https://www.postgresql.org/docs/current/errcodes-appendix.html).
const postgresCodes: Record<string, Kind> = {
  '23505': 'conflict', // unique_violation
  '23503': 'missing_reference', // foreign_key_violation
  // Values SQLite would take but PostgreSQL refuses; validation in core should stop them first.
  '22001': 'bad_value', // string_data_right_truncation (longer than the column)
  '22003': 'bad_value', // numeric_value_out_of_range (an id past 32 bits)
  '22021': 'bad_value', // character_not_in_repertoire (U+0000 in text)
  '22P05': 'bad_value', // untranslatable_character
  '40001': 'busy', // serialization_failure
  '40P01': 'busy', // deadlock_detected
  '55P03': 'busy', // lock_not_available
  '57014': 'busy', // query_canceled (statement_timeout)
  '53300': 'unreachable', // too_many_connections
  '57P01': 'unreachable', // admin_shutdown
  '57P02': 'unreachable', // crash_shutdown
  '57P03': 'unreachable', // cannot_connect_now (starting up, shutting down)
  '3D000': 'unreachable', // invalid_catalog_name: the database does not exist (yet)
  '28000': 'unreachable', // invalid_authorization_specification
  '28P01': 'unreachable', // invalid_password
};
// Class 08 (connection exception) and 53 (insufficient resources), whatever the subclass.
const postgresClasses: Record<string, Kind> = { '08': 'unreachable', '53': 'unreachable' };

// Node's socket errors, raised by pg when it cannot reach or loses the server.
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);

// Errors without a code: Knex's pool giving up, and pg losing its connection.
const unreachableMessages = [
  /Knex: Timeout acquiring a connection/,
  /Connection terminated/,
  /Connection ended unexpectedly/,
  /Client has encountered a connection error and is not queryable/,
  /timeout exceeded when trying to connect/,
];

function kindOf(error: unknown): Kind | undefined {
  const driver = (error ?? {}) as DriverError;
  const code = typeof driver.code === 'string' ? driver.code : '';
  const kind = sqliteCodes[code] ?? postgresCodes[code] ?? (/^[0-9A-Z]{5}$/.test(code) ? postgresClasses[code.slice(0, 2)] : undefined);
  if (kind) return kind;
  if (code.startsWith('SQLITE_IOERR')) return 'unreachable';
  if (socketCodes.has(code) || driver.name === 'KnexTimeoutError') return 'unreachable';
  if (unreachableMessages.some((pattern) => pattern.test(driver.message ?? ''))) return 'unreachable';
  if (Array.isArray(driver.errors) && driver.errors.some((inner) => kindOf(inner) === 'unreachable')) return 'unreachable';
  return undefined;
}

/** The table and columns of a unique violation, as each dialect reports them. */
function uniqueViolationOf(error: unknown): { table: string; columns: string[] } | undefined {
  const driver = (error ?? {}) as DriverError;
  // SQLite: `UNIQUE constraint failed: user_apps.user_id, user_apps.app_id`
  const sqlite = /(?:UNIQUE|PRIMARY KEY) constraint failed: (.+)$/.exec(driver.message ?? '');
  if (sqlite) {
    const qualified = sqlite[1].split(',').map((name) => name.trim().split('.'));
    return { table: qualified[0][0], columns: qualified.map((parts) => parts[parts.length - 1]) };
  }
  // PostgreSQL: the table, and the columns in `Key (user_id, app_id)=(1, 2) already exists.`
  const postgres = /^Key \((.+?)\)=/.exec(driver.detail ?? '');
  if (driver.code === '23505' && driver.table) {
    return { table: driver.table, columns: postgres ? postgres[1].split(',').map((name) => name.trim().replace(/^"|"$/g, '')) : [] };
  }
  return undefined;
}

/**
 * What a unique violation means to a caller, by table and columns: the input field at fault
 * (`details.field`), when one is, and the message. Unknown constraints get a generic conflict.
 */
const CONFLICTS: Record<string, { field?: string; message: string }> = {
  'apps.name': { field: 'name', message: 'an app with this name already exists' },
  'clients.name': { field: 'name', message: 'a client with this name already exists' },
  'users.email': { field: 'email', message: 'a user with this email already exists' },
  'invites.email': { field: 'email', message: 'an open invite for this email already exists' },
  'user_apps.user_id,app_id': { field: 'appid', message: 'the user already has this app' },
  'teams.name_key': { field: 'name', message: 'a team with this name already exists' },
  'team_members.team_id,user_id': { field: 'userid', message: 'the user is in this team already' },
  'team_apps.team_id,app_id': { field: 'appid', message: 'the team has this app already' },
  'api_keys.key_hash': { field: 'token', message: 'this API key already exists' },
  // Two sign-ins racing to link one Google account to two users (services/sign-in/google-sign-in.ts).
  'users.google_sub': { message: 'this Google account is linked to another user' },
  // The partial index access_requests_open: one open request per user and app.
  'access_requests.user_id,app_id': { message: 'you have an open request for this app already' },
};

function conflictOf(error: unknown): ApiError {
  const violation = uniqueViolationOf(error);
  const known = violation && CONFLICTS[`${violation.table}.${violation.columns.join(',')}`];
  const field = known?.field;
  return new ApiError('conflict', known?.message ?? 'already exists', field ? { field } : {});
}

/**
 * A domain error for a driver error we recognise; undefined for anything else (a bug). The one
 * translation of driver errors: the error middleware and forward auth's fast path call it for
 * whatever a service let through, so services need no try/catch of their own.
 */
export function translateDatabaseError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  switch (kindOf(error)) {
    case 'conflict':
      return conflictOf(error);
    case 'missing_reference':
      return new ApiError('not_found', 'a referenced record does not exist');
    case 'bad_value':
      return new ApiError('invalid_input', 'a value is out of range or cannot be stored');
    case 'busy':
      return new ApiError('unavailable', 'the database is busy, try again');
    case 'unreachable':
      return new ApiError('unavailable', 'the database is unavailable');
    default:
      return undefined;
  }
}

export function isUniqueViolation(error: unknown): boolean {
  return kindOf(error) === 'conflict';
}

/**
 * Creating a table or schema failed because it exists: duplicate_table, duplicate_schema, or
 * duplicate_object (the table's row type, when two creators race); SQLite says so in words.
 */
export function isAlreadyExists(error: unknown): boolean {
  const { code, message } = (error ?? {}) as DriverError;
  if (code === '42P07' || code === '42P06' || code === '42710') return true;
  return code === 'SQLITE_ERROR' && /already exists/.test(message ?? '');
}

/** The database could not be reached at all (as opposed to refusing a statement). */
export function isUnreachable(error: unknown): boolean {
  return kindOf(error) === 'unreachable';
}
