import { describe, expect, it } from 'vitest';
import { FAVOURITES, groupApps, isSearchShortcut, monogram, searchApps, UNCATEGORISED } from '../../src/logic/launcher';

const app = (name: string, category = '', description = '', favourite = false) => ({ name, category, description, favourite });

describe('searchApps', () => {
  const apps = [app('Payroll', 'Finance', 'Salaries and slips'), app('Wiki', 'Knowledge', 'The team wiki'), app('Chat')];
  it('matches name, description and category, any case, every word', () => {
    expect(searchApps(apps, 'finance').map((a) => a.name)).toEqual(['Payroll']);
    expect(searchApps(apps, 'SLIPS').map((a) => a.name)).toEqual(['Payroll']);
    expect(searchApps(apps, 'team wiki').map((a) => a.name)).toEqual(['Wiki']);
    expect(searchApps(apps, 'team chat')).toEqual([]);
    expect(searchApps(apps, '   ')).toHaveLength(3);
  });
});

describe('groupApps', () => {
  it('is one untitled group without favourites and categories', () => {
    expect(groupApps([app('b'), app('a')])).toEqual([{ title: null, key: '', apps: [app('a'), app('b')] }]);
    expect(groupApps([])).toEqual([]);
  });
  it('puts favourites first, then categories by name, then the rest', () => {
    const groups = groupApps([app('z', 'Tools'), app('y'), app('x', 'Finance'), app('w', 'Tools', '', true)]);
    expect(groups.map((group) => [group.title, group.apps.map((a) => a.name)])).toEqual([
      [FAVOURITES, ['w']],
      ['Finance', ['x']],
      ['Tools', ['z']],
      [UNCATEGORISED, ['y']],
    ]);
  });
});

describe('monogram', () => {
  it('takes the first letter (not of extern:) and a stable colour', () => {
    expect(monogram('wiki').letter).toBe('W');
    expect(monogram('extern:jira').letter).toBe('J');
    expect(monogram('😀 chat').letter).toBe('😀');
    expect(monogram('wiki')).toEqual(monogram('wiki'));
    expect(monogram('wiki').colour).toBeGreaterThanOrEqual(0);
    expect(monogram('wiki').colour).toBeLessThan(8);
  });
});

describe('isSearchShortcut', () => {
  const key = (k: string, extra = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...extra });
  it('is / outside text fields only', () => {
    expect(isSearchShortcut(key('/'), { tagName: 'BODY' } as unknown as EventTarget)).toBe(true);
    expect(isSearchShortcut(key('/'), { tagName: 'INPUT' } as unknown as EventTarget)).toBe(false);
    expect(isSearchShortcut(key('/'), { tagName: 'TEXTAREA' } as unknown as EventTarget)).toBe(false);
    expect(isSearchShortcut(key('/', { ctrlKey: true }), null)).toBe(false);
    expect(isSearchShortcut(key('a'), null)).toBe(false);
  });
});
