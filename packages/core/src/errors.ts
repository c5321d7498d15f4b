/**
 * Domain errors carry a code, never an HTTP status: the server maps codes to statuses in one
 * table, and the REST client maps answers back to the same class.
 */
export const errorCodes = [
  'invalid_input',
  'unauthenticated',
  'forbidden',
  /** A session restricted to enrolling a second factor (MFA_REQUIRED) called something else. */
  'mfa_enrollment_required',
  /** A call that needs a signed-in session (credentials: keys, factors, sessions, password) came with an API key. */
  'session_required',
  'not_found',
  'conflict',
  'payload_too_large',
  'too_many_requests',
  'unavailable',
  'internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface ErrorDetails {
  /** The input field at fault, for `invalid_input`. */
  field?: string;
  /** Seconds until a retry may succeed, for `too_many_requests`. */
  retryAfter?: number;
  [key: string]: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = details;
  }

  toJSON(): { error: { code: ErrorCode; message: string; details?: ErrorDetails } } {
    const error: { code: ErrorCode; message: string; details?: ErrorDetails } = {
      code: this.code,
      message: this.message,
    };
    if (Object.keys(this.details).length > 0) error.details = this.details;
    return { error };
  }
}

export const invalidInput = (field: string, message: string) => new ApiError('invalid_input', `${field}: ${message}`, { field });
export const notFound = (what: string, id: number | string) => new ApiError('not_found', `${what} ${id} does not exist`);
export const conflict = (message: string) => new ApiError('conflict', message);
export const unauthenticated = (message = 'not logged in') => new ApiError('unauthenticated', message);
export const forbidden = (message = 'admins only') => new ApiError('forbidden', message);
/** docs/security.md: an API key acts as its owner for everything but credentials. */
export const sessionRequired = (message = 'this call refuses API keys: sign in to manage API keys, factors, sessions or the password') =>
  new ApiError('session_required', message);

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}

/** The one table from error codes to HTTP statuses; the client reads it backwards. */
export const httpStatus: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  mfa_enrollment_required: 403,
  session_required: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

export function codeForStatus(status: number): ErrorCode {
  const match = errorCodes.find((code) => httpStatus[code] === status);
  if (match) return match;
  return status >= 500 ? 'internal' : 'invalid_input';
}
