import { describe, expect, it } from 'vitest';
import { LOG_PAGE_SIZE, clampPage, pageCount, pageWindow } from '../../src/logic/pagination';
import { googleLoginUrl, loginPath } from '../../src/paths';

describe('log pages', () => {
  it('has 20 rows a page and 50 pages for the assumed 1000 rows', () => {
    expect(LOG_PAGE_SIZE).toBe(20);
    expect(pageCount()).toBe(50);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(21)).toBe(2);
  });

  it('shows the first, the last and the pages around the current one, with gaps', () => {
    expect(pageWindow(1, 50)).toEqual([1, 2, 3, null, 50]);
    expect(pageWindow(10, 50)).toEqual([1, null, 8, 9, 10, 11, 12, null, 50]);
    expect(pageWindow(50, 50)).toEqual([1, null, 48, 49, 50]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
  });

  it('keeps a page inside the range', () => {
    expect(clampPage(0, 50)).toBe(1);
    expect(clampPage(51, 50)).toBe(50);
    expect(clampPage(2.5, 50)).toBe(1);
    expect(clampPage(7, 50)).toBe(7);
  });
});

describe('login links', () => {
  it('carries the redirect and the token as path segments', () => {
    expect(loginPath()).toBe('/login');
    expect(loginPath('/auth/#/applist/', 'abc')).toBe('/login/%2Fauth%2F%23%2Fapplist%2F/abc');
  });

  it('sends Google sign-in to the server with redirect and token as query parameters', () => {
    expect(googleLoginUrl('/auth/#/applist/')).toBe('/auth/google?redirect=%2Fauth%2F%23%2Fapplist%2F');
    expect(googleLoginUrl('https://wiki.example.com/', 't 1')).toBe('/auth/google?redirect=https%3A%2F%2Fwiki.example.com%2F&token=t+1');
  });
});
