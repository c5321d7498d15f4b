/** The frame of every logged-in screen: the navigation bar (collapsing on a phone) and the page. */
import { useState, type ReactNode } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router-dom';
import { OpenRequestsProvider, useOpenRequests } from '../open-requests';
import { paths } from '../paths';
import { useSession } from '../session';

interface NavItem {
  to: string;
  label: string;
  adminOnly: boolean;
  /** Shows the count of open access requests. */
  count?: boolean;
  /** Only for the owners of an app (`owns` of GET /user/me). */
  ownersOnly?: boolean;
}

const NAV: NavItem[] = [
  { to: paths.appList, label: 'Apps', adminOnly: false },
  { to: paths.userApps, label: 'Your Apps', adminOnly: false },
  { to: paths.clients, label: 'Clients', adminOnly: true },
  { to: paths.users, label: 'Users', adminOnly: true },
  { to: paths.teams, label: 'Teams', adminOnly: true },
  { to: paths.invites, label: 'Invites', adminOnly: true },
  { to: paths.requests, label: 'Request access', adminOnly: false },
  { to: paths.ownedApps, label: 'Apps you own', adminOnly: false, ownersOnly: true },
  { to: paths.accessRequests, label: 'Access requests', adminOnly: true, count: true },
  { to: paths.accessTokens, label: 'Access Tokens', adminOnly: false },
  { to: paths.logs, label: 'Logs', adminOnly: true },
  { to: paths.docs, label: 'Help', adminOnly: true },
];

export function Layout() {
  const { state, logout } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const user = state.status === 'user' ? state.user : null;
  const owner = ((user as { owns?: number[] } | null)?.owns?.length ?? 0) > 0;
  const items = NAV.filter((item) => (!item.adminOnly || user?.admin) && (!item.ownersOnly || owner));

  const onLogout = async () => {
    await logout();
    navigate(paths.login, { replace: true });
  };

  return (
    <OpenRequestsProvider admin={user?.admin ?? false}>
      <nav className="navbar navbar-expand-lg navbar-dark bg-dark mb-4" aria-label="Main">
        <div className="container-fluid">
          <NavLink className="navbar-brand" to={paths.appList}>
            Tools-Server
          </NavLink>
          <button
            className="navbar-toggler"
            type="button"
            aria-controls="main-nav"
            aria-expanded={open}
            aria-label="Toggle navigation"
            onClick={() => setOpen(!open)}
          >
            <span className="navbar-toggler-icon" />
          </button>
          <div className={`collapse navbar-collapse${open ? ' show' : ''}`} id="main-nav">
            {user && (
              <ul className="navbar-nav me-auto">
                {items.map((item) => (
                  <li className="nav-item" key={item.to}>
                    <NavLink className="nav-link" to={item.to} onClick={() => setOpen(false)}>
                      {item.label}
                      {item.count && <OpenCount />}
                    </NavLink>
                  </li>
                ))}
              </ul>
            )}
            {user && (
              <div className="d-flex align-items-lg-center flex-column flex-lg-row gap-2 py-2 py-lg-0">
                <NavLink className="nav-link navbar-text small text-truncate" to={paths.account} title="Account" onClick={() => setOpen(false)}>
                  {user.email}
                  {user.admin && <span className="badge text-bg-warning ms-2">Admin</span>}
                </NavLink>
                <button type="button" className="btn btn-outline-light btn-sm" onClick={() => void onLogout()}>
                  Logout
                </button>
              </div>
            )}
          </div>
        </div>
      </nav>
      <main className="container-xxl pb-5">
        <Outlet />
      </main>
    </OpenRequestsProvider>
  );
}

function OpenCount() {
  const { count } = useOpenRequests();
  if (count === 0) return null;
  return (
    <span className="badge rounded-pill text-bg-warning ms-1">
      {count}
      <span className="visually-hidden"> open</span>
    </span>
  );
}

/** The frame of the login screens: a centred card, no navigation. */
export function Centered({ children }: { children: ReactNode }) {
  return (
    <main className="container py-5">
      <div className="row justify-content-center">
        <div className="col-12 col-sm-10 col-md-7 col-lg-5">
          <h1 className="h3 text-center mb-4">Tools-Server</h1>
          {children}
        </div>
      </div>
    </main>
  );
}
