/**
 * /login, /login/{redirect}, /login/{redirect}/{token} (docs/product.md §2): password login, or with a
 * token the initial password; Google sign-in when the server offers it. The server sets the cookie
 * and vets the redirect. A wrong email or password, and too many attempts, stay on the form with
 * the email kept (docs/product.md, deviations); Failed Login is for sign-ins refused outright. An
 * invitation is checked before its password is asked for: a used, expired or unknown one says so.
 * A password the server refuses at registration shows its reason, so that the user can choose
 * another.
 * A user with a second factor gets the Two-factor authentication step after the password; a passkey
 * alone also signs in ("Sign in with a passkey").
 * /confirm/{redirect} and /stepup/{redirect}: **Confirm it's you** (docs/oidc.md), the same sign-in
 * for the signed-in user, whose email is fixed: it confirms the session (`Confirm: true`) instead of
 * starting one, when an app asks for a fresh sign-in (prompt=login, max_age) or two factors.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { isMfaChallenge, type MfaChallenge, type PasswordAnswer, type RegistrationTokenStatus } from '@tools-portal/core/entities';
import { ApiError } from '@tools-portal/core/errors';
import { DEFAULT_REDIRECT } from '@tools-portal/core/redirects';
import { api, logFailure, tooManyRequestsMessage } from '../api';
import { useBranding } from '../branding';
import { useAlerts } from '../components/alerts';
import { Centered } from '../components/layout';
import { SetPassword } from '../components/set-password';
import { formatTime } from '../logic/format';
import { googleLoginUrl, loginPath, paths } from '../paths';
import { passkeysUnavailable, signInWithPasskey } from '../passkeys';
import type { MessageKey } from '../i18n/en';
import { reasonFor, tooManyAttemptsReason } from '../i18n/error-words';
import { useLanguage } from '../i18n/language';
import { useT, type Translate } from '../i18n/use-t';
import { useSession } from '../session';

export function Login({ confirm }: { confirm?: 'confirm' | 'stepup' }) {
  const params = useParams();
  const redirect = params.redirect || DEFAULT_REDIRECT;
  const token = params.token;
  const navigate = useNavigate();
  const session = useSession();
  const alerts = useAlerts();
  const options = useBranding();
  const [challenge, setChallenge] = useState<MfaChallenge['mfa'] | null>(null);
  // Why the last password sign-in was refused, shown on the form: wrong credentials or too many attempts.
  const [problem, setProblem] = useState<string | null>(null);
  const invitation = useInvitationStatus(token);
  const t = useT();
  const { language } = useLanguage();
  const tooMany = (error: unknown) => tooManyAttemptsReason(error, language, t);

  const finish = async (signIn: () => Promise<PasswordAnswer>, registering = false): Promise<'refused' | undefined> => {
    let answer: PasswordAnswer;
    try {
      answer = await signIn();
    } catch (error) {
      logFailure('login', error);
      if (registering) {
        const refusal = refusedPassword(error);
        const status = refusal ? null : invitationRefusal(error);
        if (refusal) alerts.danger(refusal);
        else if (status) invitation.set(status);
        else navigate(paths.failedLogin);
      } else if (confirm) {
        alerts.danger(tooMany(error) ?? t('login.passwordWrong'));
      } else {
        const refusal =
          tooManyAttempts(error, language, t) ?? (error instanceof ApiError && error.code === 'unauthenticated' ? t('login.wrongCredentials') : null);
        if (!refusal) navigate(paths.failedLogin);
        else {
          setProblem(refusal);
          return 'refused';
        }
      }
      return undefined;
    }
    setProblem(null);
    if (isMfaChallenge(answer)) {
      // The second step of a new sign-in: nothing said before it concerns it.
      alerts.clear();
      setChallenge(answer.mfa);
      return;
    }
    // The portal's own screens read the session from memory: refresh it before going there.
    await session.reload();
    alerts.clear();
    window.location.assign(answer.redirect);
  };

  /**
   * A passkey ceremony the user cancelled or the server refused: say so, stay on the screen. Too
   * many attempts (429) is no verdict on the passkey: the server's message says when to try again.
   */
  const withPasskey = async (mfaToken?: string) => {
    try {
      const answer = await signInWithPasskey({ mfaToken, redirect, confirm: confirm !== undefined });
      await finish(async () => answer);
    } catch (error) {
      logFailure('passkey sign-in', error);
      alerts.danger(tooMany(error) ?? t('login.passkeyRefused'));
    }
  };

  // Confirming needs the signed-in user: without one it is a sign-in like any other.
  const signedIn = session.state.status === 'user' ? session.state.user : undefined;
  if (confirm && session.state.status === 'loading') return null;
  if (confirm && !signedIn) return <Navigate to={loginPath(redirect)} replace />;

  if (challenge) {
    return (
      <Centered>
        <div className="card shadow-sm">
          <div className="card-body p-4">
            <TwoFactor methods={challenge.methods} onCode={(code) => verify(code)} onPasskey={() => withPasskey(challenge.token)} />
          </div>
        </div>
      </Centered>
    );
  }

  /** A wrong code keeps the step (up to the server's limit); a void pending sign-in starts over. */
  async function verify(code: string) {
    if (!challenge) return;
    try {
      const answer = await api.auth.validateMfa(challenge.token, code, redirect);
      await finish(async () => answer);
    } catch (error) {
      logFailure('second factor', error);
      const refusal = tooManyAttempts(error, language, t);
      if (error instanceof ApiError && error.code === 'unauthenticated') alerts.danger(t('login.codeWrong'));
      else if (refusal) alerts.danger(refusal);
      else navigate(paths.failedLogin);
    }
  }

  const passkeyProblem = passkeysUnavailable(t);

  /** Step-up: the second factor alone, for the session's sign-in (the server keeps its first factor). */
  const stepUp = async () => {
    try {
      const answer = await api.auth.stepUp();
      alerts.clear();
      setChallenge(answer.mfa);
    } catch (error) {
      logFailure('step-up', error);
      alerts.danger(error instanceof ApiError ? error.message : t('login.stepUpFailed'));
    }
  };

  return (
    <Centered>
      <div className="card shadow-sm">
        <div className="card-body p-4">
          {confirm === 'stepup' && signedIn?.mfa && (
            <>
              <h2 className="h4 mb-3">{t('login.confirmTitle')}</h2>
              <p className="text-secondary">{t('login.stepUpText')}</p>
              <button type="button" className="btn btn-primary w-100" onClick={() => void stepUp()}>
                {t('login.useSecondFactor')}
              </button>
              <div className="text-center text-secondary my-3">{t('login.orSignInAgain')}</div>
            </>
          )}
          {token && invitation.status !== 'open' && invitation.status !== 'unchecked' ? (
            <InvitationProblem status={invitation.status} redirect={redirect} passwordReset={options.passwordReset} />
          ) : token ? (
            <SetPassword
              onSubmit={async (password) => {
                await finish(() => api.auth.register({ Token: token, Password: password, redirect }), true);
              }}
            />
          ) : confirm && signedIn ? (
            <PasswordLogin
              confirm={{ email: signedIn.email, stepUp: confirm === 'stepup', heading: !(confirm === 'stepup' && signedIn.mfa) }}
              onSubmit={(email, password) => finish(() => api.auth.signIn({ Email: email, Password: password, redirect, Confirm: true }))}
            />
          ) : (
            <PasswordLogin problem={problem} onSubmit={(email, password) => finish(() => api.auth.signIn({ Email: email, Password: password, redirect }))} />
          )}
          {!token && !confirm && options.passwordReset && (
            <div className="text-center mt-3">
              <Link to={paths.resetPassword}>{t('login.forgotPassword')}</Link>
            </div>
          )}
          {!token && !passkeyProblem && (
            <>
              <div className="text-center text-secondary my-3">{t('login.or')}</div>
              <button type="button" className="btn btn-outline-primary w-100" onClick={() => void withPasskey()}>
                {t('login.withPasskey')}
              </button>
            </>
          )}
          {options.google && (!token || invitation.status === 'open' || invitation.status === 'unchecked') && (
            <>
              <div className="text-center text-secondary my-3">{t('login.or')}</div>
              <a className="btn btn-outline-dark w-100" href={googleLoginUrl(redirect, token, confirm !== undefined)}>
                {t('login.withGoogle')}
              </a>
            </>
          )}
        </div>
      </div>
    </Centered>
  );
}

