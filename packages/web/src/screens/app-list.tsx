/**
 * /applist and /apps (docs/product.md §2): the apps of the user; for admins also prod/dev, editing and
 * Other Tools. The launcher (docs/api.md, Apps): a Search apps box (`/` focuses it, Enter opens
 * the single match), favourites first with a star, then the apps by category, with their icons.
 */
import { Fragment, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { AppView } from '@tools-portal/core/apps';
import type { ListedApp } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { useBranding } from '../branding';
import { useAlerts } from '../components/alerts';
import { AppFormModal, type AppFormMode } from '../components/app-form-modal';
import { AppIcon } from '../components/app-icon';
import { DeleteButton } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ListTable } from '../components/list-page';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { appListColumns, onlyAppUrl } from '../logic/app-list';
import { groupApps, isSearchShortcut, searchApps } from '../logic/launcher';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';
import { useCurrentUser } from '../session';

export function AppList() {
  const user = useCurrentUser();
  const { portalName, oldDocsUrl } = useBranding();
  const alerts = useAlerts();
  const run = useAction();
  const [view, setView] = useState<AppView>('prod');
  const [sort, onSort] = useSort({ key: 'name', direction: 'asc' });
  const [form, setForm] = useState<AppFormMode | null>(null);
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);
  const apps = useLoad(
    () => api.apps.list(),
    () => alerts.danger('failed to fetch all apps'),
  );
  const requestable = useLoad(
    () => api.users.requestable(),
    (error) => logFailure('load requestable apps', error),
  );

  // docs/product.md §1: a user with exactly one app goes straight to it. Admins stay, so that the
  // portal's own management screens remain reachable after they create the first app.
  const onlyUrl = apps.data && !user.admin ? onlyAppUrl(apps.data) : null;
  useEffect(() => {
    if (onlyUrl) window.location.assign(onlyUrl);
  }, [onlyUrl]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event, event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      search.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const columns = appListColumns(apps.data ?? [], user.admin, view);
  const found = searchApps(columns.apps, query);
  const groups = groupApps(found).map((group) => ({ ...group, apps: sortRows(group.apps, (app) => app.name, sort.direction) }));
  const columnCount = user.admin ? 3 : 2;

  const remove = (app: ListedApp) => run({ call: () => api.apps.delete(app.id), danger: 'failed to delete app', what: 'delete app', onSuccess: apps.reload });

  const toggleFavourite = (app: ListedApp) =>
    run({
      call: () => (app.favourite ? api.users.unfavourite(app.id) : api.users.favourite(app.id)),
      danger: `failed to ${app.favourite ? 'remove' : 'add'} favourite ${app.name}`,
      what: 'toggle favourite',
      onSuccess: apps.reload,
    });

  const openSingleMatch = () => {
    if (found.length === 1) window.location.assign(found[0].url);
  };

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 me-auto mb-0">{portalName}</h1>
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
          <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
            <form
              role="search"
              className="flex-grow-1"
              onSubmit={(event) => {
                event.preventDefault();
                openSingleMatch();
              }}
            >
              <input
                ref={search}
                type="search"
                className="form-control"
                placeholder="Search apps  ( / )"
                aria-label="Search apps"
                aria-keyshortcuts="/"
                value={query}
                onChange={(event) => setQuery(event.target.value)}
              />
            </form>
            {(requestable.data?.length ?? 0) > 0 && (
              <Link to={paths.requests} className="btn btn-outline-primary btn-sm">
                Request access
              </Link>
            )}
          </div>
          <p className="visually-hidden" role="status" aria-live="polite">
            {query ? `${found.length} ${found.length === 1 ? 'app matches' : 'apps match'}` : ''}
          </p>
          <ListTable
            label="Apps"
            head={
              <>
                <SortHeader column="name" sort={sort} onSort={onSort}>
                  App Name
                </SortHeader>
                <th scope="col" className="text-end">
                  <span className="visually-hidden">Favourite</span>
                </th>
                {user.admin && (
                  <th scope="col" className="text-end">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </>
            }
          >
            {groups.map((group) => (
              <Fragment key={group.key}>
                {group.title && (
                  <tr className="table-light">
                    <th scope="colgroup" colSpan={columnCount} className="small text-uppercase fw-semibold text-body">
                      {group.title}
                    </th>
                  </tr>
                )}
                {group.apps.map((app) => (
                  <tr key={app.id}>
                    <td>
                      <div className="d-flex align-items-start gap-3">
                        <AppIcon app={app} />
                        <div>
                          <a href={app.url} className="fw-semibold">
                            {app.name}
                          </a>
                          {app.description && <div className="small text-secondary">{app.description}</div>}
                          {app.doclink && (
                            <a href={app.doclink} className="small">
                              docs
                            </a>
                          )}
                        </div>
                      </div>
                    </td>
                    <td className="text-end">
                      <button
                        type="button"
                        className="btn btn-link favourite-toggle p-1"
                        aria-pressed={app.favourite}
                        aria-label={`Favourite ${app.name}`}
                        title={app.favourite ? 'Remove from favourites' : 'Add to favourites'}
                        onClick={() => void toggleFavourite(app)}
                      >
                        <span aria-hidden="true">{app.favourite ? '★' : '☆'}</span>
                      </button>
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
              </Fragment>
            ))}
            <EmptyRow columns={columnCount} shown={found.length} loading={apps.loading} text={query ? 'No app matches.' : 'No apps.'} />
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
                {oldDocsUrl && (
                  <li className="list-group-item">
                    <a href={oldDocsUrl}>old documentation</a>
                  </li>
                )}
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
