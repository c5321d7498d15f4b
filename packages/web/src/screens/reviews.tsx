/** /reviews (docs/reviews.md): access reviews with their progress; Start review. Admins and app owners. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api, logFailure } from '../api';
import { EmptyRow } from '../components/empty-row';
import { ListPage } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { Time } from '../components/time';
import { ReviewProgress } from '../components/review-progress';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { useT } from '../i18n/use-t';
import { filterRows } from '../logic/filter';
import { paths } from '../paths';
import { useSession } from '../session';

export function Reviews() {
  const t = useT();
  const [filter, setFilter] = useState('');
  const [starting, setStarting] = useState(false);
  const reviews = useLoad(
    () => api.reviews.list(),
    (error) => logFailure('load reviews', error),
  );
  const rows = filterRows(reviews.data ?? [], filter, (review) => [review.name, review.status, ...review.apps.map((app) => app.name)]);
  return (
    <>
      <ListPage
        title={t('nav.reviews')}
        lead={t('reviews.lead')}
        filter={filter}
        onFilter={setFilter}
        action={{ label: t('reviews.start'), onClick: () => setStarting(true) }}
        head={
          <>
            <th scope="col">{t('reviews.review')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('reviews.apps')}
            </th>
            <th scope="col">{t('reviews.due')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('reviews.status')}
            </th>
            <th scope="col">{t('reviews.progress')}</th>
          </>
        }
      >
        {rows.map((review) => (
          <tr key={review.id}>
            <td>
              <Link to={paths.review(review.id)}>{review.name}</Link>
            </td>
            <td className="d-none d-md-table-cell">{review.apps.map((app) => app.name).join(', ')}</td>
            <td>
              <Time iso={review.due} />
            </td>
            <td className="d-none d-md-table-cell">{review.status === 'open' ? t('reviews.open') : t('reviews.closed')}</td>
            <td>
              <ReviewProgress review={review} />
            </td>
          </tr>
        ))}
        <EmptyRow columns={5} shown={rows.length} loading={reviews.loading} text={t('reviews.none')} />
      </ListPage>
      {starting && (
        <StartReviewModal
          onClose={() => setStarting(false)}
          onStarted={async () => {
            setStarting(false);
            await reviews.reload();
          }}
        />
      )}
    </>
  );
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

function StartReviewModal({ onClose, onStarted }: { onClose: () => void; onStarted: () => Promise<void> }) {
  const run = useAction();
  const t = useT();
  const { state } = useSession();
  const user = state.status === 'user' ? state.user : null;
  const apps = useLoad(
    async () => (await api.apps.list()).filter((app) => user?.admin || user?.owns?.includes(app.id)),
    (error) => logFailure('load apps', error),
  );
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [reviewers, setReviewers] = useState<'owners' | 'admins'>('owners');
  const [due, setDue] = useState(inDays(30));
  const [whenMissed, setWhenMissed] = useState<'keep' | 'revoke'>('keep');
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    await run({
      call: () => api.reviews.start({ name, apps: chosen.length > 0 ? chosen : 'all', reviewers, due: new Date(`${due}T23:59:59Z`).toISOString(), whenMissed }),
      success: t('reviews.started', { name }),
      danger: t('reviews.startFailed', { name }),
      what: 'start review',
      onSuccess: onStarted,
    });
    setBusy(false);
  };
  const toggle = (id: number) => setChosen(chosen.includes(id) ? chosen.filter((entry) => entry !== id) : [...chosen, id]);

  return (
    <Modal title={t('reviews.start')} onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy} />}>
      <div className="mb-3">
        <label className="form-label" htmlFor="review-name">
          {t('reviews.name')}
        </label>
        <input id="review-name" type="text" className="form-control" value={name} autoFocus onChange={(event) => setName(event.target.value)} />
      </div>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">{t('reviews.appsChoice')}</legend>
        <div style={{ maxHeight: '12rem', overflowY: 'auto' }}>
          {(apps.data ?? []).map((app) => (
            <div className="form-check" key={app.id}>
              <input
                className="form-check-input"
                type="checkbox"
                id={`review-app-${app.id}`}
                checked={chosen.includes(app.id)}
                onChange={() => toggle(app.id)}
              />
              <label className="form-check-label" htmlFor={`review-app-${app.id}`}>
                {app.name}
              </label>
            </div>
          ))}
        </div>
      </fieldset>
      <div className="mb-3">
        <label className="form-label" htmlFor="review-reviewers">
          {t('reviews.decidedBy')}
        </label>
        <select id="review-reviewers" className="form-select" value={reviewers} onChange={(event) => setReviewers(event.target.value as 'owners' | 'admins')}>
          <option value="owners">{t('reviews.owners')}</option>
          <option value="admins">{t('reviews.admins')}</option>
        </select>
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="review-due">
          {t('reviews.due')}
        </label>
        <input id="review-due" type="date" className="form-control" value={due} onChange={(event) => setDue(event.target.value)} />
      </div>
      <label className="form-label" htmlFor="review-missed">
        {t('reviews.undecidedGrants')}
      </label>
      <select id="review-missed" className="form-select" value={whenMissed} onChange={(event) => setWhenMissed(event.target.value as 'keep' | 'revoke')}>
        <option value="keep">{t('reviews.keepThem')}</option>
        <option value="revoke">{t('reviews.removeThem')}</option>
      </select>
    </Modal>
  );
}
