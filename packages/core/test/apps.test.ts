import { describe, expect, it } from 'vitest';
import { appsInView, externTools, isDevApp, isExternApp, type App } from '../src/index.js';

const app = (id: number, name: string, url: string): App => ({
  id,
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
const apps = [
  app(1, 'wiki', 'https://wiki.example.com/'),
  app(2, 'wiki-dev', 'https://wiki.example.com/-dev'),
  app(3, 'grafana-dev', 'https://grafana.example.com/grafana-dev/'),
  app(4, 'extern:Jira', 'https://jira.example.net/'),
];

describe('app views', () => {
  it('knows dev apps by their URL and external tools by their name', () => {
    expect(apps.map(isDevApp)).toEqual([false, true, true, false]);
    expect(apps.map(isExternApp)).toEqual([false, false, false, true]);
  });

  it('prod hides dev and extern apps; dev shows only dev apps', () => {
    expect(appsInView(apps, 'prod').map((a) => a.id)).toEqual([1]);
    expect(appsInView(apps, 'dev').map((a) => a.id)).toEqual([2, 3]);
  });

  it('lists external tools without their prefix', () => {
    expect(externTools(apps)).toEqual([{ ...apps[3], name: 'Jira' }]);
  });
});
