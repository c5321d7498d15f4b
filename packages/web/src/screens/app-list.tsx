/** /applist and /apps (SPEC section 2): the apps of the user; for admins also prod/dev, editing and Other Tools. */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AppView } from '@tools-portal/core/apps';
import type { App } from '@tools-portal/core/entities';
import { api } from '../api';
import { useAlerts } from '../components/alerts';
import { EmptyRow } from '../components/empty-row';
import { DeleteButton } from '../components/delete-button';
import { ListTable } from '../components/list-page';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { AppFormModal, type AppFormMode } from '../components/app-form-modal';
import { appListColumns, onlyAppUrl } from '../logic/app-list';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';
import { useCurrentUser } from '../session';

export function AppList() {
  const user = useCurrentUser();
  const alerts = useAlerts();
  const run = useAction();
  const [view, setView] = useState<AppView>('prod');
  const [sort, onSort] = useSort({ key: 'name', direction: 'asc' });
  const [form, setForm] = useState<AppFormMode | null>(null);
  const apps = useLoad(() => api.apps.list(), () => alerts.danger('failed to fetch all apps'));

  // SPEC section 1: a user with exactly one app goes straight to it. Admins stay, so that the
  // portal's own management screens remain reachable after they create the first app.
  const onlyUrl = apps.data && !user.admin ? onlyAppUrl(apps.data) : null;
  useEffect(() => {
    if (onlyUrl) window.location.assign(onlyUrl);
  }, [onlyUrl]);

  const columns = appListColumns(apps.data ?? [], user.admin, view);
  const shown = sortRows(columns.apps, (app) => app.name, sort.direction);

  const remove = (app: App) =>
    run({ call: () => api.apps.delete(app.id), danger: 'failed to delete app', what: 'delete app', onSuccess: apps.reload });

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 me-auto mb-0">Tools-Server</h1>
        {user.admin && (
          <>
            <div className="btn-group btn-group-sm" role="group" aria-label="prod or dev apps">
              {(['prod', 'dev'] as const).map((option) => (
                <button
                  key={option}
                  type="button"
                  className={`btn ${view === option ? 'btn-secondary' : 'btn-outline-secondary'}`}
                  aria-pressed={view === option}
                  onClick={() => setView(option)}
                >
                  {option}
                </button>
              ))}
            </div>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setForm({ kind: 'new' })}>
              New App
            </button>
          </>
        )}
      </div>
      {onlyUrl && <p className="text-secondary">Opening your app…</p>}
      <div className="row g-4">
        <div className={user.admin ? 'col-12 col-lg-8' : 'col-12'}>
          <ListTable
            label="Apps"
            head={
              <>
                <SortHeader column="name" sort={sort} onSort={onSort}>
                  App Name
                </SortHeader>
                {user.admin && (
                  <th scope="col" className="text-end">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </>
            }
          >
            {shown.map((app) => (
              <tr key={app.id}>
                <td>
                  <a href={app.url} className="fw-semibold">
                    {app.name}
                  </a>
                  {app.description && <div className="small text-secondary">{app.description}</div>}
                  {app.doclink && (
                    <a href={app.doclink} className="small">
                      docs
                    </a>
                  )}
                </td>
                {user.admin && (
                  <td>
                    <div className="d-flex flex-wrap justify-content-end align-items-center gap-2">
                      <Link to={paths.app(app.id)} className="btn btn-sm btn-link">
                        to the app
                      </Link>
                      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setForm({ kind: 'edit', app })}>
                        Edit
                      </button>
                      <DeleteButton label="Delete App" onConfirm={() => remove(app)} />
                    </div>
                  </td>
                )}
              </tr>
            ))}
            <EmptyRow columns={user.admin ? 2 : 1} shown={shown.length} loading={apps.loading} text="No apps." />
          </ListTable>
        </div>
        {user.admin && (
          <aside className="col-12 col-lg-4">
            <div className="card">
              <div className="card-header fw-semibold">Other Tools</div>
              <ul className="list-group list-group-flush">
                {columns.otherTools.map((tool) => (
                  <li className="list-group-item" key={tool.id}>
                    <a href={tool.url}>{tool.name}</a>
                    {tool.description && <div className="small text-secondary">{tool.description}</div>}
                  </li>
                ))}
                <li className="list-group-item">
                  <a href="/docs/">old documentation</a>
                </li>
              </ul>
            </div>
          </aside>
        )}
      </div>
      {form && (
        <AppFormModal
          mode={form}
          onClose={() => setForm(null)}
          onSaved={async () => {
            setForm(null);
            await apps.reload();
          }}
        />
      )}
    </>
  );
}
