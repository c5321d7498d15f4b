/** Password rules (SPEC section 5, DESIGN.md Passwords). */
import { COMMON_PASSWORDS } from './common-passwords.js';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

/** SPEC section 5, word for word. */
export const PASSWORDS_DONT_MATCH = "Your passwords don't match!";
export const PASSWORD_TOO_SHORT = 'Your password must be at least eight characters long!';
export const PASSWORD_TOO_LONG = `Your password must be at most ${MAX_PASSWORD_LENGTH} characters long!`;
export const PASSWORD_TOO_COMMON = 'This password is one of the most common ones; please choose another.';

const common = new Set(COMMON_PASSWORDS);

// Length is counted in code points, so an emoji counts as one character.
const length = (password: string) => [...password].length;

/** The reason a new password is refused, or null when it is acceptable. Never alters it. */
export function passwordProblem(password: string): string | null {
  if (length(password) < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  if (length(password) > MAX_PASSWORD_LENGTH) return PASSWORD_TOO_LONG;
  if (common.has(password.toLowerCase())) return PASSWORD_TOO_COMMON;
  return null;
}

/** The set-password form's check: both entries first, then the password itself. */
export function newPasswordProblem(password: string, repeated: string): string | null {
  if (password !== repeated) return PASSWORDS_DONT_MATCH;
  return passwordProblem(password);
}
