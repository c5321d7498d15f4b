/**
 * The strict reading of the open-redirect corpus (fixtures/openredirects/README.md): every payload falls
 * back to the default target itself, including relative ones that stay on the portal but smuggle
 * another origin in percent-escapes, colons or `//` for a later decoder to find.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REDIRECT, safeRedirect } from '../src/redirects.js';

const policy = { portalOrigin: 'https://tools.example.com', appOrigins: ['https://wiki.example.com'] };
const corpus = fs
  .readFileSync(new URL('../../../fixtures/openredirects/openredirects.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.length > 0);

describe('safeRedirect and the open-redirect corpus', () => {
  it('answers the default target for every payload', () => {
    expect(corpus.length).toBeGreaterThan(500);
    expect(corpus.filter((payload) => safeRedirect(payload, policy) !== DEFAULT_REDIRECT)).toEqual([]);
  });

  it('refuses relative targets that smuggle an origin, and still follows plain ones', () => {
    for (const target of [
      '/%2f%2fevil.example.com',
      '/%5cevil.example.com',
      '/a//evil.example.com',
      '/https://evil.example.com',
      '/x?next=http://evil.example.com',
    ]) {
      expect(safeRedirect(target, policy), target).toBe(DEFAULT_REDIRECT);
    }
    for (const target of ['/auth/#/applist/', '/auth/#/app/12', '/wiki/page?id=3&x=y']) {
      expect(safeRedirect(target, policy), target).toBe(target);
    }
  });
});
