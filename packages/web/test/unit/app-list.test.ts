import { describe, expect, it } from 'vitest';
import type { App } from '@tools-portal/core';
import { appListColumns, onlyAppUrl } from '../../src/logic/app-list';

let id = 0;
const app = (name: string, url: string, description = ''): App => ({
  id: ++id,
  name,
  url,
  description,
  descriptionDe: '',
  doclink: '',
  category: '',
  requestable: false,
  icon: null,
  roles: [],
});

const wiki = app('wiki', 'https://wiki.example.com/');
const wikiDev = app('wiki-dev', 'https://wiki.example.com/wiki-dev/');
const crmDev = app('crm', 'https://crm.example.com/crm-dev');
const jira = app('extern:Jira', 'https://jira.example.org/', 'Tickets');
const billing = app('Billing', 'https://billing.example.com/');
const all = [wiki, wikiDev, crmDev, jira, billing];

describe('appListColumns', () => {
  it('prod view: hides -dev and -dev/ URLs and extern: apps, sorted by name', () => {
    expect(appListColumns(all, true, 'prod').apps.map((a) => a.name)).toEqual(['Billing', 'wiki']);
  });

  it('dev view: only the -dev apps', () => {
    expect(appListColumns(all, true, 'dev').apps.map((a) => a.name)).toEqual(['crm', 'wiki-dev']);
  });

  it('Other Tools: extern apps without the prefix, for admins only', () => {
    expect(appListColumns(all, true, 'prod').otherTools).toEqual([{ ...jira, name: 'Jira' }]);
    expect(appListColumns(all, false, 'prod').otherTools).toEqual([]);
  });

  it('non-admins see every app the server granted them, whatever the view', () => {
    expect(appListColumns(all, false, 'prod').apps).toHaveLength(all.length);
    expect(appListColumns(all, false, 'dev').apps).toHaveLength(all.length);
  });
});

describe('onlyAppUrl', () => {
  it('answers the URL of a single app only', () => {
    expect(onlyAppUrl([wiki])).toBe('https://wiki.example.com/');
    expect(onlyAppUrl([])).toBeNull();
    expect(onlyAppUrl([wiki, billing])).toBeNull();
  });
});
