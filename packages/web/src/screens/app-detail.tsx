/**
 * /app/{id} (docs/product.md §2): the app (icon, URL, description), Edit and Delete, its users with
 * a two-step Remove access each, and Add User (search the users, an optional expiry).
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { App, User } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { AppFormModal } from '../components/app-form-modal';
import { AppIcon } from '../components/app-icon';
import { DeleteButton } from '../components/delete-button';
import { Email } from '../components/email';
import { EmptyRow } from '../components/empty-row';
import { ExpiryChoice, expiryOf, type ExpiryChoiceValue } from '../components/expiry-choice';
import { HeadingBar, ListTable } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { AppAccessSection } from '../components/app-access-section';
import { AppOwnersSection } from '../components/app-owners-section';
import { OidcSection } from '../components/oidc-section';
import { PageHeader } from '../components/page-header';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { useDescription } from '../i18n/description';
import { useT } from '../i18n/use-t';
import { formatTimestamp } from '../logic/format';
import { isMissing } from '../logic/not-found';
import { filterRows } from '../logic/filter';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';
import { appDeletionConsequence } from './manage-apps';
import { Missing } from './not-found';

export function AppDetail() {
  const rawId = useParams().id ?? '';
  const id = Number(rawId);
  const run = useAction();
  const t = useT();
  const describe = useDescription();
  const navigate = useNavigate();
  const [sort, onSort] = useSort({ key: 'email', direction: 'asc' });
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const app = useLoad(
    () => api.apps.get(id),
    (error) => logFailure('load app', error),
    id,
  );
  const users = useLoad(
    () => api.apps.users(id),
    (error) => logFailure('load app users', error),
    id,
  );

  if (isMissing(app.error))
    return <Missing title={t('app.missingTitle')} text={t('app.missingText', { id: rawId })} back={{ to: paths.manageApps, label: t('app.goToApps') }} />;

  const rows = sortRows(users.data ?? [], (user) => user.email, sort.direction);

  const remove = (user: User) => {
    const name = user.name || user.email;
    return run({
      call: () => api.apps.removeUser(id, user.id),
      success: t('app.userRemoved', { name, id }),
      danger: t('app.userRemoveFailed', { name, id }),
      what: 'remove user from app',
      onSuccess: users.reload,
    });
  };

  const removeApp = (current: App) =>
    run({
      call: () => api.apps.delete(current.id),
      success: t('apps.deleted', { name: current.name }),
      danger: t('apps.deleteFailed', { name: current.name }),
      what: 'delete app',
      onSuccess: () => navigate(paths.manageApps),
    });

  return (
    <>
      <PageHeader
        title={
          app.data ? (
            <span className="d-inline-flex align-items-center gap-3">
              <AppIcon app={app.data} />
              {app.data.name}
            </span>
          ) : (
            '\u00a0'
          )
        }
        lead={(app.data && describe(app.data)) || undefined}
        actions={
          app.data && (
            <>
              <button type="button" className="btn btn-outline-secondary" onClick={() => setEditing(true)}>
                {t('apps.edit')}
              </button>
              <DeleteButton label={t('apps.delete')} onConfirm={() => removeApp(app.data!)} consequence={() => appDeletionConsequence(id, t)} />
            </>
          )
        }
      />
      {app.data && (
        <dl className="row mb-4">
          <dt className="col-sm-4 col-lg-3">{t('app.url')}</dt>
          <dd className="col-sm-8 col-lg-9 text-break">
            <a href={app.data.url}>{app.data.url}</a>
          </dd>
          <dt className="col-sm-4 col-lg-3">{t('app.description')}</dt>
          <dd className="col-sm-8 col-lg-9">{app.data.description || <span className="text-secondary">{t('app.none')}</span>}</dd>
          {app.data.descriptionDe && (
            <>
              <dt className="col-sm-4 col-lg-3">{t('appForm.descriptionDe')}</dt>
              <dd className="col-sm-8 col-lg-9">{app.data.descriptionDe}</dd>
            </>
          )}
          <dt className="col-sm-4 col-lg-3">{t('app.category')}</dt>
          <dd className="col-sm-8 col-lg-9">{app.data.category || <span className="text-secondary">{t('app.none')}</span>}</dd>
          <dt className="col-sm-4 col-lg-3">{t('app.requestable')}</dt>
          <dd className="col-sm-8 col-lg-9">{app.data.requestable ? t('app.requestableYes') : t('app.requestableNo')}</dd>
          {app.data.doclink && (
            <>
              <dt className="col-sm-4 col-lg-3">{t('app.documentation')}</dt>
              <dd className="col-sm-8 col-lg-9 text-break">
                <a href={app.data.doclink}>{app.data.doclink}</a>
              </dd>
            </>
          )}
        </dl>
      )}
      <HeadingBar level={2} title={t('app.users')} action={{ label: t('app.addUser'), onClick: () => setAdding(true), disabled: !app.data }} />
      <ListTable
        label={t('app.usersTable')}
        head={
          <>
            <SortHeader column="email" sort={sort} onSort={onSort}>
              {t('app.email')}
            </SortHeader>
            <th scope="col">{t('app.expires')}</th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">{t('app.removeAccess')}</span>
            </th>
          </>
        }
      >
        {rows.map((user) => (
          <tr key={user.id}>
            <td>
              <Link to={paths.user(user.id)}>
                <Email value={user.email} />
              </Link>
            </td>
            <td className="text-nowrap">{user.expires ? formatTimestamp(user.expires) : t('app.never')}</td>
            <td className="text-end">
              <DeleteButton label={t('app.removeAccess')} onConfirm={() => remove(user)} />
            </td>
          </tr>
        ))}
        <EmptyRow columns={3} shown={rows.length} loading={users.loading} text={t('app.noUsers')} />
      </ListTable>
      {app.data && <AppAccessSection app={app.data} />}
      {app.data && <AppOwnersSection app={app.data} onEdit={() => setEditing(true)} />}
      {app.data && <OidcSection appId={app.data.id} appName={app.data.name} />}
      {editing && app.data && (
        <AppFormModal
          mode={{ kind: 'edit', app: app.data }}
          onClose={() => setEditing(false)}
          onSaved={async () => {
            setEditing(false);
            await app.reload();
          }}
        />
      )}
      {adding && app.data && (
        <AddUserModal
          app={app.data}
          members={new Set(rows.map((user) => user.id))}
          onClose={() => setAdding(false)}
          onAdded={async () => {
            setAdding(false);
            await users.reload();
          }}
        />
      )}
    </>
  );
}

/** Add User: search the users who cannot use the app yet, pick some, optionally when access ends. */
function AddUserModal({ app, members, onClose, onAdded }: { app: App; members: Set<number>; onClose: () => void; onAdded: () => Promise<void> }) {
  const run = useAction();
  const t = useT();
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const candidates = useLoad(
    async () => (await api.users.list()).filter((user) => !members.has(user.id)).sort((a, b) => a.email.localeCompare(b.email)),
    (error) => logFailure('load users', error),
  );
  const shown = filterRows(candidates.data ?? [], query, (user) => [user.email, user.name, user.client.name]);
  const chosen = (candidates.data ?? []).filter((user) => picked.has(user.id));
  const expires = expiryOf(expiry);

  const save = async () => {
    if (expires === null || chosen.length === 0) return;
    setBusy(true);
    for (const user of chosen) {
      const ok = await run({
        call: () => api.users.grant(user.id, app.id, expires),
        success: t('app.added', { email: user.email, app: app.name }),
        danger: t('app.addFailed', { email: user.email, app: app.name }),
        what: 'add user to app',
      });
      if (!ok) {
        setBusy(false);
        return;
      }
    }
    setBusy(false);
    await onAdded();
  };

  return (
    <Modal
      title={t('app.addUser')}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={
        <FormFooter
          onCancel={onClose}
          disabled={busy || chosen.length === 0 || expires === null}
          submitLabel={chosen.length > 1 ? t('app.addUsers', { count: chosen.length }) : t('app.add')}
        />
      }
    >
      <p className="text-secondary small">{t('app.addWho', { app: app.name })}</p>
      <input
        type="search"
        className="form-control mb-2"
        placeholder={t('app.searchUsersPlaceholder')}
        aria-label={t('app.searchUsers')}
        value={query}
        autoFocus
        onChange={(event) => setQuery(event.target.value)}
      />
      <div className="picker-list mb-3" role="group" aria-label={t('app.users')}>
        {shown.map((user) => (
          <div className="form-check" key={user.id}>
            <input
              className="form-check-input"
              type="checkbox"
              id={`add-user-${user.id}`}
              checked={picked.has(user.id)}
              onChange={(event) => {
                const next = new Set(picked);
                if (event.target.checked) next.add(user.id);
                else next.delete(user.id);
                setPicked(next);
              }}
            />
            <label className="form-check-label" htmlFor={`add-user-${user.id}`}>
              <Email value={user.email} /> <span className="text-secondary small">({user.client.name})</span>
            </label>
          </div>
        ))}
        {!candidates.loading && shown.length === 0 && (
          <p className="text-secondary fst-italic mb-0">{query ? t('app.noUserMatches') : t('app.everyoneHasIt')}</p>
        )}
      </div>
      <div className="form-label">{t('app.accessEndsOptional')}</div>
      <ExpiryChoice value={expiry} onChange={setExpiry} label={t('app.accessEnds')} />
    </Modal>
  );
}
