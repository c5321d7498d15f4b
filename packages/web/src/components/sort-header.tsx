/** A table header that sorts its column; aria-sort tells screen readers (and tests) the order. */
import { useState, type ReactNode } from 'react';
import { nextSort, type SortState } from '../logic/sort';

interface SortHeaderProps<K extends string> {
  column: K;
  sort: SortState<K>;
  onSort: (column: K) => void;
  children: ReactNode;
}

export function SortHeader<K extends string>({ column, sort, onSort, children }: SortHeaderProps<K>) {
  const active = sort.key === column;
  const ariaSort = active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort}>
      <button type="button" className="btn btn-link p-0 fw-semibold text-reset text-decoration-none" onClick={() => onSort(column)}>
        {children}
        <span className="ms-1 text-secondary" aria-hidden="true">
          {active ? (sort.direction === 'asc' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

/** A table's sort state, and what a click on a header does to it (logic/sort's nextSort). */
export function useSort<K extends string>(initial: SortState<K>): [SortState<K>, (column: K) => void] {
  const [sort, setSort] = useState(initial);
  return [sort, (column) => setSort((current) => nextSort(current, column))];
}
