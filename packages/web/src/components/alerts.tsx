/**
 * The dismissible alerts (docs/product.md §2, §4, §9): success, danger or warning, gone after 10 s.
 * They show in the flow of the page (an `AlertOutlet` at the top of the content, or inside the open
 * dialog), so that they push the page down instead of covering its controls; they leave when the
 * screen changes; an alert with a `source` (a form) replaces that source's earlier ones, so a
 * success takes the place of the same form's complaints.
 */
import { useT } from '../i18n/use-t';
import { createContext, useCallback, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';

const ALERT_SECONDS = 10;
/** More than this at once would push the page too far; the oldest give way. */
const MAX_SHOWN = 3;
/** The screen an alert belongs to: the hash route without its query. */
function currentScreen(): string {
  return window.location.hash.split('?')[0];
}

export type AlertVariant = 'success' | 'danger' | 'warning';

interface Alert {
  id: number;
  variant: AlertVariant;
  message: string;
  source?: string;
  screen: string;
}

interface Alerts {
  success: (message: string, source?: string) => void;
  danger: (message: string, source?: string) => void;
  warning: (message: string, source?: string) => void;
  /** Drops every alert, e.g. when another user signs in. */
  clear: () => void;
  /** Drops the alerts of other screens than the current one. */
  leaveScreen: () => void;
  /** Drops the alerts of one source (a form that just succeeded). */
  forget: (source: string) => void;
}

interface Outlets {
  alerts: Alert[];
  dismiss: (id: number) => void;
  /** The outlets on screen, innermost (the open dialog's) last: only that one shows the alerts. */
  register: (id: string) => () => void;
  active: string | undefined;
}

const AlertContext = createContext<Alerts | null>(null);
const OutletContext = createContext<Outlets | null>(null);

export function AlertProvider({ children }: { children: ReactNode }) {
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [outlets, setOutlets] = useState<string[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const drop = useCallback((keep: (alert: Alert) => boolean) => {
    setAlerts((current) => {
      for (const alert of current.filter((candidate) => !keep(candidate))) {
        clearTimeout(timers.current.get(alert.id));
        timers.current.delete(alert.id);
      }
      return current.filter(keep);
    });
  }, []);

  const dismiss = useCallback((id: number) => drop((alert) => alert.id !== id), [drop]);

  const show = useCallback(
    (variant: AlertVariant, message: string, source?: string) => {
      const id = nextId.current++;
      if (source) drop((alert) => alert.source !== source);
      setAlerts((current) => [...current, { id, variant, message, source, screen: currentScreen() }]);
      timers.current.set(
        id,
        setTimeout(() => dismiss(id), ALERT_SECONDS * 1000),
      );
    },
    [dismiss, drop],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((timer) => clearTimeout(timer));
  }, []);

  const value = useMemo<Alerts>(
    () => ({
      success: (message, source) => show('success', message, source),
      danger: (message, source) => show('danger', message, source),
      warning: (message, source) => show('warning', message, source),
      clear: () => drop(() => false),
      forget: (source) => drop((alert) => alert.source !== source),
      leaveScreen: () => {
        const screen = currentScreen();
        drop((alert) => alert.screen === screen);
      },
    }),
    [show, drop],
  );

  const register = useCallback((id: string) => {
    setOutlets((current) => [...current, id]);
    return () => setOutlets((current) => current.filter((outlet) => outlet !== id));
  }, []);

  const outletValue = useMemo<Outlets>(() => ({ alerts, dismiss, register, active: outlets.at(-1) }), [alerts, dismiss, register, outlets]);

  return (
    <AlertContext.Provider value={value}>
      <OutletContext.Provider value={outletValue}>{children}</OutletContext.Provider>
    </AlertContext.Provider>
  );
}

/** Where the alerts show: the top of a page's content, and the body of every dialog. */
export function AlertOutlet({ className = '' }: { className?: string }) {
  const outlets = useContext(OutletContext);
  const id = useId();
  const t = useT();
  const register = outlets?.register;
  useEffect(() => register?.(id), [register, id]);
  if (!outlets || outlets.active !== id) return null;
  return (
    <div className={`alert-stack ${className}`.trim()} aria-live="polite">
      {outlets.alerts.slice(-MAX_SHOWN).map((alert) => (
        <div key={alert.id} className={`alert alert-${alert.variant} alert-dismissible mb-2`} role="alert">
          {alert.message}
          <button type="button" className="btn-close" aria-label={t('common.close')} onClick={() => outlets.dismiss(alert.id)} />
        </div>
      ))}
    </div>
  );
}

export function useAlerts(): Alerts {
  const alerts = useContext(AlertContext);
  if (!alerts) throw new Error('useAlerts outside AlertProvider');
  return alerts;
}
