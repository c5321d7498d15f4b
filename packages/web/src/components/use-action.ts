/** A change the user asked for, with its alerts (docs/product.md §4 and §8): try the call, say how it went. */
import { useCallback } from 'react';
import { logFailure } from '../api';
import { useAlerts } from './alerts';

export interface Action<T> {
  /** The call, e.g. `() => api.clients.delete(id)`. */
  call: () => Promise<T>;
  /** The success alert, word for word from docs/product.md §8 (made from the call's answer when a function); some changes have none. */
  success?: string | ((value: T) => string);
  /** The danger alert on failure, word for word from docs/product.md §8. */
  danger: string;
  /** What the console says on failure, e.g. 'delete client'. */
  what: string;
  /** After the success alert, e.g. reload the list or close the modal. */
  onSuccess?: (value: T) => unknown;
}

/** Returns `run(action)`, which resolves to whether the change worked; it never throws. */
export function useAction(): <T>(action: Action<T>) => Promise<boolean> {
  const alerts = useAlerts();
  return useCallback(
    async <T>({ call, success, danger, what, onSuccess }: Action<T>) => {
      try {
        const value = await call();
        if (success) alerts.success(typeof success === 'string' ? success : success(value));
        await onSuccess?.(value);
        return true;
      } catch (error) {
        logFailure(what, error);
        alerts.danger(danger);
        return false;
      }
    },
    [alerts],
  );
}