/** The server's reason for refusing a new password (too common, holds the email...), or null. */
export function refusedPassword(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'invalid_input' || error.details.field !== 'Password') return null;
  return error.message.replace(/^Password: /, '');
}

/**
 * Too many attempts (429): the server's words, and the time to try again at, e.g. "…; try again in
 * 10 minutes (at 14:35)."; outside English the web's own words, from the minutes the server gives.
 */
function tooManyAttempts(error: unknown, language: string, t: Translate): string | null {
  const message = tooManyRequestsMessage(error);
  if (!message) return null;
  const retryAfter = (error as ApiError).details.retryAfter;
  if (language !== 'en')
    return typeof retryAfter === 'number'
      ? t('login.tooManyLoginsAt', { count: Math.max(1, Math.ceil(retryAfter / 60)), time: formatTime(new Date(Date.now() + retryAfter * 1000)) })
      : (reasonFor(error, language, t) ?? message);
  const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}`;
  if (typeof retryAfter !== 'number') return `${sentence}.`;
  return t('login.tooManyAt', {
    message: sentence,
    time: formatTime(new Date(Date.now() + retryAfter * 1000)),
  });
}

type InvitationState = RegistrationTokenStatus | 'checking' | 'unchecked';

/**
 * The invitation's status, asked before its password (POST /registrationtoken/status). When the
 * server cannot say (too many checks, unreachable), the form shows: the registration says the rest.
 */
function useInvitationStatus(token: string | undefined): { status: InvitationState; set: (status: RegistrationTokenStatus) => void } {
  const [status, setStatus] = useState<InvitationState>(token ? 'checking' : 'unchecked');
  useEffect(() => {
    if (!token) return;
    let current = true;
    setStatus('checking');
    api.auth
      .invitationStatus(token)
      .then((answer) => current && setStatus(answer))
      .catch((error: unknown) => {
        logFailure('check invitation', error);
        if (current) setStatus('unchecked');
      });
    return () => {
      current = false;
    };
  }, [token]);
  return { status, set: setStatus };
}

/** What a refused registration says of its invitation: used (409), expired (400 naming Token), unknown (404); else null. */
function invitationRefusal(error: unknown): RegistrationTokenStatus | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'conflict') return 'used';
  if (error.code === 'not_found') return 'unknown';
  if (error.code === 'invalid_input' && error.details.field === 'Token') return 'expired';
  return null;
}

const INVITATION_PROBLEMS = {
  checking: { title: 'login.invitation.checking', text: 'login.invitation.checking' },
  used: { title: 'login.invitation.usedTitle', text: 'login.invitation.usedText' },
  expired: { title: 'login.invitation.expiredTitle', text: 'login.invitation.expiredText' },
  unknown: { title: 'login.invitation.unknownTitle', text: 'login.invitation.unknownText' },
} as const satisfies Record<Exclude<InvitationState, 'open' | 'unchecked'>, { title: MessageKey; text: MessageKey }>;

/** A used, expired or unknown invitation, said before any password is asked for. */
function InvitationProblem({
  status,
  redirect,
  passwordReset,
}: {
  status: Exclude<InvitationState, 'open' | 'unchecked'>;
  redirect: string;
  passwordReset: boolean;
}) {
  const t = useT();
  const title = t(INVITATION_PROBLEMS[status].title);
  const text = t(INVITATION_PROBLEMS[status].text);
  if (status === 'checking')
    return (
      <p className="text-secondary mb-0" role="status">
        {title}
      </p>
    );
  return (
    <div role="status">
      <h2 className="h4 mb-3">{title}</h2>
      <p>{text}</p>
      {status === 'used' && (
        <div className="d-flex flex-column gap-2">
          <Link className="btn btn-primary w-100" to={loginPath(redirect)}>
            {t('login.login')}
          </Link>
          {passwordReset && (
            <Link className="text-center" to={paths.resetPassword}>
              {t('login.forgotPassword')}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}

interface PasswordLoginProps {
  /** Why the last attempt was refused (wrong email or password, too many attempts), shown above the form. */
  problem?: string | null;
  /** Answers 'refused' when the sign-in was refused and the form stays. */
  onSubmit: (email: string, password: string) => Promise<'refused' | void>;
  /** Confirm it's you: the signed-in user's email, fixed; stepUp when the app asks for two factors; heading unless the screen has one above. */
  confirm?: { email: string; stepUp: boolean; heading: boolean };
}

function PasswordLogin({ onSubmit, confirm, problem }: PasswordLoginProps) {
  const [email, setEmail] = useState(confirm?.email ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const passwordInput = useRef<HTMLInputElement>(null);
  const t = useT();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const outcome = await onSubmit(email, password);
    setBusy(false);
    // Refused: the email stays, the password goes, and the cursor waits in it for another try.
    if (outcome === 'refused') {
      setPassword('');
      passwordInput.current?.focus();
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      {(!confirm || confirm.heading) && <h2 className="h4 mb-3">{confirm ? t('login.confirmTitle') : t('login.title')}</h2>}
      {problem && (
        <div className="alert alert-danger" role="alert" id="login-problem">
          {problem}
        </div>
      )}
      {confirm?.heading && <p className="text-secondary">{confirm.stepUp ? t('login.confirmStepUpText') : t('login.confirmText')}</p>}
      <div className="mb-3">
        <label className="form-label" htmlFor="login-email">
          {t('login.email')}
        </label>
        <input
          id="login-email"
          type="email"
          className="form-control"
          autoComplete="username"
          required
          readOnly={confirm !== undefined}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="login-password">
          {t('login.password')}
        </label>
        <input
          ref={passwordInput}
          id="login-password"
          type="password"
          className="form-control"
          autoComplete="current-password"
          aria-describedby={problem ? 'login-problem' : undefined}
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <button type="submit" className={confirm && !confirm.heading ? 'btn btn-outline-primary w-100' : 'btn btn-primary w-100'} disabled={busy}>
        {confirm ? t('login.confirm') : t('login.login')}
      </button>
    </form>
  );
}

interface TwoFactorProps {
  methods: MfaChallenge['mfa']['methods'];
  onCode: (code: string) => Promise<void>;
  onPasskey: () => Promise<void>;
}

/** The second step: an authenticator code, a recovery code, or a passkey. */
function TwoFactor({ methods, onCode, onPasskey }: TwoFactorProps) {
  const [recovery, setRecovery] = useState(!methods.includes('totp'));
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const t = useT();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await onCode(code.trim());
    setBusy(false);
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      <h2 className="h4 mb-3">{t('login.twoFactor.title')}</h2>
      {(methods.includes('totp') || methods.includes('recovery')) && (
        <>
          <div className="mb-3">
            <label className="form-label" htmlFor="mfa-code">
              {recovery ? t('login.twoFactor.recoveryCode') : t('login.twoFactor.appCode')}
            </label>
            <input
              id="mfa-code"
              type="text"
              className="form-control font-monospace"
              autoComplete="one-time-code"
              inputMode={recovery ? 'text' : 'numeric'}
              required
              autoFocus
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </div>
          <button type="submit" className="btn btn-primary w-100" disabled={busy}>
            {t('login.twoFactor.verify')}
          </button>
        </>
      )}
      <div className="d-flex flex-column gap-2 mt-3">
        {methods.includes('passkey') && (
          <button type="button" className="btn btn-outline-primary w-100" disabled={busy} onClick={() => void onPasskey()}>
            {t('login.twoFactor.usePasskey')}
          </button>
        )}
        {methods.includes('recovery') && !recovery && (
          <button
            type="button"
            className="btn btn-link"
            onClick={() => {
              setRecovery(true);
              setCode('');
            }}
          >
            {t('login.twoFactor.useRecovery')}
          </button>
        )}
        {methods.includes('totp') && recovery && (
          <button
            type="button"
            className="btn btn-link"
            onClick={() => {
              setRecovery(false);
              setCode('');
            }}
          >
            {t('login.twoFactor.useApp')}
          </button>
        )}
      </div>
    </form>
  );
}
