/**
 * The list layout of docs/product.md §2: the page header with its New … button, the filter box
 * above the table (a deviation from the SPEC's filter beside the table, docs/product.md §10), the
 * table. Its parts also serve the lists inside the detail screens.
 */
import type { ReactNode } from 'react';
import { FilterBox } from './filter-box';
import { PageHeader } from './page-header';

/** The button beside a heading: New Client, Add User, Manage Apps. */
export interface HeadingAction {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  /** Outlined, for a lesser action such as the placeholder Add User. */
  outline?: boolean;
}

/** A heading with its button(s) on the right: level 1 heads a screen (styled h3), level 2 a section (styled h5). */
export function HeadingBar({ title, action, level = 1 }: { title: string; action: HeadingAction | readonly HeadingAction[]; level?: 1 | 2 }) {
  const Heading = level === 1 ? 'h1' : 'h2';
  const actions: readonly HeadingAction[] = Array.isArray(action) ? action : [action as HeadingAction];
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
      <Heading className={`${level === 1 ? 'h3' : 'h5'} me-auto mb-0`}>{title}</Heading>
      {actions.map((each) => (
        <button
          key={each.label}
          type="button"
          className={`btn ${each.outline ? 'btn-outline-primary' : 'btn-primary'} btn-sm`}
          onClick={each.onClick}
          disabled={each.disabled}
        >
          {each.label}
        </button>
      ))}
    </div>
  );
}

interface ListTableProps {
  /** The table's accessible name. */
  label: string;
  /** The header cells. */
  head: ReactNode;
  /** The rows, the empty row among them. */
  children: ReactNode;
  className?: string;
}

/** A table that scrolls sideways on a narrow screen rather than overflowing it. */
export function ListTable({ label, head, children, className = 'table table-hover align-middle' }: ListTableProps) {
  return (
    <div className="table-responsive">
      <table className={className} aria-label={label}>
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

interface ListPageProps {
  /** The heading, and the table's accessible name. */
  title: string;
  /** One line under the heading. */
  lead?: string;
  filter: string;
  onFilter: (value: string) => void;
  /** The New … button on the right of the header, on the lists that have one. */
  action?: HeadingAction;
  head: ReactNode;
  children: ReactNode;
}

/** The page header, the filter above the table, the table. */
export function ListPage({ title, lead, filter, onFilter, action, head, children }: ListPageProps) {
  return (
    <>
      <PageHeader
        title={title}
        lead={lead}
        actions={
          action && (
            <button
              type="button"
              className={`btn ${action.outline ? 'btn-outline-primary' : 'btn-primary'}`}
              onClick={action.onClick}
              disabled={action.disabled}
            >
              {action.label}
            </button>
          )
        }
      />
      <div className="row mb-2">
        <div className="col-12 col-md-6 col-lg-4">
          <FilterBox value={filter} onChange={onFilter} />
        </div>
      </div>
      <ListTable label={title} head={head}>
        {children}
      </ListTable>
    </>
  );
}
