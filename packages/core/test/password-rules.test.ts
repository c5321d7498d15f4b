import { describe, expect, it } from 'vitest';
import {
  PASSWORD_COMMON_WITH_ADDITIONS,
  PASSWORD_CONTAINS_EMAIL,
  PASSWORD_CONTAINS_PRODUCT,
  newPasswordFault,
  newPasswordProblem,
  passwordContainsPortalName,
  PASSWORD_RULES,
  passwordRuleLines,
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
} from '../src/index.js';
import { commonPasswords, passwordProblem } from '../src/password-rules.js';

describe('password rules (issue 12, point 10)', () => {
  it('load a well-kept common-password list, not a short one', async () => {
    expect((await commonPasswords()).size).toBeGreaterThan(40_000);
  });

  it('refuse Summer2024, qwerty12345, Company123 and password123!', async () => {
    for (const password of ['Summer2024', 'qwerty12345', 'Company123', 'password123!']) {
      expect(await passwordProblem(password), password).not.toBeNull();
    }
    expect(await passwordProblem('qwerty12345')).toBe(PASSWORD_TOO_COMMON);
    expect(await passwordProblem('Summer2024')).toBe(PASSWORD_COMMON_WITH_ADDITIONS);
    expect(await passwordProblem('!!2024Monkey##')).toBe(PASSWORD_COMMON_WITH_ADDITIONS);
  });

  it('refuse common passwords in any case', async () => {
    for (const password of ['password1', 'Password1', 'PASSWORD', '12345678', 'iloveyou', 'trustno1']) {
      expect(await passwordProblem(password), password).not.toBeNull();
    }
  });

  it("refuse the email's local part when it has 4 characters or more", async () => {
    expect(await passwordProblem('xx-carol-yy-42', { email: 'carol@globex.example' })).toBe(PASSWORD_CONTAINS_EMAIL);
    expect(await passwordProblem('my CAROL secret', { email: 'Carol@globex.example' })).toBe(PASSWORD_CONTAINS_EMAIL);
    expect(await passwordProblem('annsmith rules ok', { email: 'ann.smith@acme.example' })).toBe(PASSWORD_CONTAINS_EMAIL);
    expect(await passwordProblem('jane-quiet-harbour', { email: 'jane+portal@acme.example' })).toBe(PASSWORD_CONTAINS_EMAIL);
    // Three characters say too little to refuse.
    expect(await passwordProblem('ann-quiet-harbour-7', { email: 'ann@acme.example' })).toBeNull();
    expect(await passwordProblem('xx-carol-yy-42')).toBeNull();
  });

  it('refuse the product name, however written', async () => {
    for (const password of ['my Tools-Server pass', 'tools-server!!', 'TOOLSSERVER 2024', 'tools server rocks', 'tools_server_x']) {
      expect(await passwordProblem(password), password).toBe(PASSWORD_CONTAINS_PRODUCT);
    }
  });

  it('keep the length rules and accept good passwords, unaltered', async () => {
    expect(await passwordProblem('short')).toBe(PASSWORD_TOO_SHORT);
    expect(await passwordProblem('x'.repeat(257))).toBe(PASSWORD_TOO_LONG);
    for (const password of ['correct horse battery staple', 'Tr0ub4dor&3x-quiet', 'ok-passphrase-😀', 'a1234567890123', '   spaces around   ']) {
      expect(await passwordProblem(password, { email: 'someone@example.com' }), password).toBeNull();
    }
  });

  it("refuses the portal's own name (PORTAL_NAME) in any case or spacing, and only a name of four letters or more", async () => {
    expect(await passwordProblem('my acme-tools pass 42', { portalName: 'Acme Tools' })).toBe(passwordContainsPortalName('Acme Tools'));
    expect(await passwordProblem('ACMETOOLS rules 9x', { portalName: 'Acme Tools' })).toBe('Your password must not contain Acme Tools.');
    // Another portal's name is no longer the rule: Tools-Server passes there.
    expect(await passwordProblem('quiet Tools-Server harbour 7', { portalName: 'Acme Tools' })).toBeNull();
    // A short name would refuse half the dictionary: "IT" refuses nothing.
    expect(await passwordProblem('quiet italic harbour 7', { portalName: 'IT' })).toBeNull();
  });

  it('lists the rules in words for the screens, naming the portal', () => {
    expect(passwordRuleLines('Acme Tools').at(-1)).toBe('Not containing your email address or Acme Tools.');
  });
});

describe('the set-password check by id, for screens that word it themselves', () => {
  it('names the fault: a mismatch first, then the length; the English words follow from it', () => {
    expect(newPasswordFault('abcdefgh1', 'abcdefgh2')).toBe('mismatch');
    expect(newPasswordFault('short', 'short')).toBe('tooShort');
    expect(newPasswordFault('x'.repeat(257), 'x'.repeat(257))).toBe('tooLong');
    expect(newPasswordFault('long enough 42', 'long enough 42')).toBeNull();
    expect(newPasswordProblem('x'.repeat(257), 'x'.repeat(257))).toBe(PASSWORD_TOO_LONG);
    expect(PASSWORD_RULES.length).toBe(passwordRuleLines('Acme Tools').length);
  });
});
