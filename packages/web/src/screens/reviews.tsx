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
import { filterRows } from '../logic/filter';
import { paths } from '../paths';
import { useSession } from '../session';

export function Reviews() {
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
        title="Reviews"
        lead="Owners or admins keep or remove each grant of some apps by a due date."
        filter={filter}
        onFilter={setFilter}
        action={{ label: 'Start review', onClick: () => setStarting(true) }}
        head={
          <>
            <th scope="col">Review</th>
            <th scope="col" className="d-none d-md-table-cell">
              Apps
            </th>
            <th scope="col">Due</th>
            <th scope="col" className="d-none d-md-table-cell">
              Status
            </th>
            <th scope="col">Progress</th>
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
            <td className="d-none d-md-table-cell">{review.status === 'open' ? 'Open' : 'Closed'}</td>
            <td>
              <ReviewProgress review={review} />
            </td>
          </tr>
        ))}
        <EmptyRow columns={5} shown={rows.length} loading={reviews.loading} text="No reviews." />
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
      success: `started review ${name}`,
      danger: `failed to start review ${name}`,
      what: 'start review',
      onSuccess: onStarted,
    });
    setBusy(false);
  };
  const toggle = (id: number) => setChosen(chosen.includes(id) ? chosen.filter((entry) => entry !== id) : [...chosen, id]);

  return (
    <Modal title="Start review" onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy} />}>
      <div className="mb-3">
        <label className="form-label" htmlFor="review-name">
          Review name
        </label>
        <input id="review-name" type="text" className="form-control" value={name} autoFocus onChange={(event) => setName(event.target.value)} />
      </div>
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Apps (none chosen: every app you may review)</legend>
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
          Decided by
        </label>
        <select id="review-reviewers" className="form-select" value={reviewers} onChange={(event) => setReviewers(event.target.value as 'owners' | 'admins')}>
          <option value="owners">Each app&apos;s owners</option>
          <option value="admins">Admins</option>
        </select>
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="review-due">
          Due
        </label>
        <input id="review-due" type="date" className="form-control" value={due} onChange={(event) => setDue(event.target.value)} />
      </div>
      <label className="form-label" htmlFor="review-missed">
        Grants left undecided
      </label>
      <select id="review-missed" className="form-select" value={whenMissed} onChange={(event) => setWhenMissed(event.target.value as 'keep' | 'revoke')}>
        <option value="keep">Keep them</option>
        <option value="revoke">Remove them</option>
      </select>
    </Modal>
  );
}
