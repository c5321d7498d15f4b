/**
 * /account: the signed-in user's own password, second factors and sessions (docs/web.md). A session
 * restricted by MFA_REQUIRED lands here until it enrols a factor (components/guards.tsx).
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import type { Passkey, RecoveryCodes, TotpEnrolment, UserSession } from '@tools-portal/core/entities';
import { ApiError } from '@tools-portal/core/errors';
import type { SecondFactorProofInput } from '@tools-portal/core/validation';
import { api, logFailure } from '../api';
import { useBranding } from '../branding';
import { useAlerts } from '../components/alerts';
import { DeleteButton } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { LanguageChoice } from '../components/language-choice';
import { ListTable } from '../components/list-page';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { tooManyAttemptsReason } from '../i18n/error-words';
import { useLanguage } from '../i18n/language';
import { newPasswordProblemIn } from '../i18n/password-words';
import { useT, type Translate } from '../i18n/use-t';
import { formatTimestamp } from '../logic/format';
import { addPasskey, browserName, passkeysUnavailable } from '../passkeys';
import { useCurrentUser, useSession } from '../session';

export function Account() {
  const me = useCurrentUser();
  const t = useT();
  return (
    <>
      <h1 className="h3 text-break">{t('nav.account')}</h1>
      <p className="text-secondary text-break">{me.email}</p>
      {me.mfaEnrollmentRequired && (
        <div className="alert alert-warning" role="status">
          {t('account.mfaRequired')}
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

function Section({ name, title, children }: { name: string; title: string; children: ReactNode }) {
  const id = `account-${name}`;
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
  const t = useT();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordProblemIn(t, password, repeated);
    if (problem) return alerts.danger(problem);
    setBusy(true);
    try {
      await api.account.changePassword(current, password);
      alerts.clear(); // the form's earlier complaints no longer hold
      alerts.success(t('account.password.changed'));
      setCurrent('');
      setPassword('');
      setRepeated('');
    } catch (error) {
      logFailure('change password', error);
      alerts.danger(passwordRefusal(error, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section name="change-password" title={t('account.password.title')}>
      <form onSubmit={(event) => void submit(event)}>
        <div className="mb-3">
          <label className="form-label" htmlFor="current-password">
            {t('account.password.current')}
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
            {t('account.password.new')}
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
            {t('account.password.repeat')}
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
          {t('account.password.title')}
        </button>
      </form>
    </Section>
  );
}

function passwordRefusal(error: unknown, t: Translate): string {
  if (error instanceof ApiError && error.code === 'unauthenticated') return t('account.password.wrong');
  if (error instanceof ApiError && error.code === 'invalid_input') return error.message.replace(/^NewPassword: /, '');
  return t('account.password.failed');
}

type Enrolment =
  { step: 'idle' } | { step: 'scan'; enrolment: TotpEnrolment; qr: string } | { step: 'codes'; codes: string[] } | { step: 'turn-off' } | { step: 'new-codes' };

/** The server's reason for a refused field, as a sentence: `Code: the code is not valid; …` → `The code is not valid; ….` */
function fieldReason(error: ApiError): string {
  const field = error.details.field;
  return asSentence(field && error.message.startsWith(`${field}: `) ? error.message.slice(field.length + 2) : error.message);
}

const asSentence = (reason: string) => `${reason.charAt(0).toUpperCase()}${reason.slice(1)}${reason.endsWith('.') ? '' : '.'}`;

