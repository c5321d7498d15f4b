/**
 * Database driver errors translated into domain errors, per dialect, so that no raw driver error
 * reaches a client.
 */
import { ApiError } from '@tools-portal/core';

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', '57P01', '57P03', '08000', '08001', '08003', '08006']);

/** A domain error for a driver error we recognise; undefined for anything else (a bug). */
export function translateDatabaseError(error: unknown, conflictMessage = 'already exists'): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const driver = error as DriverError;
  const code = driver?.code ?? '';
  const message = driver?.message ?? '';
  // SQLite (better-sqlite3 codes)
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new ApiError('conflict', conflictMessage);
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return new ApiError('not_found', 'a referenced record does not exist');
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return new ApiError('unavailable', 'the database is busy, try again');
  // PostgreSQL (SQLSTATE)
  if (code === '23505') return new ApiError('conflict', conflictMessage);
  if (code === '23503') return new ApiError('not_found', 'a referenced record does not exist');
  if (code === '40001' || code === '40P01') return new ApiError('unavailable', 'the database is busy, try again');
  // Either: the database cannot be reached
  if (CONNECTION_CODES.has(code) || /Knex: Timeout acquiring a connection|Connection terminated|connect ECONNREFUSED/.test(message)) {
    return new ApiError('unavailable', 'the database is unavailable');
  }
  return undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as DriverError)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
