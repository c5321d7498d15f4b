/**
 * The frames of the logged-in screens (docs/web.md, Navigation): the top bar (the portal's
 * entries and the user menu; on a phone one menu with everything, Escape closes it), and for the
 * admin console a sidebar of grouped entries on wide screens.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { PortalBrand } from '../branding';
import { prefetchConsole } from '../console/screens';
import { CONSOLE_NAV, PORTAL_NAV, USER_MENU_NAV, USER_MENU_NON_ADMIN_NAV, consoleGroups, type NavEntry } from '../navigation';
import { OpenRequestsProvider, useOpenRequests } from '../open-requests';
import { api, logFailure } from '../api';
import { paths } from '../paths';
import { useSession } from '../session';
import { AlertOutlet, useAlerts } from './alerts';
import { useT } from '../i18n/use-t';
import { Email } from './email';
import { ScreenOutlet } from './screen-outlet';

/** The portal's name in the top bar, linking to the launcher. */
function Brand() {
  return (
    <NavLink className="navbar-brand" to={paths.appList}>
      <PortalBrand logoSize={28} />
    </NavLink>
  );
}

export function Layout() {
  const { state } = useSession();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const alerts = useAlerts();
  const user = state.status === 'user' ? state.user : null;
  const owner = (user?.owns?.length ?? 0) > 0;
  const t = useT();

  // The console's screens load on demand (console/screens.ts); an admin's come in the background.
  useEffect(() => {
    if (user?.admin) prefetchConsole();
  }, [user?.admin]);

  // A new screen: the menu closes, and the alerts of the previous screen go.
  useEffect(() => {
    setOpen(false);
    alerts.leaveScreen();
  }, [pathname, alerts]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || document.querySelector('dialog[open]')) return;
      setOpen(false);
      document.getElementById('main-nav-toggle')?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <OpenRequestsProvider admin={user?.admin ?? false}>
      <nav className="navbar navbar-expand-lg navbar-dark bg-dark portal-topbar" aria-label={t('nav.main')}>
        <div className="container-fluid">
          <Brand />
          <button
            id="main-nav-toggle"
            className="navbar-toggler"
            type="button"
            aria-controls="main-nav"
            aria-expanded={open}
            aria-label={t('nav.toggle')}
            onClick={() => setOpen(!open)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div className={`collapse navbar-collapse${open ? ' show' : ''}`} id="main-nav">
            {user && (
              <ul className="navbar-nav me-auto">
                {PORTAL_NAV.filter((entry) => (!entry.ownersOnly || owner) && (!entry.reviewersOnly || owner || user.admin)).map((entry) => (
                  <NavItem key={entry.to} entry={entry} />
                ))}
                {user.admin && (
                  <li className="nav-item d-none d-lg-block">
                    <NavLink className={`nav-link${inConsole(pathname) ? ' active' : ''}`} to={paths.manageApps}>
                      {t('nav.console')}
                      <OpenCount />
                    </NavLink>
                  </li>
                )}
              </ul>
            )}
            {user?.admin && (
              <div className="d-lg-none border-top border-secondary pt-2">
                <ConsoleEntries dark />
              </div>
            )}
            {user && <UserMenu email={user.email} admin={user.admin} />}
          </div>
        </div>
      </nav>
      <Outlet />
    </OpenRequestsProvider>
  );
}

/** Whether a route is one of the console's: its entries, and the detail pages below them. */
function inConsole(pathname: string): boolean {
  return CONSOLE_NAV.some((entry) => pathname === entry.to) || /^\/(user|app|client|team|reviews)\//.test(pathname);
}

function NavItem({ entry, className = 'nav-link' }: { entry: NavEntry; className?: string }) {
  const t = useT();
  return (
    <li className="nav-item">
      <NavLink className={className} to={entry.to}>
        {t(entry.label)}
        {entry.count === 'openRequests' && <OpenCount />}
        {entry.count === 'waitingReviews' && <WaitingReviewsCount />}
      </NavLink>
    </li>
  );
}

