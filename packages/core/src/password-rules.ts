/**
 * Every rule a new password must pass (docs/product.md §5), for Node callers: the server
 * before it hashes, `toolsctl seed` before it changes anything. The common-password dictionary of
 * @zxcvbn-ts/language-common (about 49,000 entries, MIT) is loaded on first use; the web bundle
 * never imports this entry point and checks only length and match.
 */
import {
  DEFAULT_PORTAL_NAME,
  passwordContainsPortalName,
  passwordLengthProblem,
  PASSWORD_COMMON_WITH_ADDITIONS,
  PASSWORD_CONTAINS_EMAIL,
  PASSWORD_TOO_COMMON,
} from './passwords.js';

export interface PasswordContext {
  /** The account's email: a password may not contain its local part (4 characters or more). */
  email?: string;
  /** The portal's name (PORTAL_NAME): a password may not contain it; Tools-Server by default. */
  portalName?: string;
}

const MIN_CONTAINED_LENGTH = 4;
// Digits, punctuation, symbols and spaces people put around a word: `Summer2024`, `password123!`.
const DECORATION = /^[\p{N}\p{P}\p{S}\p{Z}]+|[\p{N}\p{P}\p{S}\p{Z}]+$/gu;
// A stripped word this short says nothing: `a1234567` is weak, but not for this rule.
const MIN_BASE_LENGTH = 3;

let dictionary: Promise<ReadonlySet<string>> | undefined;

/** The common passwords, lower case; loaded once, on first use. */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  dictionary ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary: lists }) => new Set((lists['passwords-common'] as string[]).map((word) => word.toLowerCase())),
  );
  return dictionary;
}

// Letters and digits only, lower case: `Tools Server`, `tools_server` and `TOOLS-SERVER` alike.
const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

function containsProblem(password: string, context: PasswordContext): string | null {
  const squashed = squash(password);
  const portalName = context.portalName ?? DEFAULT_PORTAL_NAME;
  const name = squash(portalName);
  if (name.length >= MIN_CONTAINED_LENGTH && squashed.includes(name)) return passwordContainsPortalName(portalName);
  const local = context.email?.split('@')[0] ?? '';
  for (const part of new Set([local, local.split('+')[0]])) {
    const plain = part.toLowerCase();
    if (plain.length >= MIN_CONTAINED_LENGTH && password.toLowerCase().includes(plain)) return PASSWORD_CONTAINS_EMAIL;
    const bare = squash(part);
    if (bare.length >= MIN_CONTAINED_LENGTH && squashed.includes(bare)) return PASSWORD_CONTAINS_EMAIL;
  }
  return null;
}

/**
 * The reason a new password is refused, or null: its length, then the email and the portal's name,
 * then the common list, as it is and with the digits and symbols around it taken off.
 */
export async function passwordProblem(password: string, context: PasswordContext = {}): Promise<string | null> {
  const problem = passwordLengthProblem(password) ?? containsProblem(password, context);
  if (problem) return problem;
  const common = await commonPasswords();
  const lower = password.toLowerCase();
  if (common.has(lower)) return PASSWORD_TOO_COMMON;
  const base = lower.replace(DECORATION, '');
  if (base.length >= MIN_BASE_LENGTH && common.has(base)) return PASSWORD_COMMON_WITH_ADDITIONS;
  return null;
}
