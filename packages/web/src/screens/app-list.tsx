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
import type { MessageKey } from '../i18n/en';
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
import { useDescription } from '../i18n/description';
import { useT } from '../i18n/use-t';
import { useCurrentUser } from '../session';

const VIEW_WORDS = { prod: 'launcher.view.prod', dev: 'launcher.view.dev' } as const satisfies Record<AppView, MessageKey>;

// The placeholder names the `/` key only where a keyboard is likely (a mouse or touchpad): a phone
// or tablet has no key to press.
const keyboardLikely = () => window.matchMedia?.('(hover: hover) and (pointer: fine)').matches ?? true;

export function AppList() {
  const user = useCurrentUser();
  const { portalName, oldDocsUrl } = useBranding();
  const alerts = useAlerts();
  const run = useAction();
  const t = useT();
  const describe = useDescription();
  const [view, setView] = useState<AppView>('prod');
  const [query, setQuery] = useState('');
  const search = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const apps = useLoad(
    () => api.apps.list(),
    () => alerts.danger(t('launcher.loadFailed')),
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
      danger: t(app.favourite ? 'launcher.unfavouriteFailed' : 'launcher.favouriteFailed', { name: app.name }),
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
        lead={user.admin ? t('launcher.leadAdmin') : t('launcher.lead')}
        actions={
          <>
            {canRequest && (
              <Link to={paths.requests} className="btn btn-outline-primary">
                {t('nav.requestAccess')}
              </Link>
            )}
            {user.admin && (
              <Link to={paths.manageApps} className="btn btn-primary">
                {t('launcher.manageApps')}
              </Link>
            )}
          </>
        }
      />
      {onlyUrl && <p className="text-secondary">{t('launcher.opening')}</p>}
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
                placeholder={keyboardLikely() ? t('launcher.searchPlaceholder') : t('launcher.search')}
                aria-label={t('launcher.search')}
                aria-keyshortcuts="/"
                value={query}
                onKeyDown={onSearchKey}
                onChange={(event) => setQuery(event.target.value)}
              />
            </form>
            {user.admin && (
              <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
                <div className="btn-group btn-group-sm" role="group" aria-label={t('launcher.viewChoice')}>
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
                <span className="small text-secondary">{t(VIEW_WORDS[view])}</span>
              </div>
            )}
            <p className="visually-hidden" role="status" aria-live="polite">
              {query ? t('launcher.matches', { count: found.length }) : ''}
            </p>
            <div ref={grid} onKeyDown={onGridKey}>
              {groups.map((group) => (
                <section
                  key={group.key}
                  className="mb-4"
                  aria-labelledby={group.title ? `apps-${group.key}` : undefined}
                  aria-label={group.title ? undefined : t('nav.apps')}
                >
                  {group.title && (
                    <h2 className="app-section-title" id={`apps-${group.key}`}>
                      {group.key === 'favourites' ? t('launcher.favourites') : group.key === 'uncategorised' ? t('launcher.uncategorised') : group.title}
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
              {loaded && found.length === 0 && <p className="text-secondary fst-italic">{query ? t('launcher.noMatch') : t('launcher.none')}</p>}
            </div>
          </div>
          {user.admin && (
            <aside className="col-12 col-lg-4 col-xl-3">
              <div className="card">
                <div className="card-header fw-semibold">{t('launcher.otherTools')}</div>
                <ul className="list-group list-group-flush">
                  {columns.otherTools.map((tool) => (
                    <li className="list-group-item" key={tool.id}>
                      <a href={tool.url}>{tool.name}</a>
                      {describe(tool) && <div className="small text-secondary">{describe(tool)}</div>}
                    </li>
                  ))}
                  {oldDocsUrl && (
                    <li className="list-group-item">
                      <a href={oldDocsUrl}>{t('launcher.oldDocs')}</a>
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
  const t = useT();
  const description = useDescription()(app);
  return (
    <div className="app-tile card h-100">
      <div className="card-body d-flex align-items-start gap-3">
        <AppIcon app={app} />
        <div className="flex-grow-1 min-w-0">
          <a href={app.url} className="app-tile-link stretched-link fw-semibold text-body text-decoration-none">
            {app.name}
          </a>
          <div className="small text-secondary text-truncate" title={description || undefined}>
            {description || '\u00a0'}
          </div>
          {app.doclink && (
            <a href={app.doclink} className="small app-tile-extra">
              {t('launcher.docs')}
            </a>
          )}
        </div>
        <button
          type="button"
          className="btn btn-link favourite-toggle app-tile-extra p-1"
          aria-pressed={app.favourite}
          aria-label={t('launcher.favourite', { name: app.name })}
          title={app.favourite ? t('launcher.removeFavourite') : t('launcher.addFavourite')}
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
  const t = useT();
  return (
    <div className="card empty-state">
      <div className="card-body p-4">
        <h2 className="h4">{t('launcher.noAppsTitle')}</h2>
        <p className="mb-3">{canRequest ? t('launcher.noAppsRequest') : t('launcher.noAppsAsk')}</p>
        <Link to={paths.requests} className="btn btn-primary">
          {t('nav.requestAccess')}
        </Link>
      </div>
    </div>
  );
}

/** docs/product.md §2: an admin of a portal without apps sees where to begin. */
function GetStarted() {
  const t = useT();
  return (
    <div className="card empty-state">
      <div className="card-body p-4">
        <h2 className="h4">{t('launcher.getStarted')}</h2>
        <p>{t('launcher.getStartedText')}</p>
        <ol className="mb-0">
          <li className="mb-2">
            <Link to={`${paths.manageApps}?new=1`}>{t('launcher.addApp')}</Link>
            {t('launcher.addAppText')}
          </li>
          <li className="mb-2">
            <Link to={paths.invites}>{t('launcher.invite')}</Link>
            {t('launcher.inviteText')}
          </li>
          <li>
            {t('launcher.seed')} <code>toolsctl seed fixtures/demo.json</code>
          </li>
        </ol>
      </div>
    </div>
  );
}
