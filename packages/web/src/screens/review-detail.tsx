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
import type { MessageKey } from '../i18n/en';
import { useT, type Translate } from '../i18n/use-t';
import { formatDate } from '../logic/format';

const grantee = (item: ReviewItem, t: Translate) => item.user?.email ?? t('review.team', { name: item.team?.name ?? '' });

const OUTCOME_WORDS: Record<NonNullable<ReviewItem['outcome']>, MessageKey> = {
  kept: 'review.outcome.kept',
  removed: 'review.outcome.removed',
  already_gone: 'review.outcome.alreadyGone',
};

export function ReviewDetail() {
  const id = Number(useParams().id);
  const run = useAction();
  const t = useT();
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
      success: t(decision === 'keep' ? 'review.kept' : 'review.markedForRemoval', { count: selected.length }),
      danger: t('review.decideFailed', { count: selected.length }),
      what: 'decide review items',
      onSuccess: reload,
    });
  const close = () =>
    run({
      call: () => api.reviews.close(id),
      success: t('review.closed', { name: review.data?.name ?? id }),
      danger: t('review.closeFailed', { name: review.data?.name ?? id }),
      what: 'close review',
      onSuccess: reload,
    });

  const data = review.data;
  return (
    <>
      <PageHeader
        title={data ? t('review.title', { name: data.name }) : t('review.titleLoading')}
        lead={
          data
            ? t(data.whenMissed === 'revoke' ? 'review.leadRemoved' : 'review.leadKept', {
                status: data.status === 'open' ? t('reviews.open') : t('reviews.closed'),
                due: formatDate(data.due),
              })
            : undefined
        }
        actions={
          <>
            <a className="btn btn-outline-secondary" href={api.url(api.reviews.exportPath(id, 'csv'))} download>
              {t('review.export')}
            </a>
            {open && (
              <button type="button" className="btn btn-outline-danger" onClick={() => void close()}>
                {t('review.close')}
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
            {t('review.undecided')}
          </label>
        </div>
        <div className="form-check">
          <input className="form-check-input" type="checkbox" id="filter-unused" checked={unused} onChange={(event) => setUnused(event.target.checked)} />
          <label className="form-check-label" htmlFor="filter-unused">
            {t('review.unused')}
          </label>
        </div>
        <div>
          <label className="visually-hidden" htmlFor="filter-app">
            {t('review.app')}
          </label>
          <select id="filter-app" className="form-select form-select-sm" value={app} onChange={(event) => setApp(event.target.value)}>
            <option value="">{t('review.allApps')}</option>
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
            {t('review.comment')}
          </label>
          <input
            id="decision-comment"
            type="text"
            className="form-control form-control-sm"
            style={{ maxWidth: '20rem' }}
            placeholder={t('review.commentPlaceholder')}
            value={comment}
            onChange={(event) => setComment(event.target.value)}
          />
          <button type="button" className="btn btn-sm btn-success" disabled={selected.length === 0} onClick={() => void decide('keep')}>
            {t('review.keep')}
          </button>
          <button type="button" className="btn btn-sm btn-danger" disabled={selected.length === 0} onClick={() => void decide('remove')}>
            {t('review.remove')}
          </button>
          <span className="small text-secondary">{t('review.selected', { count: selected.length })}</span>
        </div>
      )}
      <ListTable
        label={t('review.items')}
        head={
          <>
            <th scope="col">
              <input
                className="form-check-input"
                type="checkbox"
                aria-label={t('review.selectAll')}
                checked={allSelected}
                disabled={!open || rows.length === 0}
                onChange={() => setSelected(allSelected ? [] : rows.map((item) => item.id))}
              />
            </th>
            <th scope="col">{t('review.grantee')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('review.app')}
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('review.role')}
            </th>
            <th scope="col">{t('review.lastUsed')}</th>
            <th scope="col">{t('review.decision')}</th>
          </>
        }
      >
        {rows.map((item) => (
          <tr key={item.id}>
            <td>
              <input
                className="form-check-input"
                type="checkbox"
                aria-label={t('review.select', { grantee: grantee(item, t), app: item.app.name })}
                checked={selected.includes(item.id)}
                disabled={!open || item.applied !== undefined}
                onChange={() => setSelected(selected.includes(item.id) ? selected.filter((entry) => entry !== item.id) : [...selected, item.id])}
              />
            </td>
            <td className="text-break">
              {grantee(item, t)}
              <div className="small text-secondary d-md-none">{item.app.name}</div>
            </td>
            <td className="d-none d-md-table-cell">{item.app.name}</td>
            <td className="d-none d-md-table-cell">{item.role ?? ''}</td>
            <td>{item.lastUsed ? <Time iso={item.lastUsed} /> : t('review.never')}</td>
            <td>
              {item.decision ? (item.decision === 'keep' ? t('review.keep') : t('review.remove')) : t('review.undecided')}
              {item.decidedBy && <span className="small text-secondary">{t('review.by', { name: item.decidedBy })}</span>}
              {item.outcome && <span className="small text-secondary">{t(OUTCOME_WORDS[item.outcome])}</span>}
            </td>
          </tr>
        ))}
        <EmptyRow columns={6} shown={rows.length} loading={items.loading} text={t('review.noItems')} />
      </ListTable>
    </>
  );
}
