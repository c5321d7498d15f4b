/**
 * /device and /device/{code} (docs/oidc.md, Device grant): the verification page of a sign-in from
 * a terminal. A visitor signs in first (any way: password and second factor, passkey, Google) and
 * comes back here; the user enters the code the terminal shows (or the link carried it), sees which
 * device asks ("toolsctl on HOST, requested from ADDRESS, N minutes ago") and allows or denies it.
 */
import type { DeviceRequest } from '@tools-portal/core/device';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { api, logFailure } from '../api';
import { Centered } from '../components/layout';
import { reasonFor } from '../i18n/error-words';
import { useLanguage } from '../i18n/language';
import { useT } from '../i18n/use-t';
import { loginPath, paths } from '../paths';
import { useSession } from '../session';

type Outcome = 'allowed' | 'denied';

/** Whole minutes since the request: "less than a minute ago", "1 minute ago", "N minutes ago" (device.ago). */
function minutesAgo(timestamp: string, now = Date.now()): number {
  return Math.max(0, Math.floor((now - Date.parse(timestamp)) / 60_000));
}

/** The server's reason (or the web's words for it outside English), else that the portal cannot be reached. */
function useMessageOf(): (error: unknown) => string {
  const t = useT();
  const { language } = useLanguage();
  return useCallback((error: unknown) => reasonFor(error, language, t) ?? t('device.unreachable'), [language, t]);
}

export function Device() {
  const code = useParams().code ?? '';
  const { state } = useSession();
  const t = useT();
  const intl = useIntl();
  if (state.status === 'loading') return <Centered>{null}</Centered>;
  if (state.status === 'anonymous') return <Navigate to={loginPath(`/auth/#${paths.device(code)}`)} replace />;
  return (
    <Centered>
      <div className="card shadow-sm">
        <div className="card-body p-4">
          <h2 className="h4 mb-3">{t('device.title')}</h2>
          {state.status === 'user' && state.user.mfaEnrollmentRequired ? (
            <p>
              {intl.formatMessage(
                { id: 'device.mfaFirst' },
                {
                  account: (
                    <Link key="account" to={paths.account}>
                      {t('nav.account')}
                    </Link>
                  ),
                },
              )}
            </p>
          ) : (
            <Verification key={code} code={code} />
          )}
        </div>
      </div>
    </Centered>
  );
}

function Verification({ code }: { code: string }) {
  const navigate = useNavigate();
  const [request, setRequest] = useState<DeviceRequest | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT();
  const intl = useIntl();
  const messageOf = useMessageOf();

  const look = useCallback(
    async (typed: string) => {
      setBusy(true);
      setProblem(null);
      try {
        setRequest(await api.device.lookup(typed));
      } catch (error) {
        logFailure('look up device code', error);
        setProblem(messageOf(error));
      } finally {
        setBusy(false);
      }
    },
    [messageOf],
  );

  useEffect(() => {
    if (code) void look(code);
  }, [code, look]);

  const decide = async (allow: boolean) => {
    if (!request) return;
    setBusy(true);
    try {
      await (allow ? api.device.approve(request.user_code) : api.device.deny(request.user_code));
      setOutcome(allow ? 'allowed' : 'denied');
    } catch (error) {
      logFailure('decide device request', error);
      setProblem(messageOf(error));
      setRequest(null);
    } finally {
      setBusy(false);
    }
  };

  if (outcome === 'allowed' && request)
    return (
      <div role="status">
        <p className="fs-5">{intl.formatMessage({ id: 'device.allowed' }, { name: <strong key="name">{request.name}</strong> })}</p>
        <p className="text-secondary mb-0">{t('device.closeAndReturn')}</p>
      </div>
    );
  if (outcome === 'denied' && request)
    return (
      <div role="status">
        <p className="fs-5">{intl.formatMessage({ id: 'device.denied' }, { name: <strong key="name">{request.name}</strong> })}</p>
        <p className="text-secondary mb-0">{t('device.close')}</p>
      </div>
    );
  if (request)
    return (
      <div>
        <p>
          {intl.formatMessage(
            { id: 'device.asks' },
            {
              name: <strong key="name">{request.name}</strong>,
              address: (
                <span key="address" className="text-break">
                  {request.address}
                </span>
              ),
              count: minutesAgo(request.requestedTimestamp),
            },
          )}
        </p>
        <p className="text-secondary">{t('device.allowOnly')}</p>
        <p className="text-center">
          <code className="fs-2 text-body" aria-label={t('device.code')}>
            {request.user_code}
          </code>
        </p>
        <div className="d-flex gap-2">
          <button type="button" className="btn btn-primary flex-fill" disabled={busy} onClick={() => void decide(true)}>
            {t('device.allow')}
          </button>
          <button type="button" className="btn btn-outline-danger flex-fill" disabled={busy} onClick={() => void decide(false)}>
            {t('owned.deny')}
          </button>
        </div>
      </div>
    );
  return (
    <CodeForm
      initial={code}
      busy={busy}
      problem={problem}
      onSubmit={(typed) => {
        if (typed === code) void look(typed);
        else navigate(paths.device(typed), { replace: true });
      }}
    />
  );
}

function CodeForm({ initial, busy, problem, onSubmit }: { initial: string; busy: boolean; problem: string | null; onSubmit: (code: string) => void }) {
  const [typed, setTyped] = useState(initial);
  const t = useT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = typed.trim();
    if (trimmed) onSubmit(trimmed);
  };
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor="device-code" className="form-label">
        {t('device.enter')}
      </label>
      <input
        id="device-code"
        className={`form-control form-control-lg text-center text-uppercase font-monospace${problem ? ' is-invalid' : ''}`}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="BCDF-GHJK"
        maxLength={32}
        value={typed}
        aria-describedby={problem ? 'device-code-problem' : undefined}
        onChange={(event) => setTyped(event.target.value)}
      />
      {problem && (
        <div id="device-code-problem" className="invalid-feedback">
          {problem}
        </div>
      )}
      <button type="submit" className="btn btn-primary w-100 mt-3" disabled={busy || !typed.trim()}>
        {t('reset.continue')}
      </button>
    </form>
  );
}
