/**
 * /account: the signed-in user's own password, second factors and sessions (docs/web.md). A session
 * restricted by MFA_REQUIRED lands here until it enrols a factor (components/guards.tsx).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { Passkey, RecoveryCodes, TotpEnrolment, UserSession } from '@tools-portal/core/entities';
import { ApiError } from '@tools-portal/core/errors';
import { newPasswordProblem } from '@tools-portal/core/passwords';
import type { SecondFactorProofInput } from '@tools-portal/core/validation';
import { api, logFailure, tooManyRequestsMessage } from '../api';
import { useBranding } from '../branding';
import { useAlerts } from '../components/alerts';
import { DeleteButton } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { LanguageChoice } from '../components/language-choice';
import { ListTable } from '../components/list-page';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { formatTimestamp } from '../logic/format';
import { addPasskey, browserName, passkeysUnavailable } from '../passkeys';
import { useCurrentUser, useSession } from '../session';

export function Account() {
  const me = useCurrentUser();
  return (
    <>
      <h1 className="h3 text-break">Account</h1>
      <p className="text-secondary text-break">{me.email}</p>
      {me.mfaEnrollmentRequired && (
        <div className="alert alert-warning" role="status">
          Your account needs a second factor: set up an authenticator app or add a passkey to continue.
        </div>
      )}
      <div className="row g-4">
        <div className="col-12 col-lg-6">
          <AuthenticatorApp />
        </div>
        <div className="col-12 col-lg-6">
          <Passkeys />
        </div>
        <div className="col-12 col-lg-6">
          <ChangePassword />
        </div>
        <div className="col-12 col-lg-6">
          <LanguageChoice />
        </div>
        <div className="col-12">
          <Sessions />
        </div>
      </div>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `account-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="card shadow-sm h-100" aria-labelledby={id}>
      <div className="card-body">
        <h2 className="h5" id={id}>
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

function ChangePassword() {
  const alerts = useAlerts();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordProblem(password, repeated);
    if (problem) return alerts.danger(problem);
    setBusy(true);
    try {
      await api.account.changePassword(current, password);
      alerts.clear(); // the form's earlier complaints no longer hold
      alerts.success('Your password was changed; your other sessions were signed out.');
      setCurrent('');
      setPassword('');
      setRepeated('');
    } catch (error) {
      logFailure('change password', error);
      alerts.danger(passwordRefusal(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title="Change password">
      <form onSubmit={(event) => void submit(event)}>
        <div className="mb-3">
          <label className="form-label" htmlFor="current-password">
            Current password
          </label>
          <input
            id="current-password"
            type="password"
            className="form-control"
            autoComplete="current-password"
            required
            value={current}
            onChange={(event) => setCurrent(event.target.value)}
          />
        </div>
        <div className="mb-3">
          <label className="form-label" htmlFor="new-password">
            New password
          </label>
          <input
            id="new-password"
            type="password"
            className="form-control"
            autoComplete="new-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <div className="mb-3">
          <label className="form-label" htmlFor="repeat-password">
            Repeat new password
          </label>
          <input
            id="repeat-password"
            type="password"
            className="form-control"
            autoComplete="new-password"
            required
            value={repeated}
            onChange={(event) => setRepeated(event.target.value)}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          Change password
        </button>
      </form>
    </Section>
  );
}

function passwordRefusal(error: unknown): string {
  if (error instanceof ApiError && error.code === 'unauthenticated') return 'Your current password is wrong.';
  if (error instanceof ApiError && error.code === 'invalid_input') return error.message.replace(/^NewPassword: /, '');
  return 'failed to change the password';
}

type Enrolment =
  { step: 'idle' } | { step: 'scan'; enrolment: TotpEnrolment; qr: string } | { step: 'codes'; codes: string[] } | { step: 'turn-off' } | { step: 'new-codes' };

/** The server's reason for a refused field, as a sentence: `Code: the code is not valid; …` → `The code is not valid; ….` */
function fieldReason(error: ApiError): string {
  const field = error.details.field;
  const reason = field && error.message.startsWith(`${field}: `) ? error.message.slice(field.length + 2) : error.message;
  return `${reason.charAt(0).toUpperCase()}${reason.slice(1)}${reason.endsWith('.') ? '' : '.'}`;
}

