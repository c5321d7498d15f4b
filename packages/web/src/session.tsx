/** The current user (GET /user/me): loaded once, shared by the layout and every screen. */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { CurrentUser, Me } from '@tools-portal/core/entities';
import { api, isUnauthenticated, logFailure } from './api';
import { useAlerts } from './components/alerts';

export type SessionState = { status: 'loading' } | { status: 'anonymous' } | { status: 'error'; message: string } | { status: 'user'; user: Me };

interface Session {
  state: SessionState;
  reload: () => Promise<void>;
  logout: () => Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  const reload = useCallback(async () => {
    try {
      setState({ status: 'user', user: await api.users.me() });
    } catch (error) {
      if (isUnauthenticated(error)) setState({ status: 'anonymous' });
      else {
        logFailure('failed to load the current user', error);
        setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      }
    }
  }, []);

  const logout = useCallback(async () => {
    try {
      await api.auth.logout();
    } catch (error) {
      logFailure('failed to log out', error);
    }
    setState({ status: 'anonymous' });
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  useAlertsEndWithTheUser(state);

  return <SessionContext.Provider value={{ state, reload, logout }}>{children}</SessionContext.Provider>;
}

/**
 * Alerts belong to the user whose actions made them: when that user logs out, the session ends or
 * another user signs in, they go, so that the next screen (login, two-factor) shows none of them.
 */
function useAlertsEndWithTheUser(state: SessionState) {
  const alerts = useAlerts();
  // undefined while loading or unreachable: which user it is, is not known then.
  const userId = state.status === 'user' ? state.user.id : state.status === 'anonymous' ? null : undefined;
  const previous = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    if (userId === undefined) return;
    if (typeof previous.current === 'number' && previous.current !== userId) alerts.clear();
    previous.current = userId;
  }, [userId, alerts]);
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The logged-in user; only valid below a guard that waited for the session. */
export function useCurrentUser(): CurrentUser {
  const { state } = useSession();
  if (state.status !== 'user') throw new Error('useCurrentUser without a user');
  return state.user;
}