function AuthenticatorApp() {
  const me = useCurrentUser();
  const session = useSession();
  const alerts = useAlerts();
  const [state, setState] = useState<Enrolment>({ step: 'idle' });
  const t = useT();
  const { language } = useLanguage();
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
      alerts.danger(error instanceof ApiError && error.code === 'unavailable' ? error.message : t('account.totp.setupFailed'));
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
      alerts.success(t('account.totp.on'));
      await session.reload();
    } catch (error) {
      logFailure('confirm authenticator enrolment', error);
      if (error instanceof ApiError && error.details.field === 'Code') setCodeProblem(fieldReason(error));
      else alerts.danger(tooManyAttemptsReason(error, language, t) ?? t('login.codeWrong'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section name="authenticator-app" title={t('account.totp.title')}>
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
          intro={t('account.totp.offIntro')}
          submit={t('account.totp.turnOff')}
          failed={t('account.totp.offFailed')}
          danger
          action={(proof) => api.account.totp.disable(proof)}
          onDone={async () => {
            setState({ step: 'idle' });
            alerts.clear();
            alerts.success(t('account.totp.off'));
            await session.reload();
          }}
          onCancel={() => setState({ step: 'idle' })}
        />
      )}
      {state.step === 'new-codes' && (
        <ProofForm
          intro={t('account.codes.newIntro')}
          submit={t('account.codes.make')}
          failed={t('account.codes.makeFailed')}
          action={(proof) => api.account.newRecoveryCodes(proof)}
          onDone={async (answer) => {
            setState({ step: 'codes', codes: (answer as RecoveryCodes).recoveryCodes });
            alerts.clear();
            alerts.success(t('account.codes.made'));
            await session.reload();
          }}
          onCancel={() => setState({ step: 'idle' })}
        />
      )}
      {state.step === 'scan' && (
        <form onSubmit={(event) => void enable(event)}>
          <p>{t('account.totp.scan')}</p>
          <img className="d-block mb-3 border rounded" src={state.qr} alt={t('account.totp.qr')} width={200} height={200} />
          <p className="mb-1">{t('account.totp.secret')}</p>
          <p>
            <code className="fs-6 text-break" data-testid="totp-secret">
              {state.enrolment.secret}
            </code>
          </p>
          <div className="mb-3">
            <label className="form-label" htmlFor="totp-code">
              {t('account.code')}
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
              {t('account.totp.enable')}
            </button>
            <button type="button" className="btn btn-outline-secondary" onClick={() => setState({ step: 'idle' })}>
              {t('common.cancel')}
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
  const t = useT();
  if (on) {
    return (
      <>
        <p>{t('account.totp.isOn')}</p>
        <p className={codesLeft <= 3 ? 'text-danger-emphasis' : undefined} data-testid="recovery-codes-left">
          {t('account.codes.left', { count: codesLeft })}
          {codesLeft <= 3 && t('account.codes.runningOut')}
        </p>
        <div className="d-flex flex-wrap gap-2">
          <button type="button" className="btn btn-outline-primary" onClick={onNewCodes}>
            {t('account.codes.makeNew')}
          </button>
          <button type="button" className="btn btn-outline-danger" onClick={onTurnOff}>
            {t('account.totp.turnOff')}
          </button>
        </div>
      </>
    );
  }
  return (
    <>
      <p>{t('account.totp.offer')}</p>
      <button type="button" className="btn btn-primary" disabled={busy} onClick={onStart}>
        {t('account.totp.setUp')}
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
  failed,
  danger = false,
  action,
  onDone,
  onCancel,
}: {
  intro: string;
  submit: string;
  /** The danger alert when the server refuses for another reason than the proof. */
  failed: string;
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
  const t = useT();
  const { language } = useLanguage();
  const label = method === 'password' ? t('account.proof.password') : t('account.proof.code');

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const answer = await action(method === 'password' ? { Password: value } : { Code: value.trim() });
      setProblem(null);
      await onDone(answer);
    } catch (error) {
      logFailure(submit, error);
      const tooMany = tooManyAttemptsReason(error, language, t);
      if (error instanceof ApiError && error.code === 'invalid_input') setProblem(fieldReason(error));
      else if (tooMany) setProblem(asSentence(tooMany));
      else alerts.danger(`${failed}${error instanceof ApiError ? `: ${error.message}` : ''}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void send(event)}>
      <p>{intro}</p>
      <fieldset className="mb-2">
        <legend className="form-label fs-6">{t('account.proof.with')}</legend>
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
              {option === 'password' ? t('login.password') : t('account.code')}
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
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The recovery codes, shown this once: copy, download, then gone. */
function RecoveryCodesView({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const { portalName } = useBranding();
  const t = useT();
  const text = `${t('account.codes.fileTitle', { portal: portalName })}\n\n${codes.join('\n')}\n`;
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
      <h3 className="h6">{t('account.codes.title')}</h3>
      <p>{t('account.codes.keep')}</p>
      <ul className="list-unstyled font-monospace row row-cols-2 g-1 mb-3" aria-label={t('account.codes.title')}>
        {codes.map((code) => (
          <li key={code} className="col">
            {code}
          </li>
        ))}
      </ul>
      <div className="d-flex flex-wrap gap-2">
        <button type="button" className="btn btn-outline-primary" onClick={() => void copy()}>
          {copied ? t('account.codes.copied') : t('account.codes.copy')}
        </button>
        <a className="btn btn-outline-primary" href={href} download="tools-server-recovery-codes.txt">
          {t('account.codes.download')}
        </a>
        <button type="button" className="btn btn-primary" onClick={onDone}>
          {t('account.codes.done')}
        </button>
      </div>
    </>
  );
}

function Passkeys() {
  const session = useSession();
  const alerts = useAlerts();
  const run = useAction();
  const t = useT();
  const problem = passkeysUnavailable(t);
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
      alerts.success(t('account.passkeys.added'));
      await list.reload();
      await session.reload();
    } catch (error) {
      logFailure('add passkey', error);
      alerts.danger(t('account.passkeys.notAdded'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section name="passkeys" title={t('account.passkeys.title')}>
      {problem ? (
        <p className="text-secondary" data-testid="passkeys-unavailable">
          {problem}
        </p>
      ) : (
        <p>{t('account.passkeys.offer')}</p>
      )}
      <ListTable
        label={t('account.passkeys.title')}
        head={
          <>
            <th scope="col">{t('account.passkeys.name')}</th>
            <th scope="col" className={WIDE_SCREENS_ONLY}>
              {t('account.passkeys.addedAt')}
            </th>
            <th scope="col" className="text-end">
              {t('common.delete')}
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
                success: t('account.passkeys.deleted'),
                danger: t('account.passkeys.deleteFailed'),
                what: 'delete passkey',
                onSuccess: async () => {
                  await list.reload();
                  await session.reload();
                },
              })
            }
          />
        ))}
        <EmptyRow columns={3} shown={list.data?.length ?? 0} loading={list.loading} text={t('account.passkeys.none')} />
      </ListTable>
      <button type="button" className="btn btn-primary" disabled={busy || problem !== null} onClick={() => void add()}>
        {t('account.passkeys.add')}
      </button>
    </Section>
  );
}

function PasskeyRow({ passkey, onChanged, onDelete }: { passkey: Passkey; onChanged: () => Promise<void>; onDelete: () => unknown }) {
  const run = useAction();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const t = useT();

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await run({
      call: () => api.account.passkeys.rename(passkey.id, name.trim()),
      danger: t('account.passkeys.renameFailed'),
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
              aria-label={t('account.passkeys.nameLabel')}
              required
              maxLength={100}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <button type="submit" className="btn btn-sm btn-primary">
              {t('common.save')}
            </button>
          </form>
        ) : (
          <>
            <span className="text-break">{passkey.name}</span>{' '}
            <button type="button" className="btn btn-sm btn-link" onClick={() => setEditing(true)}>
              {t('account.passkeys.rename')}
              <span className="visually-hidden"> {passkey.name}</span>
            </button>
          </>
        )}
        <PhoneDetail>{t('account.passkeys.addedOn', { time: formatTimestamp(passkey.createdTimestamp) })}</PhoneDetail>
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
  const t = useT();

  return (
    <Section name="sessions" title={t('account.sessions.title')}>
      <ListTable
        label={t('account.sessions.title')}
        head={
          <>
            <th scope="col">{t('account.sessions.browser')}</th>
            <th scope="col" className={WIDE_SCREENS_ONLY}>
              {t('account.sessions.ip')}
            </th>
            <th scope="col" className={LARGE_SCREENS_ONLY}>
              {t('account.sessions.signedIn')}
            </th>
            <th scope="col" className={WIDE_SCREENS_ONLY}>
              {t('account.sessions.lastUsed')}
            </th>
            <th scope="col" className="text-end">
              {t('nav.signOut')}
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
                success: t('account.sessions.signedOut'),
                danger: t('account.sessions.signOutFailed'),
                what: 'revoke session',
                onSuccess: () => list.reload(),
              })
            }
          />
        ))}
        <EmptyRow columns={5} shown={list.data?.length ?? 0} loading={list.loading} text={t('account.sessions.none')} />
      </ListTable>
      <button
        type="button"
        className="btn btn-outline-danger"
        disabled={others === 0}
        onClick={() =>
          void run({
            call: () => api.account.sessions.revokeOthers(),
            success: t('account.sessions.othersSignedOut'),
            danger: t('account.sessions.othersFailed'),
            what: 'revoke other sessions',
            onSuccess: () => list.reload(),
          })
        }
      >
        {t('account.sessions.signOutOthers')}
      </button>
    </Section>
  );
}

/** One session: on a phone its address and last use stack under the browser, so that Sign out stays in view. */
function SessionRow({ session, onSignOut }: { session: UserSession; onSignOut: () => void }) {
  const t = useT();
  const ip = session.ip ?? t('account.sessions.unknown');
  return (
    <tr>
      <td title={session.userAgent ?? undefined}>
        {session.name ?? (agentName(session.userAgent) || t('account.sessions.unknown'))}
        <PhoneDetail>{ip}</PhoneDetail>
        <PhoneDetail>{t('account.sessions.lastUsedOn', { time: formatTimestamp(session.lastUsedTimestamp) })}</PhoneDetail>
      </td>
      <td className={`${WIDE_SCREENS_ONLY} text-nowrap`}>{ip}</td>
      <td className={`${LARGE_SCREENS_ONLY} text-nowrap`}>{formatTimestamp(session.createdTimestamp)}</td>
      <td className={`${WIDE_SCREENS_ONLY} text-nowrap`}>{formatTimestamp(session.lastUsedTimestamp)}</td>
      <td className="text-end">
        {session.current ? (
          <span className="badge text-bg-success">{t('account.sessions.current')}</span>
        ) : (
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={onSignOut}>
            {t('nav.signOut')}
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

/** "Chrome on Linux" for a browser; other clients (toolsctl/0.1.0) by their own first word; empty when unknown. */
function agentName(userAgent: string | null): string {
  if (!userAgent) return '';
  const name = browserName(userAgent);
  return name === 'Browser' ? (userAgent.split(' ')[0] ?? userAgent).slice(0, 40) : name;
}