function AuthenticatorApp() {
  const me = useCurrentUser();
  const session = useSession();
  const alerts = useAlerts();
  const [state, setState] = useState<Enrolment>({ step: 'idle' });
  const [code, setCode] = useState('');
  // The server's reason for refusing the code (its hint: check the clock of the device), under the input.
  const [codeProblem, setCodeProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    try {
      const enrolment = await api.account.totp.start();
      // qrcode is loaded only here, to keep it out of the first download.
      const { toDataURL } = await import('qrcode');
      setState({ step: 'scan', enrolment, qr: await toDataURL(enrolment.uri, { margin: 1, width: 200 }) });
      setCode('');
      setCodeProblem(null);
    } catch (error) {
      logFailure('start authenticator enrolment', error);
      alerts.danger(error instanceof ApiError && error.code === 'unavailable' ? error.message : 'failed to set up the authenticator app');
    } finally {
      setBusy(false);
    }
  };

  const enable = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const { recoveryCodes } = await api.account.totp.confirm(code.trim());
      setState({ step: 'codes', codes: recoveryCodes });
      setCodeProblem(null);
      alerts.clear(); // the form's earlier complaints no longer hold
      alerts.success('The authenticator app is on.');
      await session.reload();
    } catch (error) {
      logFailure('confirm authenticator enrolment', error);
      if (error instanceof ApiError && error.details.field === 'Code') setCodeProblem(fieldReason(error));
      else alerts.danger(tooManyRequestsMessage(error) ?? 'The code is not right.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title="Authenticator app">
      {state.step === 'idle' && (
        <AuthenticatorStatus
          on={me.totp ?? false}
          codesLeft={me.recoveryCodesLeft ?? 0}
          busy={busy}
          onStart={() => void start()}
          onTurnOff={() => setState({ step: 'turn-off' })}
          onNewCodes={() => setState({ step: 'new-codes' })}
        />
      )}
      {state.step === 'turn-off' && (
        <ProofForm
          intro="Sign-ins will no longer ask for a code from the app, and your recovery codes stop working."
          submit="Turn off"
          danger
          action={(proof) => api.account.totp.disable(proof)}
          onDone={async () => {
            setState({ step: 'idle' });
            alerts.clear();
            alerts.success('The authenticator app is off.');
            await session.reload();
          }}
          onCancel={() => setState({ step: 'idle' })}
        />
      )}
      {state.step === 'new-codes' && (
        <ProofForm
          intro="Ten new codes replace your recovery codes: the old ones stop working."
          submit="Make new codes"
          action={(proof) => api.account.newRecoveryCodes(proof)}
          onDone={async (answer) => {
            setState({ step: 'codes', codes: (answer as RecoveryCodes).recoveryCodes });
            alerts.clear();
            alerts.success('New recovery codes are made; the old ones no longer work.');
            await session.reload();
          }}
          onCancel={() => setState({ step: 'idle' })}
        />
      )}
      {state.step === 'scan' && (
        <form onSubmit={(event) => void enable(event)}>
          <p>Scan this QR code with your authenticator app, or type the secret into it. Then enter the code it shows.</p>
          <img className="d-block mb-3 border rounded" src={state.qr} alt="QR code of the authenticator secret" width={200} height={200} />
          <p className="mb-1">Secret:</p>
          <p>
            <code className="fs-6 text-break" data-testid="totp-secret">
              {state.enrolment.secret}
            </code>
          </p>
          <div className="mb-3">
            <label className="form-label" htmlFor="totp-code">
              Code
            </label>
            <input
              id="totp-code"
              type="text"
              className={`form-control font-monospace${codeProblem ? ' is-invalid' : ''}`}
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              aria-invalid={codeProblem ? true : undefined}
              aria-describedby={codeProblem ? 'totp-code-problem' : undefined}
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
            {codeProblem && (
              <div className="invalid-feedback" id="totp-code-problem">
                {codeProblem}
              </div>
            )}
          </div>
          <div className="d-flex gap-2">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Enable
            </button>
            <button type="button" className="btn btn-outline-secondary" onClick={() => setState({ step: 'idle' })}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {state.step === 'codes' && <RecoveryCodesView codes={state.codes} onDone={() => setState({ step: 'idle' })} />}
    </Section>
  );
}

/**
 * Whether this user's authenticator app is on, or the offer to set one up. It asks about the app
 * itself (`totp`), not any second factor (`mfa`): a passkey alone leaves the app to set up.
 */
function AuthenticatorStatus({
  on,
  codesLeft,
  busy,
  onStart,
  onTurnOff,
  onNewCodes,
}: {
  on: boolean;
  codesLeft: number;
  busy: boolean;
  onStart: () => void;
  onTurnOff: () => void;
  onNewCodes: () => void;
}) {
  if (on) {
    return (
      <>
        <p>The authenticator app is on for your account.</p>
        <p className={codesLeft <= 3 ? 'text-danger-emphasis' : undefined} data-testid="recovery-codes-left">
          {codesLeft === 1 ? '1 recovery code left.' : `${codesLeft} recovery codes left.`}
          {codesLeft <= 3 && ' Make new ones before they run out.'}
        </p>
        <div className="d-flex flex-wrap gap-2">
          <button type="button" className="btn btn-outline-primary" onClick={onNewCodes}>
            Make new recovery codes
          </button>
          <button type="button" className="btn btn-outline-danger" onClick={onTurnOff}>
            Turn off
          </button>
        </div>
      </>
    );
  }
  return (
    <>
      <p>Sign in with a code from an app on your phone as well as your password.</p>
      <button type="button" className="btn btn-primary" disabled={busy} onClick={onStart}>
        Set up authenticator app
      </button>
    </>
  );
}

/**
 * Asks the user to prove it is them again (their password, or a code from the authenticator app or
 * a recovery code) before a change to the app; the server's reason for a refusal shows under the input.
 */
function ProofForm({
  intro,
  submit,
  danger = false,
  action,
  onDone,
  onCancel,
}: {
  intro: string;
  submit: string;
  danger?: boolean;
  action: (proof: SecondFactorProofInput) => Promise<unknown>;
  onDone: (answer: unknown) => Promise<void>;
  onCancel: () => void;
}) {
  const alerts = useAlerts();
  const [method, setMethod] = useState<'password' | 'code'>('password');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = method === 'password' ? 'Your password' : 'Code from your authenticator app (or a recovery code)';

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = await action(method === 'password' ? { Password: value } : { Code: value.trim() });
      setProblem(null);
      await onDone(answer);
    } catch (error) {
      logFailure(submit, error);
      if (error instanceof ApiError && error.code === 'invalid_input') setProblem(fieldReason(error));
      else if (tooManyRequestsMessage(error)) setProblem(fieldReason(error as ApiError));
      else alerts.danger(`failed to ${submit.toLowerCase()}${error instanceof ApiError ? `: ${error.message}` : ''}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void send(event)}>
      <p>{intro}</p>
      <fieldset className="mb-2">
        <legend className="form-label fs-6">Confirm it's you with</legend>
        {(['password', 'code'] as const).map((option) => (
          <div className="form-check form-check-inline" key={option}>
            <input
              className="form-check-input"
              type="radio"
              name="proof-method"
              id={`proof-${option}`}
              checked={method === option}
              onChange={() => {
                setMethod(option);
                setValue('');
                setProblem(null);
              }}
            />
            <label className="form-check-label" htmlFor={`proof-${option}`}>
              {option === 'password' ? 'Password' : 'Code'}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="mb-3">
        <label className="form-label" htmlFor="proof-value">
          {label}
        </label>
        <input
          id="proof-value"
          type={method === 'password' ? 'password' : 'text'}
          className={`form-control${method === 'code' ? ' font-monospace' : ''}${problem ? ' is-invalid' : ''}`}
          autoComplete={method === 'password' ? 'current-password' : 'one-time-code'}
          required
          autoFocus
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'proof-problem' : undefined}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        {problem && (
          <div className="invalid-feedback" id="proof-problem">
            {problem}
          </div>
        )}
      </div>
      <div className="d-flex gap-2">
        <button type="submit" className={danger ? 'btn btn-danger' : 'btn btn-primary'} disabled={busy}>
          {submit}
        </button>
        <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The recovery codes, shown this once: copy, download, then gone. */
function RecoveryCodesView({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const { portalName } = useBranding();
  const text = `${portalName} recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch (error) {
      logFailure('copy recovery codes', error);
    }
  };

  return (
    <>
      <h3 className="h6">Recovery codes</h3>
      <p>Keep these codes somewhere safe. Each one signs you in once if you lose your authenticator app. They are shown only now.</p>
      <ul className="list-unstyled font-monospace row row-cols-2 g-1 mb-3" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="col">
            {code}
          </li>
        ))}
      </ul>
      <div className="d-flex flex-wrap gap-2">
        <button type="button" className="btn btn-outline-primary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <a className="btn btn-outline-primary" href={href} download="tools-server-recovery-codes.txt">
          Download
        </a>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </>
  );
}

