import type { App } from '@tools-portal/core';
import { describe, expect, it } from 'vitest';
import { AppIndex } from '../src/services/app-index.js';

let nextId = 1;
const app = (name: string, url: string): App => ({ id: nextId++, name, url, description: '', doclink: '' });

describe('AppIndex', () => {
  const root = app('root', 'https://tools.example.com/');
  const grafana = app('grafana', 'https://tools.example.com/grafana/');
  const grafanaDev = app('grafana-dev', 'https://tools.example.com/grafana-dev/');
  const wiki = app('wiki', 'https://tools.example.com/wiki');
  const other = app('other', 'http://tools.example.com:8080/');
  const broken = app('broken', 'not a url');
  const index = new AppIndex([root, grafana, grafanaDev, wiki, other, broken]);
  const name = (url: string) => index.forUrl(url)?.name;

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
    expect(name('https://tools.example.com/grafana/../wiki/x')).toBe('wiki');
    expect(name('https://tools.example.com/grafana/%2e%2e/wiki')).toBe('wiki');
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
    expect(new AppIndex([first, second]).forUrl('https://same.example.com/x')).toBe(first);
  });
});
