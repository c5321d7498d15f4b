/**
 * /login, /login/{redirect}, /login/{redirect}/{token} (docs/product.md §2): password login, or with a
 * token the initial password; Google sign-in when the server offers it. The server sets the cookie
 * and vets the redirect; a failure goes to Failed Login, except a password the server refuses at
 * registration: its reason shows as a danger alert, so that the user can choose another (a
 * deviation from docs/product.md §8, documented in the README).
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { LoginAnswer } from '@tools-portal/core/entities';
import { ApiError } from '@tools-portal/core/errors';
import { DEFAULT_REDIRECT } from '@tools-portal/core/redirects';
import { api, logFailure } from '../api';
import { useAlerts } from '../components/alerts';
import { Centered } from '../components/layout';
import { SetPassword } from '../components/set-password';
import { useLoad } from '../components/use-load';
import { googleLoginUrl, paths } from '../paths';
import { useSession } from '../session';

export function Login() {
  const params = useParams();
  const redirect = params.redirect || DEFAULT_REDIRECT;
  const token = params.token;
  const navigate = useNavigate();
  const session = useSession();
  const alerts = useAlerts();
  const options = useLoad(() => api.auth.options(), (error) => logFailure('load login options', error));

  const finish = async (signIn: () => Promise<LoginAnswer>, registering = false) => {
    let answer: LoginAnswer;
    try {
      answer = await signIn();
    } catch (error) {
      logFailure('login', error);
      const refusal = registering ? refusedPassword(error) : null;
      if (refusal) alerts.danger(refusal);
      else navigate(paths.failedLogin);
      return;
    }
    // The portal's own screens read the session from memory: refresh it before going there.
    await session.reload();
    alerts.clear();
    window.location.assign(answer.redirect);
  };

  return (
    <Centered>
      <div className="card shadow-sm">
        <div className="card-body p-4">
          {token ? <SetPassword onSubmit={(password) => finish(() => api.auth.register({ Token: token, Password: password, redirect }), true)} /> : <PasswordLogin onSubmit={(email, password) => finish(() => api.auth.login({ Email: email, Password: password, redirect }))} />}
          {!token && options.data?.passwordReset && (
            <div className="text-center mt-3">
              <Link to={paths.resetPassword}>Forgot password?</Link>
            </div>
          )}
          {options.data?.google && (
            <>
              <div className="text-center text-secondary my-3">or</div>
              <a className="btn btn-outline-dark w-100" href={googleLoginUrl(redirect, token)}>
                Login with Google
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

function PasswordLogin({ onSubmit }: { onSubmit: (email: string, password: string) => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await onSubmit(email, password);
    setBusy(false);
  };

  return (
    <form onSubmit={(event) => void submit(event)}>
      <h2 className="h4 mb-3">Login</h2>
      <div className="mb-3">
        <label className="form-label" htmlFor="login-email">
          Email
        </label>
        <input id="login-email" type="email" className="form-control" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="login-password">
          Password
        </label>
        <input id="login-password" type="password" className="form-control" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
      </div>
      <button type="submit" className="btn btn-primary w-100" disabled={busy}>
        Login
      </button>
    </form>
  );
}
