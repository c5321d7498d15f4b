/** Who may see a screen: logged-in users, or admins only (docs/product.md §6). */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { paths } from '../paths';
import { Loading } from './loading';
import { useSession } from '../session';

/**
 * Visitors without a session go to the portal root, which shows the login (docs/product.md §8); a
 * session restricted to enrolling a second factor (MFA_REQUIRED) goes to the Account screen.
 */
export function RequireUser({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'anonymous') return <Navigate to={paths.home} replace />;
  if (state.status === 'error')
    return (
      <div className="alert alert-danger m-3" role="alert">
        The portal cannot be reached: {state.message}
      </div>
    );
  if (state.user.mfaEnrollmentRequired && location.pathname !== paths.account) return <Navigate to={paths.account} replace />;
  return <>{children}</>;
}

/** Admin screens: non-admins are sent to their app list; the server refuses them anyway. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { state } = useSession();
  if (state.status === 'user' && !state.user.admin) return <Navigate to={paths.appList} replace />;
  return <RequireUser>{children}</RequireUser>;
}
