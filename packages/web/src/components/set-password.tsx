/**
 * The set-password form (docs/product.md: Password, Repeat Password, Save Password, with the product's
 * messages): the initial password from an invite, and a new one from a reset link.
 */
import { useState, type FormEvent } from 'react';
import { newPasswordProblem } from '@tools-portal/core/passwords';
import { useAlerts } from './alerts';

export function SetPassword({ onSubmit, title = 'Set your initial password' }: { onSubmit: (password: string) => Promise<void>; title?: string }) {
  const alerts = useAlerts();
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = newPasswordProblem(password, repeated);
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
      <h2 className="h4 mb-3">{title}</h2>
      <div className="mb-3">
        <label className="form-label" htmlFor="register-password">
          Password
        </label>
        <input
          id="register-password"
          type="password"
          className="form-control"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="register-repeat">
          Repeat Password
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
        Save Password
      </button>
    </form>
  );
}
