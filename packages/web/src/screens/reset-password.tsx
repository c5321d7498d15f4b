/**
 * Password reset (docs/email.md): /reset asks for a link by mail and answers the same whatever
 * the address; /reset/{token} sets a new password with the link's token and signs in, then says
 * **Your password was changed.** before going on.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { isMfaChallenge, type PasswordAnswer } from '@tools-portal/core/entities';
import { ApiError } from '@tools-portal/core/errors';
import { api, logFailure } from '../api';
import { useAlerts } from '../components/alerts';
import { Centered } from '../components/layout';
import { SetPassword } from '../components/set-password';
import { paths } from '../paths';
import { useSession } from '../session';
import { tooManyAttemptsReason } from '../i18n/error-words';
import { useLanguage } from '../i18n/language';
import { useT } from '../i18n/use-t';
import { refusedPassword } from './login';

export function ResetPassword() {
  const alerts = useAlerts();
  const t = useT();
  const { language } = useLanguage();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api.auth.forgotPassword({ Email: email });
      alerts.clear();
      setSent(true);
    } catch (error) {
      logFailure('ask for a password reset link', error);
      alerts.danger(tooManyAttemptsReason(error, language, t) ?? t('reset.sendFailed'));
    }
    setBusy(false);
  };

  return (
    <Centered>
      <div className="card shadow-sm">
        <div className="card-body p-4">
          <h2 className="h4 mb-3">{t('reset.title')}</h2>
          {sent ? (
            <p className="mb-0" role="status">
              {t('reset.onItsWay')}
            </p>
          ) : (
            <form onSubmit={(event) => void submit(event)}>
              <div className="mb-3">
                <label className="form-label" htmlFor="reset-email">
                  {t('login.email')}
                </label>
                <input
                  id="reset-email"
                  type="email"
                  className="form-control"
                  autoComplete="username"
                  required
                  autoFocus
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                />
              </div>
              <button type="submit" className="btn btn-primary w-100" disabled={busy}>
                {t('reset.send')}
              </button>
            </form>
          )}
          <div className="text-center mt-3">
            <Link to={paths.login}>{t('reset.back')}</Link>
          </div>
        </div>
      </div>
    </Centered>
  );
}

export function SetNewPassword() {
  const token = useParams().token ?? '';
  const alerts = useAlerts();
  const session = useSession();
  const navigate = useNavigate();
  const t = useT();
  const [expired, setExpired] = useState(false);
  // Where to go once the user has read that the password was changed (signed in already).
  const [changed, setChanged] = useState<string | null>(null);

  const save = async (password: string) => {
    let answer: PasswordAnswer;
    try {
      answer = await api.auth.resetPassword({ Token: token, Password: password });
    } catch (error) {
      logFailure('reset password', error);
      const refusal = refusedPassword(error);
      if (refusal) alerts.danger(refusal);
      else if (error instanceof ApiError && error.details.field === 'Token') {
        alerts.danger(error.message.replace(/^Token: /, ''));
        setExpired(true);
      } else alerts.danger(t('reset.setFailed'));
      return;
    }
    if (isMfaChallenge(answer)) {
      // The link replaced the password only: the second factor is asked at the login.
      alerts.success(t('reset.changedSecondFactor'));
      navigate(paths.login);
      return;
    }
    await session.reload();
    alerts.clear();
    setChanged(answer.redirect);
  };

  if (changed !== null) {
    return (
      <Centered>
        <div className="card shadow-sm">
          <div className="card-body p-4" role="status">
            <h2 className="h4 mb-3">{t('reset.changed')}</h2>
            <p>{t('reset.signedIn')}</p>
            <a className="btn btn-primary w-100" href={changed}>
              {t('reset.continue')}
            </a>
          </div>
        </div>
      </Centered>
    );
  }

  return (
    <Centered>
      <div className="card shadow-sm">
        <div className="card-body p-4">
          <SetPassword title={t('reset.setTitle')} onSubmit={save} />
          {expired && (
            <div className="text-center mt-3">
              <Link to={paths.resetPassword}>{t('reset.askNew')}</Link>
            </div>
          )}
        </div>
      </div>
    </Centered>
  );
}
