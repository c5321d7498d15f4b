/**
 * /device and /device/{code} (docs/oidc.md, Device grant): the verification page of a sign-in from
 * a terminal. A visitor signs in first (any way: password and second factor, passkey, Google) and
 * comes back here; the user enters the code the terminal shows (or the link carried it), sees which
 * device asks ("toolsctl on HOST, requested from ADDRESS, N minutes ago") and allows or denies it.
 */
import type { DeviceRequest } from '@tools-portal/core/device';
import { ApiError } from '@tools-portal/core/errors';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { api, logFailure } from '../api';
import { Centered } from '../components/layout';
import { loginPath, paths } from '../paths';
import { useSession } from '../session';

type Outcome = 'allowed' | 'denied';

/** "less than a minute ago", "1 minute ago", "N minutes ago". */
function minutesAgo(timestamp: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 60_000));
  if (minutes === 0) return 'less than a minute ago';
  return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
}

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : 'The portal cannot be reached; try again.');

export function Device() {
  const code = useParams().code ?? '';
  const { state } = useSession();
  if (state.status === 'loading') return <Centered>{null}</Centered>;
  if (state.status === 'anonymous') return <Navigate to={loginPath(`/auth/#${paths.device(code)}`)} replace />;
  return (
    <Centered>
      <div className="card shadow-sm">
        <div className="card-body p-4">
          <h2 className="h4 mb-3">Sign in a device</h2>
          {state.status === 'user' && state.user.mfaEnrollmentRequired ? (
            <p>
              Set up a second factor on your <Link to={paths.account}>Account</Link> page first.
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

  const look = useCallback(async (typed: string) => {
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
  }, []);

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
        <p className="fs-5">
          <strong>{request.name}</strong> is signed in.
        </p>
        <p className="text-secondary mb-0">You can close this page and go back to the terminal.</p>
      </div>
    );
  if (outcome === 'denied' && request)
    return (
      <div role="status">
        <p className="fs-5">
          Denied: <strong>{request.name}</strong> was not signed in.
        </p>
        <p className="text-secondary mb-0">You can close this page.</p>
      </div>
    );
  if (request)
    return (
      <div>
        <p>
          <strong>{request.name}</strong>, requested from <span className="text-break">{request.address}</span>, {minutesAgo(request.requestedTimestamp)}, asks
          to sign in as you.
        </p>
        <p className="text-secondary">Allow it only if you started this sign-in and the terminal shows this code:</p>
        <p className="text-center">
          <code className="fs-2 text-body" aria-label="code">
            {request.user_code}
          </code>
        </p>
        <div className="d-flex gap-2">
          <button type="button" className="btn btn-primary flex-fill" disabled={busy} onClick={() => void decide(true)}>
            Allow
          </button>
          <button type="button" className="btn btn-outline-danger flex-fill" disabled={busy} onClick={() => void decide(false)}>
            Deny
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
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = typed.trim();
    if (trimmed) onSubmit(trimmed);
  };
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor="device-code" className="form-label">
        Enter the code shown in your terminal
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
        Continue
      </button>
    </form>
  );
}
