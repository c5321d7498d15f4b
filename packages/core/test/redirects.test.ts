import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REDIRECT, safeRedirect } from '../src/index.js';

const policy = { portalOrigin: 'https://tools.example.com', appOrigins: ['https://grafana.example.com', 'http://localhost:3000'] };

// oauth2-proxy's open-redirect corpus (fixtures/openredirects); none may ever be followed.
const corpusFile = new URL('../../../fixtures/openredirects/openredirects.txt', import.meta.url);

describe('safeRedirect', () => {
  it('follows targets relative to the portal', () => {
    expect(safeRedirect('/auth/#/userapps', policy)).toBe('/auth/#/userapps');
    expect(safeRedirect('/auth/?x=1#/app/3', policy)).toBe('/auth/?x=1#/app/3');
  });

  it("follows targets on a registered app's origin, and the portal's own", () => {
    expect(safeRedirect('https://grafana.example.com/d/abc?orgId=1', policy)).toBe('https://grafana.example.com/d/abc?orgId=1');
    expect(safeRedirect('http://localhost:3000/', policy)).toBe('http://localhost:3000/');
    expect(safeRedirect('https://tools.example.com/auth/', policy)).toBe('https://tools.example.com/auth/');
  });

  it('falls back to the default otherwise', () => {
    for (const target of [
      undefined,
      '',
      'https://evil.example.net/',
      'https://grafana.example.com.evil.net/',
      'http://grafana.example.com/',
      'https://user:pass@grafana.example.com/',
      '//evil.example.net',
      '/\\evil.example.net',
      'javascript:alert(1)',
      'https:grafana.example.com',
      ' /auth/',
      '/auth/\n',
    ]) {
      expect(safeRedirect(target, policy), String(target)).toBe(DEFAULT_REDIRECT);
    }
  });

  it('refuses every payload of the open-redirect corpus', () => {
    const payloads = fs
      .readFileSync(corpusFile, 'utf8')
      .split('\n')
      .filter((line) => line.length > 0);
    expect(payloads.length).toBeGreaterThan(500);
    const followed = payloads.filter((payload) => {
      const target = safeRedirect(payload, { portalOrigin: 'http://localhost:8080', appOrigins: [] });
      return target !== DEFAULT_REDIRECT && !new URL(target, 'http://localhost:8080').href.startsWith('http://localhost:8080/');
    });
    expect(followed).toEqual([]);
  });
});
