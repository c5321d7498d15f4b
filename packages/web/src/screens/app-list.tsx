/**
 * /applist and /apps (docs/product.md §2): the launcher, for everyone. A Search apps box on top
 * (`/` focuses it, Enter opens the single match, arrow keys move between tiles), favourites first
 * with a star, then the apps by category as tiles with their icons. Admins also get the prod/dev
 * switch, Other Tools and a link to the console's Apps table, where apps are made and changed.
 */
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import type { AppView } from '@tools-portal/core/apps';
import type { ListedApp } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { useBranding } from '../branding';
import { useAlerts } from '../components/alerts';
import { AppIcon } from '../components/app-icon';
import { PageHeader } from '../components/page-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { appListColumns, onlyAppUrl } from '../logic/app-list';
import { groupApps, isSearchShortcut, searchApps } from '../logic/launcher';
import { tileToFocus, type TileKey } from '../logic/tile-keys';
import { paths } from '../paths';
import { useCurrentUser } from '../session';

const VIEW_WORDS: Record<AppView, string> = {
  prod: 'Showing production apps: apps whose URL ends in -dev and external tools are hidden.',
  dev: 'Showing development apps only: those whose URL ends in -dev.',
};

export function AppList() {
  const user = useCurrentUser();
  const { portalName, oldDocsUrl } = useBranding();
  const alerts = useAlerts();
  const run = useAction();
  const [view, setView] = useState<AppView>('prod');
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);
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
  const groups = groupApps(found);
  const canRequest = (requestable.data?.length ?? 0) > 0;

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

  /** Arrow keys move between the tiles' links, row by row as the grid lays them out. */
  const onGridKey = (event: ReactKeyboardEvent) => {
    const key = event.key as TileKey;
    if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(key)) return;
    const links = [...(grid.current?.querySelectorAll<HTMLAnchorElement>('a.app-tile-link') ?? [])];
    const from = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (from < 0) return;
    const boxes = links.map((link) => link.closest('.app-tile')!.getBoundingClientRect());
    const to = tileToFocus(
      boxes.map((box) => ({ left: box.left, top: box.top })),
      from,
      key,
    );
    if (to === from) return;
    event.preventDefault();
    links[to].focus();
  };

  const onSearchKey = (event: ReactKeyboardEvent) => {
    if (event.key !== 'ArrowDown') return;
    const first = grid.current?.querySelector<HTMLAnchorElement>('a.app-tile-link');
    if (!first) return;
    event.preventDefault();
    first.focus();
  };

  const loaded = apps.data !== undefined;
  const none = loaded && (apps.data ?? []).length === 0;

  return (
    <>
      <PageHeader
        title={portalName}
        lead={user.admin ? 'Your apps, and the tools of the portal.' : 'The apps you may open. Pick one to start.'}
        actions={
          <>
            {canRequest && (
              <Link to={paths.requests} className="btn btn-outline-primary">
                Request access
              </Link>
            )}
            {user.admin && (
              <Link to={paths.manageApps} className="btn btn-primary">
                Manage apps
              </Link>
            )}
          </>
        }
      />
      {onlyUrl && <p className="text-secondary">Opening your app…</p>}
      {none && (user.admin ? <GetStarted /> : <NoAppsYet canRequest={canRequest} />)}
      {!none && (
        <div className="row g-4">
          <div className={user.admin ? 'col-12 col-lg-8 col-xl-9' : 'col-12'}>
            <form
              role="search"
              className="mb-3"
              onSubmit={(event) => {
                event.preventDefault();
                openSingleMatch();
              }}
            >
              <input
                ref={search}
                type="search"
                className="form-control form-control-lg"
                placeholder="Search apps  ( / )"
                aria-label="Search apps"
                aria-keyshortcuts="/"
                value={query}
                onKeyDown={onSearchKey}
                onChange={(event) => setQuery(event.target.value)}
              />
            </form>
            {user.admin && (
              <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
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
                <span className="small text-secondary">{VIEW_WORDS[view]}</span>
              </div>
            )}
            <p className="visually-hidden" role="status" aria-live="polite">
              {query ? `${found.length} ${found.length === 1 ? 'app matches' : 'apps match'}` : ''}
            </p>
            <div ref={grid} onKeyDown={onGridKey}>
              {groups.map((group) => (
                <section
                  key={group.key}
                  className="mb-4"
                  aria-labelledby={group.title ? `apps-${group.key}` : undefined}
                  aria-label={group.title ? undefined : 'Apps'}
                >
                  {group.title && (
                    <h2 className="app-section-title" id={`apps-${group.key}`}>
                      {group.title}
                    </h2>
                  )}
                  <ul className="app-grid list-unstyled">
                    {group.apps.map((app) => (
                      <li key={app.id}>
                        <AppTile app={app} onFavourite={() => void toggleFavourite(app)} />
                      </li>
                    ))}
                  </ul>
                </section>
              ))}
              {loaded && found.length === 0 && <p className="text-secondary fst-italic">{query ? 'No app matches.' : 'No apps.'}</p>}
            </div>
          </div>
          {user.admin && (
            <aside className="col-12 col-lg-4 col-xl-3">
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
      )}
    </>
  );
}

/** One app: its icon or monogram, name (the whole tile opens it), one line of description, the star. */
function AppTile({ app, onFavourite }: { app: ListedApp; onFavourite: () => void }) {
  return (
    <div className="app-tile card h-100">
      <div className="card-body d-flex align-items-start gap-3">
        <AppIcon app={app} />
        <div className="flex-grow-1 min-w-0">
          <a href={app.url} className="app-tile-link stretched-link fw-semibold text-body text-decoration-none">
            {app.name}
          </a>
          <div className="small text-secondary text-truncate" title={app.description || undefined}>
            {app.description || '\u00a0'}
          </div>
          {app.doclink && (
            <a href={app.doclink} className="small app-tile-extra">
              docs
            </a>
          )}
        </div>
        <button
          type="button"
          className="btn btn-link favourite-toggle app-tile-extra p-1"
          aria-pressed={app.favourite}
          aria-label={`Favourite ${app.name}`}
          title={app.favourite ? 'Remove from favourites' : 'Add to favourites'}
          onClick={onFavourite}
        >
          <span aria-hidden="true">{app.favourite ? '★' : '☆'}</span>
        </button>
      </div>
    </div>
  );
}

/** docs/product.md §2: a user without apps learns how to get one. */
function NoAppsYet({ canRequest }: { canRequest: boolean }) {
  return (
    <div className="card empty-state">
      <div className="card-body p-4">
        <h2 className="h4">You don't have any apps yet</h2>
        <p className="mb-3">
          {canRequest
            ? 'Ask for the apps you need: an admin decides, and they appear here once granted.'
            : 'Ask the admins of this portal (whoever sent you the invitation) to give you the apps you need; they appear here once granted.'}
        </p>
        <Link to={paths.requests} className="btn btn-primary">
          Request access
        </Link>
      </div>
    </div>
  );
}

/** docs/product.md §2: an admin of a portal without apps sees where to begin. */
function GetStarted() {
  return (
    <div className="card empty-state">
      <div className="card-body p-4">
        <h2 className="h4">Get started</h2>
        <p>The portal has no apps yet. Three ways to begin:</p>
        <ol className="mb-0">
          <li className="mb-2">
            <Link to={`${paths.manageApps}?new=1`}>Add an app</Link>: its name and URL are enough.
          </li>
          <li className="mb-2">
            <Link to={paths.invites}>Invite someone</Link>: they get a link to set their password.
          </li>
          <li>
            Or load demo data from a terminal: <code>toolsctl seed fixtures/demo.json</code>
          </li>
        </ol>
      </div>
    </div>
  );
}
