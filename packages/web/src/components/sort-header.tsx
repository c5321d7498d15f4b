/** A table header that sorts its column; aria-sort tells screen readers (and tests) the order. */
import type { ReactNode } from 'react';
import type { SortState } from '../logic/sort';

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
