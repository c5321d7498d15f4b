/**
 * A change the user asked for, with its alerts (docs/product.md §4 and §8): try the call, say how
 * it went. A failure keeps the product's words and adds the server's reason after a colon
 * ("failed to create new client Acme: a client with this name already exists"); a form's failure
 * also marks the field the server named (components/form-errors.tsx).
 */
import { useCallback } from 'react';
import { ApiError } from '@tools-portal/core/errors';
import { logFailure } from '../api';
import { reasonFor } from '../i18n/error-words';
import { useLanguage } from '../i18n/language';
import { useT } from '../i18n/use-t';
import { useAlerts } from './alerts';
import type { FormErrors } from './form-errors';

export interface Action<T> {
  /** The call, e.g. `() => api.clients.delete(id)`. */
  call: () => Promise<T>;
  /** The success alert, word for word from docs/product.md §8 (made from the call's answer when a function); some changes have none. */
  success?: string | ((value: T) => string);
  /** The danger alert on failure, word for word from docs/product.md §8; the server's reason follows it. */
  danger: string;
  /** What the console says on failure, e.g. 'delete client'. */
  what: string;
  /** Before the success alert, e.g. reload the list, close the modal or go to another screen. */
  onSuccess?: (value: T) => unknown;
  /** The form that made the change: its fields show the server's complaint, its success replaces its earlier alerts. */
  form?: FormErrors;
}

/** Returns `run(action)`, which resolves to whether the change worked; it never throws. */
export function useAction(): <T>(action: Action<T>) => Promise<boolean> {
  const alerts = useAlerts();
  const t = useT();
  const { language } = useLanguage();
  return useCallback(
    async <T>({ call, success, danger, what, onSuccess, form }: Action<T>) => {
      form?.clear();
      try {
        const value = await call();
        // After onSuccess, which may go to another screen: the alert belongs to where it leads.
        await onSuccess?.(value);
        if (success) alerts.success(typeof success === 'string' ? success : success(value), form?.source);
        else if (form) alerts.forget(form.source);
        return true;
      } catch (error) {
        logFailure(what, error);
        // The server's reason, or the web's own words for it outside English (i18n/error-words.ts).
        const reason = reasonFor(error, language, t);
        alerts.danger(reason ? `${danger}: ${reason}` : danger, form?.source);
        if (form && error instanceof ApiError && error.details.field) form.mark(error.details.field, reason ?? error.message);
        return false;
      }
    },
    [alerts, language, t],
  );
}
