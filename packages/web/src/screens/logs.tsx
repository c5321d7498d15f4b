/** /logs (docs/product.md §2): the last 1000 log entries, 20 a page. A failed fetch shows an empty page. */
import { useState } from 'react';
import type { LogEntry } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { EmptyRow } from '../components/empty-row';
import { ListTable } from '../components/list-page';
import { useLoad } from '../components/use-load';
import { formatTimestamp } from '../logic/format';
import { LOG_PAGE_SIZE, clampPage, pageCount, pageWindow } from '../logic/pagination';

export function Logs() {
  const [page, setPage] = useState(1);
  const count = pageCount();
  const entries = useLoad(
    async (): Promise<LogEntry[]> => {
      try {
        return await api.logs.page(page, LOG_PAGE_SIZE);
      } catch (error) {
        logFailure('load log', error);
        return [];
      }
    },
    undefined,
    page,
  );
  const go = (target: number) => setPage(clampPage(target, count));
  const rows = entries.data ?? [];

  return (
    <>
      <h1 className="h3 mb-3">The last 1000 log entries</h1>
      <ListTable
        label="Log"
        className="table table-sm table-striped align-middle log-table"
        head={
          <>
            <th scope="col">timestamp</th>
            <th scope="col">client</th>
            <th scope="col">user</th>
            <th scope="col">event</th>
            <th scope="col" className="d-md-none">
              entry
            </th>
          </>
        }
      >
        {rows.map((entry) => (
          <tr key={entry.id}>
            <td className="text-nowrap">{formatTimestamp(entry.timestamp)}</td>
            <td>{entry.client}</td>
            <td>{entry.user}</td>
            <td>{entry.event}</td>
            <td className="d-md-none">
              <div className="fw-semibold">{entry.event}</div>
              <div className="small text-break">
                {entry.user} · {entry.client}
              </div>
              <div className="small text-secondary">{formatTimestamp(entry.timestamp)}</div>
            </td>
          </tr>
        ))}
        <EmptyRow columns={5} shown={rows.length} loading={entries.loading} text="No entries." />
      </ListTable>
      <nav aria-label="Log pages">
        <ul className="pagination pagination-sm flex-wrap">
          <PageItem label="Previous" disabled={page <= 1} onClick={() => go(page - 1)} />
          {pageWindow(page, count).map((number, index) =>
            number === null ? (
              <li className="page-item disabled" key={`gap-${index}`}>
                <span className="page-link">…</span>
              </li>
            ) : (
              <PageItem key={number} label={String(number)} active={number === page} onClick={() => go(number)} />
            ),
          )}
          <PageItem label="Next" disabled={page >= count || rows.length < LOG_PAGE_SIZE} onClick={() => go(page + 1)} />
        </ul>
      </nav>
    </>
  );
}

function PageItem({ label, onClick, active = false, disabled = false }: { label: string; onClick: () => void; active?: boolean; disabled?: boolean }) {
  return (
    <li className={`page-item${active ? ' active' : ''}${disabled ? ' disabled' : ''}`}>
      <button type="button" className="page-link" onClick={onClick} disabled={disabled} aria-current={active ? 'page' : undefined}>
        {label}
      </button>
    </li>
  );
}
