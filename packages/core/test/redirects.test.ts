import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REDIRECT, safeRedirect } from '../src/redirects.js';

const policy = { portalOrigin: 'https://tools.example.com', appOrigins: ['https://wiki.example.com'] };
const corpus = fs
  .readFileSync(new URL('../../../../shared/testdata/openredirects.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.length > 0);

describe('safeRedirect', () => {
  it('refuses every payload of the open-redirect corpus', () => {
    expect(corpus.length).toBeGreaterThan(500);
    const followed = corpus.filter((payload) => safeRedirect(payload, policy) !== DEFAULT_REDIRECT);
    expect(followed).toEqual([]);
  });

  it('follows plain targets on the portal and on registered apps', () => {
    expect(safeRedirect('/auth/#/applist/', policy)).toBe('/auth/#/applist/');
    expect(safeRedirect('/auth/#/app/12', policy)).toBe('/auth/#/app/12');
    expect(safeRedirect('/wiki/page?id=3&x=y', policy)).toBe('/wiki/page?id=3&x=y');
    expect(safeRedirect('https://tools.example.com/auth/#/users', policy)).toBe('https://tools.example.com/auth/#/users');
    expect(safeRedirect('https://wiki.example.com/some/page?q=1', policy)).toBe('https://wiki.example.com/some/page?q=1');
  });

  it('falls back for other origins and smuggling forms', () => {
    for (const target of ['https://evil.example.com/', '//evil.example.com', '/%2f%2fevil.example.com', '/a//b', '/x:y', 'javascript:alert(1)', '', null, undefined]) {
      expect(safeRedirect(target, policy)).toBe(DEFAULT_REDIRECT);
    }
  });
});
