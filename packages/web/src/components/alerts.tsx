/** The dismissible alert banner (docs/product.md §2, §4, §9): success, danger or warning, gone after 10 s. */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

const ALERT_SECONDS = 10;
/** More than this at once would cover the page; the oldest give way. */
const MAX_SHOWN = 3;

export type AlertVariant = 'success' | 'danger' | 'warning';

interface Alert {
  id: number;
  variant: AlertVariant;
  message: string;
}

interface Alerts {
  success: (message: string) => void;
  danger: (message: string) => void;
  warning: (message: string) => void;
  /** Drops every alert, e.g. the form's complaints once the form succeeded. */
  clear: () => void;
}

const AlertContext = createContext<Alerts | null>(null);

export function AlertProvider({ children }: { children: ReactNode }) {
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.delete(id);
    setAlerts((current) => current.filter((alert) => alert.id !== id));
  }, []);

  const show = useCallback(
    (variant: AlertVariant, message: string) => {
      const id = nextId.current++;
      setAlerts((current) => [...current, { id, variant, message }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), ALERT_SECONDS * 1000),
      );
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  const value = useMemo<Alerts>(
    () => ({
      success: (message) => show('success', message),
      danger: (message) => show('danger', message),
      warning: (message) => show('warning', message),
      clear: () => {
        timers.current.forEach((timer) => clearTimeout(timer));
        timers.current.clear();
        setAlerts([]);
      },
    }),
    [show],
  );

  return (
    <AlertContext.Provider value={value}>
      <div className="alert-stack" aria-live="polite">
        {alerts.slice(-MAX_SHOWN).map((alert) => (
          <div key={alert.id} className={`alert alert-${alert.variant} alert-dismissible shadow-sm mb-2`} role="alert">
            {alert.message}
            <button type="button" className="btn-close" aria-label="Close" onClick={() => dismiss(alert.id)} />
          </div>
        ))}
      </div>
      {children}
    </AlertContext.Provider>
  );
}

export function useAlerts(): Alerts {
  const alerts = useContext(AlertContext);
  if (!alerts) throw new Error('useAlerts outside AlertProvider');
  return alerts;
}
