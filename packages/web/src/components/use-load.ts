/** Loads data for a screen and reloads it after a change (docs/product.md §4). */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isUnauthenticated } from '../api';
import { useSession } from '../session';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => Promise<T | undefined>;
}

/** `key` (e.g. a route id) reloads when it changes. */
export function useLoad<T>(load: () => Promise<T>, onError?: (error: unknown) => void, key?: unknown): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const { reload: reloadSession } = useSession();
  const latest = useRef({ load, onError, reloadSession });
  latest.current = { load, onError, reloadSession };
  // Only the newest request may set the state, so a slow early answer cannot overwrite a newer one.
  const generation = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await latest.current.load();
      if (mine === generation.current) {
        setData(value);
        setError(undefined);
      }
      return value;
    } catch (caught) {
      if (mine === generation.current) setError(caught);
      // A session that ended meanwhile (logout elsewhere, user deleted): the guards take the
      // visitor to the login once the session is known to be gone.
      if (isUnauthenticated(caught)) void latest.current.reloadSession();
      else latest.current.onError?.(caught);
      return undefined;
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload, key]);

  return { data, error, loading, reload };
}
