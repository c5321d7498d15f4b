import { parseOriginalUrl, type App } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { AppIndex } from '../src/services/apps/app-index.js';

/** The app for an original URL, 'ambiguous', or undefined. */
function appFor(index: AppIndex, originalUrl: string): App | 'ambiguous' | undefined {
  const url = parseOriginalUrl(originalUrl);
  if (url.kind === 'ambiguous') return 'ambiguous';
  if (url.kind === 'invalid') return undefined;
  const match = index.match(url.origin, url.path);
  return match.kind === 'app' ? match.app : match.kind === 'ambiguous' ? 'ambiguous' : undefined;
}

let nextId = 1;
const app = (name: string, url: string): App => ({
  id: nextId++,
  name,
  url,
  description: '',
  descriptionDe: '',
  doclink: '',
  category: '',
  requestable: false,
  icon: null,
  roles: [],
});

describe('AppIndex', () => {
  const root = app('root', 'https://tools.example.com/');
  const grafana = app('grafana', 'https://tools.example.com/grafana/');
  const grafanaDev = app('grafana-dev', 'https://tools.example.com/grafana-dev/');
  const wiki = app('wiki', 'https://tools.example.com/wiki');
  const other = app('other', 'http://tools.example.com:8080/');
  const broken = app('broken', 'not a url');
  const index = new AppIndex([root, grafana, grafanaDev, wiki, other, broken]);
  const name = (url: string) => {
    const found = appFor(index, url);
    return typeof found === 'string' ? found : found?.name;
  };

  it('finds apps by name, including one whose URL does not parse', () => {
    expect(index.named('grafana')).toBe(grafana);
    expect(index.named('broken')).toBe(broken);
    expect(index.named('nope')).toBeUndefined();
  });

  it('takes the longest URL prefix, at a path boundary', () => {
    expect(name('https://tools.example.com/grafana/d/1?x=/wiki')).toBe('grafana');
    expect(name('https://tools.example.com/grafana')).toBe('grafana');
    expect(name('https://tools.example.com/grafana-dev/x')).toBe('grafana-dev');
    expect(name('https://tools.example.com/grafanax')).toBe('root');
    expect(name('https://tools.example.com/wiki')).toBe('wiki');
    expect(name('https://tools.example.com/wiki/page')).toBe('wiki');
    expect(name('https://tools.example.com/wikipedia')).toBe('root');
    expect(name('https://tools.example.com/')).toBe('root');
    expect(name('https://tools.example.com')).toBe('root');
  });

  it('normalizes the URL the way a browser does before matching', () => {
    expect(name('HTTPS://TOOLS.EXAMPLE.COM/grafana/')).toBe('grafana');
    expect(name('https://tools.example.com:443/grafana/')).toBe('grafana');
    expect(name('https://tools.example.com/grafana/../wiki/x')).toBe('ambiguous');
    expect(name('https://tools.example.com/grafana/%2e%2e/wiki')).toBe('ambiguous');
    expect(name('https://tools.example.com/grafana/..wiki')).toBe('grafana');
    expect(name('https://tools.example.com/%67rafana/x')).toBe('grafana');
    expect(name('https://tools.example.com//grafana//x')).toBe('grafana');
  });

  it('refuses a path whose app depends on letter case (Caddy matches paths ignoring it)', () => {
    expect(name('https://tools.example.com/GRAFANA/x')).toBe('ambiguous');
    expect(name('https://tools.example.com/Grafana')).toBe('ambiguous');
    expect(name('https://tools.example.com/WIKI/page')).toBe('ambiguous');
    expect(name('https://tools.example.com/grafana/D/ABC')).toBe('grafana');
    expect(name('https://tools.example.com/Other')).toBe('root');
    expect(name('HTTP://TOOLS.EXAMPLE.COM:8080/X')).toBe('other');
    const index = new AppIndex([app('upper', 'https://case.example.com/Secret/')]);
    expect(appFor(index, 'https://case.example.com/secret/x')).toBe('ambiguous');
    expect(appFor(index, 'https://case.example.com/Secret/x')).toMatchObject({ name: 'upper' });
    expect(appFor(index, 'https://case.example.com/public')).toBeUndefined();
  });

  it('matches apps whose URL path has escapes in any spelling', () => {
    const index = new AppIndex([app('cafe', 'https://esc.example.com/caf%c3%a9/'), app('tilde', 'https://esc.example.com/%7Eme/')]);
    expect(appFor(index, 'https://esc.example.com/caf%C3%A9/x')).toMatchObject({ name: 'cafe' });
    expect(appFor(index, 'https://esc.example.com/caf%c3%a9')).toMatchObject({ name: 'cafe' });
    expect(appFor(index, 'https://esc.example.com/~me/x')).toMatchObject({ name: 'tilde' });
  });

  it('matches scheme, host and port exactly, and nothing for what is not an http(s) URL', () => {
    expect(name('http://tools.example.com/grafana/')).toBeUndefined();
    expect(name('http://tools.example.com:8080/grafana/')).toBe('other');
    expect(name('https://evil.example.com/grafana/')).toBeUndefined();
    expect(name('https://tools.example.com.evil.example/')).toBeUndefined();
    expect(name('/grafana/')).toBeUndefined();
    expect(name('javascript:alert(1)')).toBeUndefined();
    expect(name('')).toBeUndefined();
  });

  it('gives two apps with one URL to the first in list order', () => {
    const first = app('a', 'https://same.example.com/');
    const second = app('b', 'https://same.example.com/');
    expect(appFor(new AppIndex([first, second]), 'https://same.example.com/x')).toBe(first);
  });
});
