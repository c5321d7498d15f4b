/** The one table from failures to exit codes (documented in `--help` and docs/cli.md). */
import { ApiError, type ErrorCode } from '@tools-portal/core/errors';
import type { Result } from './output.js';

const EXIT = {
  ok: 0,
  refused: 1,
  usage: 2,
  denied: 3,
  notFound: 4,
  failure: 5,
  /** `toolsctl plan --check`: the portal differs from the file. */
  planDiffers: 5,
  deviceDenied: 6,
  deviceExpired: 7,
} as const;

const byErrorCode: Record<ErrorCode, number> = {
  invalid_input: EXIT.refused,
  conflict: EXIT.refused,
  payload_too_large: EXIT.refused,
  too_many_requests: EXIT.refused,
  unauthenticated: EXIT.denied,
  forbidden: EXIT.denied,
  mfa_enrollment_required: EXIT.denied,
  session_required: EXIT.denied,
  not_found: EXIT.notFound,
  unavailable: EXIT.failure,
  internal: EXIT.failure,
};

export const EXIT_CODES_HELP = `Exit codes:
  0  success
  1  the server refused the request (bad input, duplicate, rate limited)
  2  usage error (bad arguments, a delete not confirmed)
  3  not logged in, or not allowed
  4  not found
  5  server or network failure; \`toolsctl plan --check\`: the portal differs from the file
  6  \`toolsctl login\`: the sign-in was denied on the verification page
  7  \`toolsctl login\`: the code expired before the sign-in was allowed`;

/** A mistake in how toolsctl was called, found before or without asking the server. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `toolsctl plan --check` found changes: the plan is still printed (`result`), then the run exits 5. */
export class PlanDiffersError extends Error {
  override readonly name = 'PlanDiffersError';
  constructor(
    readonly result: Result,
    message: string,
  ) {
    super(message);
  }
}

/** Not logged in, found before asking the server (no token configured). */
export class NotLoggedInError extends Error {
  override readonly name = 'NotLoggedInError';
}

/** How a device sign-in (`toolsctl login`) ended without tokens: denied in the browser, or the code ran out. */
export class DeviceLoginError extends Error {
  override readonly name = 'DeviceLoginError';
  constructor(
    readonly outcome: 'denied' | 'expired',
    message: string,
  ) {
    super(message);
  }
}

const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

export const isCommanderError = (error: unknown): error is Error & { code: string; exitCode: number } =>
  error instanceof Error && String((error as { code?: unknown }).code).startsWith('commander.');

// Inquirer's answer to Ctrl+C at a prompt.
const isPromptCancelled = (error: unknown) => error instanceof Error && error.name === 'ExitPromptError';

export function exitCodeOf(error: unknown): number {
  if (isCommanderError(error)) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (error instanceof UsageError || isPromptCancelled(error)) return EXIT.usage;
  if (error instanceof NotLoggedInError) return EXIT.denied;
  if (error instanceof PlanDiffersError) return EXIT.planDiffers;
  if (error instanceof DeviceLoginError) return error.outcome === 'denied' ? EXIT.deviceDenied : EXIT.deviceExpired;
  if (isApiError(error)) return byErrorCode[error.code] ?? EXIT.failure;
  return EXIT.failure;
}

/** The line printed for a failure: the server's message, never a stack trace. */
export function messageOf(error: unknown): string {
  if (isApiError(error) && error.details?.retryAfter) return `${error.message} (try again in ${error.details.retryAfter} s)`;
  if (isPromptCancelled(error)) return 'cancelled';
  if (error instanceof Error) return error.message;
  return String(error);
}
