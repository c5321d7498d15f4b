/**
 * /reviews/{id} (docs/reviews.md): one review's items with filters ("not used in 90 days",
 * undecided, an app); select every filtered item, then Keep or Remove; close; the evidence.
 * Admins see every item, an owner those of the apps they own.
 */
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import type { ReviewItem } from '@tools-portal/core/reviews';
import { api, logFailure } from '../api';
import { EmptyRow } from '../components/empty-row';
import { ListTable } from '../components/list-page';
import { PageHeader } from '../components/page-header';
import { ReviewProgress } from '../components/review-progress';
import { Time } from '../components/time';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';

const grantee = (item: ReviewItem) => item.user?.email ?? `Team ${item.team?.name ?? ''}`;

export function ReviewDetail() {
  const id = Number(useParams().id);
  const run = useAction();
  const [undecided, setUndecided] = useState(false);
  const [unused, setUnused] = useState(false);
  const [app, setApp] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [comment, setComment] = useState('');
  const review = useLoad(
    () => api.reviews.get(id),
    (error) => logFailure('load review', error),
    id,
  );
  const items = useLoad(
    () =>
      api.reviews.items(id, {
        ...(undecided ? { decided: false } : {}),
        ...(unused ? { unusedDays: 90 } : {}),
        ...(app ? { app: Number(app) } : {}),
      }),
    (error) => logFailure('load review items', error),
    `${id} ${undecided} ${unused} ${app}`,
  );
  const rows = items.data ?? [];
  const open = review.data?.status === 'open';
  const allSelected = rows.length > 0 && rows.every((item) => selected.includes(item.id));
  const reload = async () => {
    setSelected([]);
    await Promise.all([review.reload(), items.reload()]);
  };

  const decide = (decision: 'keep' | 'remove') =>
    run({
      call: () => api.reviews.decideMany(id, { items: selected, decision, ...(comment ? { comment } : {}) }),
      success: `${decision === 'keep' ? 'kept' : 'marked for removal'}: ${selected.length} item${selected.length === 1 ? '' : 's'}`,
      danger: `failed to decide ${selected.length} item${selected.length === 1 ? '' : 's'}`,
      what: 'decide review items',
      onSuccess: reload,
    });
  const close = () =>
    run({
      call: () => api.reviews.close(id),
      success: `closed review ${review.data?.name ?? id}`,
      danger: `failed to close review ${review.data?.name ?? id}`,
      what: 'close review',
      onSuccess: reload,
    });

  const data = review.data;
  return (
    <>
      <PageHeader
        title={data ? `Review ${data.name}` : 'Review'}
        lead={
          data
            ? `${data.status === 'open' ? 'Open' : 'Closed'}, due ${new Date(data.due).toLocaleDateString()}; undecided grants are ${data.whenMissed === 'revoke' ? 'removed' : 'kept'} at the close.`
            : undefined
        }
        actions={
          <>
            <a className="btn btn-outline-secondary" href={api.url(api.reviews.exportPath(id, 'csv'))} download>
              Export CSV
            </a>
            {open && (
              <button type="button" className="btn btn-outline-danger" onClick={() => void close()}>
                Close review
              </button>
            )}
          </>
        }
      />
      {data && (
        <div className="mb-3" style={{ maxWidth: '30rem' }}>
          <ReviewProgress review={data} />
        </div>
      )}
      <div className="d-flex flex-wrap gap-3 align-items-center mb-3">
        <div className="form-check">
          <input
            className="form-check-input"
            type="checkbox"
            id="filter-undecided"
            checked={undecided}
            onChange={(event) => setUndecided(event.target.checked)}
          />
          <label className="form-check-label" htmlFor="filter-undecided">
            Undecided
          </label>
        </div>
        <div className="form-check">
          <input className="form-check-input" type="checkbox" id="filter-unused" checked={unused} onChange={(event) => setUnused(event.target.checked)} />
          <label className="form-check-label" htmlFor="filter-unused">
            Not used in 90 days
          </label>
        </div>
        <div>
          <label className="visually-hidden" htmlFor="filter-app">
            App
          </label>
          <select id="filter-app" className="form-select form-select-sm" value={app} onChange={(event) => setApp(event.target.value)}>
            <option value="">All apps</option>
            {(data?.apps ?? []).map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {open && (
        <div className="d-flex flex-wrap gap-2 align-items-center mb-3">
          <label className="visually-hidden" htmlFor="decision-comment">
            Comment
          </label>
          <input
            id="decision-comment"
            type="text"
            className="form-control form-control-sm"
            style={{ maxWidth: '20rem' }}
            placeholder="Comment (kept as evidence)"
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
          <button type="button" className="btn btn-sm btn-success" disabled={selected.length === 0} onClick={() => void decide('keep')}>
            Keep
          </button>
          <button type="button" className="btn btn-sm btn-danger" disabled={selected.length === 0} onClick={() => void decide('remove')}>
            Remove
          </button>
          <span className="small text-secondary">{selected.length} selected</span>
        </div>
      )}
      <ListTable
        label="Review items"
        head={
          <>
            <th scope="col">
              <input
                className="form-check-input"
                type="checkbox"
                aria-label="Select all filtered items"
                checked={allSelected}
                disabled={!open || rows.length === 0}
                onChange={() => setSelected(allSelected ? [] : rows.map((item) => item.id))}
              />
            </th>
            <th scope="col">Grantee</th>
            <th scope="col" className="d-none d-md-table-cell">
              App
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              Role
            </th>
            <th scope="col">Last used</th>
            <th scope="col">Decision</th>
          </>
        }
      >
        {rows.map((item) => (
          <tr key={item.id}>
            <td>
              <input
                className="form-check-input"
                type="checkbox"
                aria-label={`Select ${grantee(item)} on ${item.app.name}`}
                checked={selected.includes(item.id)}
                disabled={!open || item.applied !== undefined}
                onChange={() => setSelected(selected.includes(item.id) ? selected.filter((entry) => entry !== item.id) : [...selected, item.id])}
              />
            </td>
            <td className="text-break">
              {grantee(item)}
              <div className="small text-secondary d-md-none">{item.app.name}</div>
            </td>
            <td className="d-none d-md-table-cell">{item.app.name}</td>
            <td className="d-none d-md-table-cell">{item.role ?? ''}</td>
            <td>{item.lastUsed ? <Time iso={item.lastUsed} /> : 'Never'}</td>
            <td>
              {item.decision ? (item.decision === 'keep' ? 'Keep' : 'Remove') : 'Undecided'}
              {item.decidedBy && <span className="small text-secondary"> by {item.decidedBy}</span>}
              {item.outcome && <span className="small text-secondary"> ({item.outcome.replace('_', ' ')})</span>}
            </td>
          </tr>
        ))}
        <EmptyRow columns={6} shown={rows.length} loading={items.loading} text="No items." />
      </ListTable>
    </>
  );
}
