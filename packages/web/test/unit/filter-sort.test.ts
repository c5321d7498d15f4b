import { describe, expect, it } from 'vitest';
import { filterRows } from '../../src/logic/filter';
import { nextSort, sortRows } from '../../src/logic/sort';

const users = [
  { email: 'bob@example.com', client: 'Acme' },
  { email: 'alice@example.com', client: 'Admin' },
  { email: 'Carol@Example.com', client: 'acme' },
];

describe('filterRows', () => {
  it('keeps rows where any shown text contains the query, ignoring case and outer spaces', () => {
    expect(filterRows(users, '  ACME ', (user) => [user.client]).map((user) => user.email)).toEqual(['bob@example.com', 'Carol@Example.com']);
    expect(filterRows(users, 'carol', (user) => [user.email, user.client])).toEqual([users[2]]);
  });

  it('keeps everything for an empty query and nothing for an unmatched one', () => {
    expect(filterRows(users, '', (user) => [user.email])).toEqual(users);
    expect(filterRows(users, 'zzz', (user) => [user.email])).toEqual([]);
  });

  it('treats missing texts as empty', () => {
    expect(filterRows([{ name: null }, { name: 'x' }], 'x', (row) => [row.name])).toEqual([{ name: 'x' }]);
  });
});

describe('sortRows', () => {
  it('sorts text ascending and descending without regard to case, numbers naturally', () => {
    const names = ['beta', 'Alpha', 'app10', 'app9'].map((name) => ({ name }));
    expect(sortRows(names, (row) => row.name, 'asc').map((row) => row.name)).toEqual(['Alpha', 'app9', 'app10', 'beta']);
    expect(sortRows(names, (row) => row.name, 'desc').map((row) => row.name)).toEqual(['beta', 'app10', 'app9', 'Alpha']);
  });

  it('puts empty values (a key never used) last in both directions and leaves the input alone', () => {
    const tokens = [{ used: null }, { used: '2026-01-02T00:00:00Z' }, { used: '2026-03-01T00:00:00Z' }];
    expect(sortRows(tokens, (row) => row.used, 'desc').map((row) => row.used)).toEqual(['2026-03-01T00:00:00Z', '2026-01-02T00:00:00Z', null]);
    expect(sortRows(tokens, (row) => row.used, 'asc').map((row) => row.used)).toEqual(['2026-01-02T00:00:00Z', '2026-03-01T00:00:00Z', null]);
    expect(tokens[0].used).toBeNull();
  });

  it('flips the direction on the same column and starts ascending on another', () => {
    expect(nextSort({ key: 'name', direction: 'asc' }, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort<'name' | 'email'>({ key: 'name', direction: 'desc' }, 'email')).toEqual({ key: 'email', direction: 'asc' });
  });
});