/** The admin console's entries by group: the sidebar on wide screens, part of the menu on phones. */
function ConsoleEntries({ dark = false }: { dark?: boolean }) {
  const prefix = dark ? 'menu-group' : 'sidebar-group';
  const t = useT();
  return (
    <>
      {consoleGroups(CONSOLE_NAV).map(({ group, entries }) => (
        <div key={group} className="mb-2">
          <div className={`console-group ${dark ? 'text-light' : 'text-body-secondary'}`} id={`${prefix}-${group}`}>
            {t(group)}
          </div>
          <ul className={`nav flex-column ${dark ? 'navbar-nav' : 'nav-pills'}`} aria-labelledby={`${prefix}-${group}`}>
            {entries.map((entry) => (
              <NavItem key={entry.to} entry={entry} />
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/** The user's email opens Account, (for non-admins) Access Tokens, and Sign out. */
function UserMenu({ email, admin }: { email: string; admin: boolean }) {
  const { logout } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const t = useT();
  const entries = admin ? USER_MENU_NAV : [...USER_MENU_NAV, ...USER_MENU_NON_ADMIN_NAV];

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
      root.current?.querySelector('button')?.focus();
    };
    const onClick = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('mousedown', onClick);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  const signOut = async () => {
    await logout();
    navigate(paths.login, { replace: true });
  };

  return (
    <div className="dropdown user-menu py-2 py-lg-0" ref={root}>
      <button type="button" className="btn btn-dark dropdown-toggle user-menu-toggle text-start" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Email value={email} />
        {admin && <span className="badge text-bg-warning ms-2">{t('nav.admin')}</span>}
      </button>
      {open && (
        <ul className="dropdown-menu dropdown-menu-end show">
          {entries.map((entry) => (
            <li key={entry.to}>
              <NavLink className="dropdown-item" to={entry.to} onClick={() => setOpen(false)}>
                {t(entry.label)}
              </NavLink>
            </li>
          ))}
          <li>
            <hr className="dropdown-divider" />
          </li>
          <li>
            <button type="button" className="dropdown-item" onClick={() => void signOut()}>
              {t('nav.signOut')}
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}

/** The frame of the portal's screens: the page, alerts on top. */
export function PortalFrame() {
  return (
    <main className="container-xxl py-4">
      <AlertOutlet />
      <ScreenOutlet />
    </main>
  );
}

/** The frame of the admin console: its sidebar on wide screens, the page beside it. */
export function ConsoleFrame() {
  const { state } = useSession();
  const t = useT();
  if (state.status !== 'user' || !state.user.admin) return <PortalFrame />;
  return (
    <div className="console">
      <nav className="console-sidebar d-none d-lg-block" aria-label={t('nav.consoleLandmark')}>
        <ConsoleEntries />
      </nav>
      <main className="console-main">
        <AlertOutlet />
        <ScreenOutlet />
      </main>
    </div>
  );
}

/** Undecided review items the user may decide, over every open review (fresh at every screen change). */
function WaitingReviewsCount() {
  const { pathname } = useLocation();
  const [count, setCount] = useState(0);
  useEffect(() => {
    let live = true;
    api.reviews
      .list()
      .then((reviews) => live && setCount(reviews.reduce((sum, review) => sum + (review.status === 'open' ? review.waiting : 0), 0)))
      .catch((error: unknown) => logFailure('count reviews waiting', error));
    return () => {
      live = false;
    };
  }, [pathname]);
  if (count === 0) return null;
  return (
    <span className="badge rounded-pill text-bg-warning ms-1">
      {count}
      <span className="visually-hidden"> waiting</span>
    </span>
  );
}

function OpenCount() {
  const { count } = useOpenRequests();
  const t = useT();
  if (count === 0) return null;
  return (
    <span className="badge rounded-pill text-bg-warning ms-1">
      {count}
      <span className="visually-hidden">{t('nav.open')}</span>
    </span>
  );
}

/** The frame of the login screens: a centred card, no navigation. */
export function Centered({ children }: { children: ReactNode }) {
  return (
    <main className="container py-5">
      <div className="row justify-content-center">
        <div className="col-12 col-sm-10 col-md-7 col-lg-5">
          <h1 className="h3 text-center mb-4">
            <PortalBrand logoSize={40} />
          </h1>
          <AlertOutlet />
          {children}
        </div>
      </div>
    </main>
  );
}
