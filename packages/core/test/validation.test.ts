import { describe, expect, it } from 'vitest';
import {
  accessTokenInput,
  ApiError,
  appInput,
  httpStatus,
  clientInput,
  inviteInput,
  newPasswordProblem,
  parse,
  passwordLengthProblem,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DONT_MATCH,
  pathId,
  userMeUpdate,
} from '../src/index.js';

const problem = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, field: error.details.field, message: error.message };
    throw error;
  }
  return undefined;
};

describe('API key input', () => {
  it('takes an optional name (trimmed) and expiry; refuses a bad one naming the field', () => {
    expect(parse(accessTokenInput, {})).toEqual({});
    expect(parse(accessTokenInput, { name: '  CI deploy ', expires: '2030-01-01T00:00:00Z' })).toEqual({ name: 'CI deploy', expires: Date.UTC(2030, 0, 1) });
    expect(problem(() => parse(accessTokenInput, { name: ' ' }))).toEqual({ code: 'invalid_input', field: 'name', message: 'name: must not be empty' });
    expect(problem(() => parse(accessTokenInput, { name: 'x'.repeat(201) }))).toMatchObject({ field: 'name' });
    expect(problem(() => parse(accessTokenInput, { name: 'a\u0007b' }))).toMatchObject({ field: 'name', message: 'name: must not contain control characters' });
    expect(problem(() => parse(accessTokenInput, { expires: 'next week' }))).toEqual({
      code: 'invalid_input',
      field: 'expires',
      message: 'expires: must be an ISO 8601 time',
    });
  });

  it('a call that needs a session answers 403 session_required', () => {
    expect(httpStatus.session_required).toBe(403);
  });
});

describe('validation', () => {
  it('accepts a well-formed app, filling optional fields', () => {
    expect(parse(appInput, { name: 'wiki', url: 'https://wiki.example.com/' })).toEqual({
      name: 'wiki',
      url: 'https://wiki.example.com/',
      description: '',
      descriptionDe: '',
      doclink: '',
      category: '',
      requestable: false,
      roles: [],
      owners: { users: [], teams: [] },
    });
  });

  it('takes a language of en or de (or null) for PUT /user/me and invites, and names the field otherwise', () => {
    expect(parse(userMeUpdate, { language: 'de' })).toEqual({ language: 'de' });
    expect(parse(userMeUpdate, { language: null })).toEqual({ language: null });
    for (const language of ['fr', 'DE', 'de-DE', '', 0, undefined]) {
      expect(
        problem(() => parse(userMeUpdate, { language })),
        String(language),
      ).toMatchObject({ code: 'invalid_input', field: 'language' });
    }
    expect(parse(inviteInput, { email: 'a@example.com', clientid: 1 }).language).toBeUndefined();
    expect(problem(() => parse(inviteInput, { email: 'a@example.com', clientid: 1, language: 'fr' }))).toMatchObject({ field: 'language' });
  });

  it('names the field at fault', () => {
    expect(problem(() => parse(appInput, { url: 'https://a.example.com/' }))).toEqual({ code: 'invalid_input', field: 'name', message: 'name: is required' });
    expect(problem(() => parse(appInput, { name: 'a', url: '/relative' }))).toMatchObject({ field: 'url' });
    expect(problem(() => parse(appInput, { name: 'a', url: 'http://' }))).toMatchObject({ field: 'url' });
    expect(problem(() => parse(appInput, { name: 'a\u0000b', url: 'https://a.example.com/' }))).toMatchObject({ field: 'name' });
    expect(problem(() => parse(clientInput, { name: 42 }))).toMatchObject({ field: 'name', message: 'name: must be a string' });
    expect(problem(() => parse(clientInput, null))).toMatchObject({ field: 'body' });
    expect(problem(() => parse(inviteInput, { email: 'a@b.co', clientid: 1.5 }))).toMatchObject({ field: 'clientid' });
    expect(problem(() => parse(inviteInput, { email: 'a@b.co', clientid: 1, apps: 'all' }))).toMatchObject({ field: 'apps' });
  });

  it('drops fields no schema names', () => {
    expect(parse(clientInput, { name: 'Acme', id: 7, admin: true })).toEqual({ name: 'Acme' });
  });

  it('reads only plain positive integers as path ids', () => {
    expect(parse(pathId, '42')).toBe(42);
    for (const bad of ['0', '-1', '1e3', '0x10', ' 1', '1.0', '', '12345678901234567']) {
      expect(
        problem(() => parse(pathId, bad)),
        bad,
      ).toMatchObject({ code: 'invalid_input' });
    }
  });
});

describe('passwords (the rules every client runs)', () => {
  it("speak the product's words (docs/product.md §5)", () => {
    expect(newPasswordProblem('abcdefgh1', 'abcdefgh2')).toBe("Your passwords don't match!");
    expect(newPasswordProblem('short', 'short')).toBe('Your password must be at least eight characters long!');
    expect(PASSWORDS_DONT_MATCH).toBe("Your passwords don't match!");
  });

  it('count characters, not bytes, and never trim', () => {
    expect(passwordLengthProblem('😀😀😀😀😀😀😀')).toBe(PASSWORD_TOO_SHORT);
    expect(passwordLengthProblem('😀😀😀😀😀😀😀😀')).toBeNull();
    expect(passwordLengthProblem('   a    ')).toBeNull();
  });

  it('check only length and match: the common list is not theirs', () => {
    expect(newPasswordProblem('password123!', 'password123!')).toBeNull();
  });
});