function Passkeys() {
  const session = useSession();
  const alerts = useAlerts();
  const run = useAction();
  const problem = passkeysUnavailable();
  const list = useLoad(
    () => api.account.passkeys.list(),
    (error) => logFailure('load passkeys', error),
  );
  const [busy, setBusy] = useState(false);

  const add = async () => {
    setBusy(true);
    try {
      await addPasskey();
      alerts.clear(); // the form's earlier complaints no longer hold
      alerts.success('Passkey added.');
      await list.reload();
      await session.reload();
    } catch (error) {
      logFailure('add passkey', error);
      alerts.danger('The passkey was not added.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section title="Passkeys">
      {problem ? (
        <p className="text-secondary" data-testid="passkeys-unavailable">
          {problem}
        </p>
      ) : (
        <p>Sign in with your fingerprint, face or device PIN instead of a code.</p>
      )}
      <ListTable
        label="Passkeys"
        head={
          <>
            <th scope="col">Name</th>
            <th scope="col" className={WIDE_SCREENS_ONLY}>
              Added
            </th>
            <th scope="col" className="text-end">
              Delete
            </th>
          </>
        }
      >
        {(list.data ?? []).map((passkey) => (
          <PasskeyRow
            key={passkey.id}
            passkey={passkey}
            onChanged={async () => void (await list.reload())}
            onDelete={() =>
              run({
                call: () => api.account.passkeys.delete(passkey.id),
                success: 'Passkey deleted.',
                danger: 'failed to delete the passkey',
                what: 'delete passkey',
                onSuccess: async () => {
                  await list.reload();
                  await session.reload();
                },
              })
            }
          />
        ))}
        <EmptyRow columns={3} shown={list.data?.length ?? 0} loading={list.loading} text="No passkeys." />
      </ListTable>
      <button type="button" className="btn btn-primary" disabled={busy || problem !== null} onClick={() => void add()}>
        Add passkey
      </button>
    </Section>
  );
}

function PasskeyRow({ passkey, onChanged, onDelete }: { passkey: Passkey; onChanged: () => Promise<void>; onDelete: () => unknown }) {
  const run = useAction();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await run({
      call: () => api.account.passkeys.rename(passkey.id, name.trim()),
      danger: 'failed to rename the passkey',
      what: 'rename passkey',
      onSuccess: onChanged,
    });
    if (saved) setEditing(false);
  };

  return (
    <tr>
      <td>
        {editing ? (
          <form className="d-flex gap-2" onSubmit={(event) => void save(event)}>
            <input
              className="form-control form-control-sm"
              aria-label="Passkey name"
              required
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <button type="submit" className="btn btn-sm btn-primary">
              Save
            </button>
          </form>
        ) : (
          <>
            <span className="text-break">{passkey.name}</span>{' '}
            <button type="button" className="btn btn-sm btn-link" onClick={() => setEditing(true)}>
              Rename<span className="visually-hidden"> {passkey.name}</span>
            </button>
          </>
        )}
        <PhoneDetail>Added {formatTimestamp(passkey.createdTimestamp)}</PhoneDetail>
      </td>
      <td className={`${WIDE_SCREENS_ONLY} text-nowrap`}>{formatTimestamp(passkey.createdTimestamp)}</td>
      <td className="text-end">
        <DeleteButton onConfirm={onDelete} />
      </td>
    </tr>
  );
}

function Sessions() {
  const run = useAction();
  const list = useLoad(
    () => api.account.sessions.list(),
    (error) => logFailure('load sessions', error),
  );
  const others = (list.data ?? []).filter((session) => !session.current).length;

  return (
    <Section title="Sessions">
      <ListTable
        label="Sessions"
        head={
          <>
            <th scope="col">Browser</th>
            <th scope="col" className={WIDE_SCREENS_ONLY}>
              IP address
            </th>
            <th scope="col" className={LARGE_SCREENS_ONLY}>
              Signed in
            </th>
            <th scope="col" className={WIDE_SCREENS_ONLY}>
              Last used
            </th>
            <th scope="col" className="text-end">
              Sign out
            </th>
          </>
        }
      >
        {(list.data ?? []).map((session) => (
          <SessionRow
            key={session.id}
            session={session}
            onSignOut={() =>
              void run({
                call: () => api.account.sessions.revoke(session.id),
                success: 'Session signed out.',
                danger: 'failed to sign out the session',
                what: 'revoke session',
                onSuccess: () => list.reload(),
              })
            }
          />
        ))}
        <EmptyRow columns={5} shown={list.data?.length ?? 0} loading={list.loading} text="No sessions." />
      </ListTable>
      <button
        type="button"
        className="btn btn-outline-danger"
        disabled={others === 0}
        onClick={() =>
          void run({
            call: () => api.account.sessions.revokeOthers(),
            success: 'Your other sessions were signed out.',
            danger: 'failed to sign out the other sessions',
            what: 'revoke other sessions',
            onSuccess: () => list.reload(),
          })
        }
      >
        Sign out other sessions
      </button>
    </Section>
  );
}

/** One session: on a phone its address and last use stack under the browser, so that Sign out stays in view. */
function SessionRow({ session, onSignOut }: { session: UserSession; onSignOut: () => void }) {
  const ip = session.ip ?? 'unknown';
  return (
    <tr>
      <td title={session.userAgent ?? undefined}>
        {session.name ?? agentName(session.userAgent)}
        <PhoneDetail>{ip}</PhoneDetail>
        <PhoneDetail>Last used {formatTimestamp(session.lastUsedTimestamp)}</PhoneDetail>
      </td>
      <td className={`${WIDE_SCREENS_ONLY} text-nowrap`}>{ip}</td>
      <td className={`${LARGE_SCREENS_ONLY} text-nowrap`}>{formatTimestamp(session.createdTimestamp)}</td>
      <td className={`${WIDE_SCREENS_ONLY} text-nowrap`}>{formatTimestamp(session.lastUsedTimestamp)}</td>
      <td className="text-end">
        {session.current ? (
          <span className="badge text-bg-success">This session</span>
        ) : (
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={onSignOut}>
            Sign out
          </button>
        )}
      </td>
    </tr>
  );
}

/** A column that a phone leaves out (its value shows as a PhoneDetail in the first cell instead). */
const WIDE_SCREENS_ONLY = 'd-none d-md-table-cell';
/** A column for laptops and wider only: a tablet has no room for two times in a row. */
const LARGE_SCREENS_ONLY = 'd-none d-lg-table-cell';

/** A left-out column's value, under the row's first cell, on a phone only. */
function PhoneDetail({ children }: { children: ReactNode }) {
  return <div className="small text-secondary d-md-none">{children}</div>;
}

/** "Chrome on Linux" for a browser; other clients (toolsctl/0.1.0) by their own first word. */
function agentName(userAgent: string | null): string {
  if (!userAgent) return 'unknown';
  const name = browserName(userAgent);
  return name === 'Browser' ? (userAgent.split(' ')[0] ?? userAgent).slice(0, 40) : name;
}
