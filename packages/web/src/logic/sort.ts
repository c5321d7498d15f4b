/** The sortable table columns: a key per column, ascending or descending, stable. */
export type Direction = 'asc' | 'desc';

export interface SortState<K extends string> {
  key: K;
  direction: Direction;
}

type Sortable = string | number | null | undefined;

/** Empty values (never-used keys, missing names) sort last in either direction. */
export function sortRows<T>(rows: readonly T[], value: (row: T) => Sortable, direction: Direction): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    const xEmpty = x === null || x === undefined || x === '';
    const yEmpty = y === null || y === undefined || y === '';
    if (xEmpty || yEmpty) return xEmpty === yEmpty ? 0 : xEmpty ? 1 : -1;
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    return sign * String(x).localeCompare(String(y), undefined, { sensitivity: 'base', numeric: true });
  });
}

/** Clicking a column header: a new column sorts ascending, the same column flips. */
export function nextSort<K extends string>(current: SortState<K>, key: K): SortState<K> {
  if (current.key !== key) return { key, direction: 'asc' };
  return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}
