/**
 * The set-password form (docs/product.md: Password, Repeat Password, Save Password, with the product's
 * messages): the initial password from an invite, and a new one from a reset link. The rules a
 * password must pass are listed before the first attempt (the server checks them all).
 */
import { useState, type FormEvent } from 'react';
import { useBranding } from '../branding';
import { newPasswordProblemIn, passwordRules } from '../i18n/password-words';
import { useT } from '../i18n/use-t';
import { useAlerts } from './alerts';

export function SetPassword({ onSubmit, title }: { onSubmit: (password: string) => Promise<void>; title?: string }) {
  const alerts = useAlerts();
  const t = useT();
  const { portalName } = useBranding();
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordProblemIn(t, password, repeated);
    if (problem) {
      alerts.danger(problem);
      return;
    }
    setBusy(true);
    await onSubmit(password);
    setBusy(false);
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      <h2 className="h4 mb-3">{title ?? t('setPassword.title')}</h2>
      <p className="mb-1" id="password-rules-title">
        {t('setPassword.rules')}
      </p>
      <ul className="small text-secondary mb-3" id="password-rules" aria-labelledby="password-rules-title">
        {passwordRules(t, portalName).map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
      <div className="mb-3">
        <label className="form-label" htmlFor="register-password">
          {t('login.password')}
        </label>
        <input
          id="register-password"
          type="password"
          className="form-control"
          autoComplete="new-password"
          aria-describedby="password-rules"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="register-repeat">
          {t('setPassword.repeat')}
        </label>
        <input
          id="register-repeat"
          type="password"
          className="form-control"
          autoComplete="new-password"
          value={repeated}
          onChange={(event) => setRepeated(event.target.value)}
        />
      </div>
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        {t('setPassword.save')}
      </button>
    </form>
  );
}
