/**
 * Password rules every client may run (docs/product.md §5): the length and match
 * checks with its words. The rules that need the big common-password list live in
 * `@tools-portal/core/password-rules`, which the web bundle never loads.
 */

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

/** docs/product.md §5, word for word. */
export const PASSWORDS_DONT_MATCH = "Your passwords don't match!";
export const PASSWORD_TOO_SHORT = 'Your password must be at least eight characters long!';
export const PASSWORD_TOO_LONG = `Your password must be at most ${MAX_PASSWORD_LENGTH} characters long!`;
export const PASSWORD_TOO_COMMON = 'This password is one of the most common ones; please choose another.';
export const PASSWORD_COMMON_WITH_ADDITIONS = 'This password is a common one with digits or symbols added; please choose another.';
export const PASSWORD_CONTAINS_EMAIL = 'Your password must not contain your email address.';
/** The portal's name when PORTAL_NAME is not set (docs/configuration.md). */
export const DEFAULT_PORTAL_NAME = 'Tools-Server';
/** The refusal of a password that holds the portal's name (PORTAL_NAME). */
export const passwordContainsPortalName = (portalName: string) => `Your password must not contain ${portalName}.`;
export const PASSWORD_CONTAINS_PRODUCT = passwordContainsPortalName(DEFAULT_PORTAL_NAME);

/**
 * The rules a new password must pass, shown before the first attempt (docs/product.md §5): ids
 * that each reader words (the web in its language, docs/web.md Languages), and their English lines.
 */
export const PASSWORD_RULES = ['length', 'common', 'personal'] as const;
export type PasswordRule = (typeof PASSWORD_RULES)[number];

const RULE_LINES: Record<PasswordRule, (portalName: string) => string> = {
  length: () => 'At least eight characters.',
  common: () => 'Not one of the most common passwords, nor one with digits or symbols added.',
  personal: (portalName) => `Not containing your email address or ${portalName}.`,
};

export const passwordRuleLines = (portalName: string): string[] => PASSWORD_RULES.map((rule) => RULE_LINES[rule](portalName));

// Length is counted in code points, so an emoji counts as one character.
const length = (password: string) => [...password].length;

/** Too short or too long, or null. Never alters the password. */
export function passwordLengthProblem(password: string): string | null {
  if (length(password) < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  if (length(password) > MAX_PASSWORD_LENGTH) return PASSWORD_TOO_LONG;
  return null;
}

/** What the set-password form's check finds, as an id a screen words in its language. */
export type NewPasswordFault = 'mismatch' | 'tooShort' | 'tooLong';

/** The set-password form's check (docs/product.md §5): both entries first, then the length. */
export function newPasswordFault(password: string, repeated: string): NewPasswordFault | null {
  if (password !== repeated) return 'mismatch';
  if (length(password) < MIN_PASSWORD_LENGTH) return 'tooShort';
  if (length(password) > MAX_PASSWORD_LENGTH) return 'tooLong';
  return null;
}

const FAULT_WORDS: Record<NewPasswordFault, string> = {
  mismatch: PASSWORDS_DONT_MATCH,
  tooShort: PASSWORD_TOO_SHORT,
  tooLong: PASSWORD_TOO_LONG,
};

/** The same check in the product's English words. */
export function newPasswordProblem(password: string, repeated: string): string | null {
  const fault = newPasswordFault(password, repeated);
  return fault && FAULT_WORDS[fault];
}
