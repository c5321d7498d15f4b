/** The count of open access requests beside the admins' navigation entry, fresh at every screen change. */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { api, logFailure } from './api';

interface OpenRequests {
  count: number;
  reload: () => Promise<void>;
}

const OpenRequestsContext = createContext<OpenRequests>({ count: 0, reload: async () => {} });

export function OpenRequestsProvider({ admin, children }: { admin: boolean; children: ReactNode }) {
  const [count, setCount] = useState(0);
  const location = useLocation();
  const reload = useCallback(async () => {
    if (!admin) return;
    try {
      setCount((await api.accessRequests.list()).filter((request) => request.status === 'open').length);
    } catch (error) {
      logFailure('count open access requests', error);
    }
  }, [admin]);
  useEffect(() => {
    void reload();
  }, [reload, location.pathname]);
  return <OpenRequestsContext.Provider value={{ count, reload }}>{children}</OpenRequestsContext.Provider>;
}

export function useOpenRequests(): OpenRequests {
  return useContext(OpenRequestsContext);
}
