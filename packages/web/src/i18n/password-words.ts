/**
 * The password rules and the set-password check in the reader's language (docs/web.md, Languages):
 * core names them by id (`PASSWORD_RULES`, `newPasswordFault`), the catalogue words them; the
 * common-password list stays out of the bundle. English keeps the product's words (docs/product.md §5).
 */
import { MAX_PASSWORD_LENGTH, PASSWORD_RULES, newPasswordFault, type NewPasswordFault, type PasswordRule } from '@tools-portal/core/passwords';
import type { MessageKey } from './en';
import type { Translate } from './use-t';

const RULE_WORDS: Record<PasswordRule, MessageKey> = {
  length: 'password.rule.length',
  common: 'password.rule.common',
  personal: 'password.rule.personal',
};

const FAULT_WORDS: Record<NewPasswordFault, MessageKey> = {
  mismatch: 'password.mismatch',
  tooShort: 'password.tooShort',
  tooLong: 'password.tooLong',
};

/** The rules a new password must pass, one line each, naming the portal. */
export const passwordRules = (t: Translate, portalName: string): string[] => PASSWORD_RULES.map((rule) => t(RULE_WORDS[rule], { portal: portalName }));

/** What is wrong with the two entries of a set-password form, or null. */
export function newPasswordProblemIn(t: Translate, password: string, repeated: string): string | null {
  const fault = newPasswordFault(password, repeated);
  return fault && t(FAULT_WORDS[fault], { max: MAX_PASSWORD_LENGTH });
}
