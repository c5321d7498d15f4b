/**
 * App detail (admins): the app as an OpenID Connect client (docs/oidc.md). Enable it with
 * redirect URIs; then the client id and discovery URL to copy, the secret shown once, New secret
 * and Turn off (two-step).
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '@tools-portal/core/errors';
import { OIDC_SIGNING_ALGS, type OidcSigningAlg } from '@tools-portal/core/oidc-names';
import type { OidcClientCreated, OidcClientSettings } from '@tools-portal/core/oidc';
import { api, logFailure } from '../api';
import { useAlerts } from './alerts';
import { CopyField } from './copy-field';
import { DeleteButton } from './delete-button';
import { useLoad } from './use-load';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const notFound = (error: unknown) => error instanceof ApiError && error.code === 'not_found';

export function OidcSection({ appId, appName }: { appId: number; appName: string }) {
  const alerts = useAlerts();
  const settings = useLoad<OidcClientSettings | null>(
    () => api.apps.oidc.get(appId).catch((error: unknown) => (notFound(error) ? null : Promise.reject(error))),
    (error) => logFailure('load OpenID Connect settings', error),
    appId,
  );
  const [secret, setSecret] = useState<string>();
  const [busy, setBusy] = useState(false);

  const enable = async (
    input: { redirect_uris: string[]; post_logout_redirect_uris: string[]; public: boolean; device: boolean; id_token_signed_response_alg: OidcSigningAlg },
    what: string,
  ) => {
    setBusy(true);
    try {
      const created: OidcClientCreated = await api.apps.oidc.enable(appId, input);
      setSecret(created.client_secret);
      alerts.success(`${what} OpenID Connect for app ${appName}`);
      await settings.reload();
    } catch (error) {
      logFailure('enable OpenID Connect', error);
      alerts.danger(`failed to enable OpenID Connect for app ${appName}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    try {
      await api.apps.oidc.disable(appId);
      setSecret(undefined);
      alerts.success(`turned off OpenID Connect for app ${appName}`);
      await settings.reload();
    } catch (error) {
      logFailure('turn off OpenID Connect', error);
      alerts.danger(`failed to turn off OpenID Connect for app ${appName}`);
    }
  };

  const current = settings.data;
  return (
    <section className="mb-4" aria-labelledby="oidc-heading">
      <h2 id="oidc-heading" className="h5">
        OpenID Connect
      </h2>
      {current === undefined ? (
        <p className="text-secondary">{settings.loading ? 'Loading…' : 'Could not load the settings.'}</p>
      ) : current === null ? (
        <EnableForm busy={busy} onSubmit={(input) => enable(input, 'enabled')} />
      ) : (
        <>
          {secret && (
            <div className="alert alert-warning" role="status">
              <p className="mb-2">
                <strong>Client secret</strong>: copy it now, it is shown this once.
              </p>
              <CopyField value={secret} label="Client secret" />
            </div>
          )}
          <dl className="row">
            <dt className="col-sm-3 col-lg-2">Client ID</dt>
            <dd className="col-sm-9 col-lg-10">
              <CopyField value={current.client_id} label="Client ID" />
            </dd>
            <dt className="col-sm-3 col-lg-2">Discovery URL</dt>
            <dd className="col-sm-9 col-lg-10">
              <CopyField value={current.discovery_url} label="Discovery URL" />
            </dd>
            <dt className="col-sm-3 col-lg-2">Redirect URIs</dt>
            <dd className="col-sm-9 col-lg-10 text-break">
              {current.redirect_uris.map((uri) => (
                <div key={uri}>{uri}</div>
              ))}
            </dd>
            {current.post_logout_redirect_uris.length > 0 && (
              <>
                <dt className="col-sm-3 col-lg-2">After logout</dt>
                <dd className="col-sm-9 col-lg-10 text-break">
                  {current.post_logout_redirect_uris.map((uri) => (
                    <div key={uri}>{uri}</div>
                  ))}
                </dd>
              </>
            )}
            <dt className="col-sm-3 col-lg-2">Client</dt>
            <dd className="col-sm-9 col-lg-10">
              {current.public ? 'public (no secret, PKCE required)' : 'confidential (client secret)'}, ID tokens {current.id_token_signed_response_alg}
              {current.device && ', device grant'}
            </dd>
          </dl>
          <div className="d-flex gap-2 flex-wrap">
            {!current.public && (
              <button
                type="button"
                className="btn btn-sm btn-outline-primary"
                disabled={busy}
                onClick={() =>
                  void enable(
                    {
                      redirect_uris: current.redirect_uris,
                      post_logout_redirect_uris: current.post_logout_redirect_uris,
                      public: current.public,
                      device: current.device,
                      id_token_signed_response_alg: current.id_token_signed_response_alg,
                    },
                    'issued a new secret for',
                  )
                }
              >
                New secret
              </button>
            )}
            <DeleteButton label="Turn off" onConfirm={turnOff} />
          </div>
        </>
      )}
    </section>
  );
}

function EnableForm({
  busy,
  onSubmit,
}: {
  busy: boolean;
  onSubmit: (input: {
    redirect_uris: string[];
    post_logout_redirect_uris: string[];
    public: boolean;
    device: boolean;
    id_token_signed_response_alg: OidcSigningAlg;
  }) => void;
}) {
  const [redirects, setRedirects] = useState('');
  const [logouts, setLogouts] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [device, setDevice] = useState(false);
  const [alg, setAlg] = useState<OidcSigningAlg>('RS256');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ redirect_uris: lines(redirects), post_logout_redirect_uris: lines(logouts), public: isPublic, device, id_token_signed_response_alg: alg });
  };
  return (
    <form onSubmit={submit}>
      <p className="text-secondary">Let this app sign its users in through the portal. Its name becomes the client ID.</p>
      <div className="mb-2">
        <label htmlFor="oidc-redirects" className="form-label">
          Redirect URIs (one a line)
        </label>
        <textarea
          id="oidc-redirects"
          className="form-control font-monospace"
          rows={2}
          value={redirects}
          onChange={(event) => setRedirects(event.target.value)}
          placeholder="https://app.example.com/callback"
        />
      </div>
      <div className="mb-2">
        <label htmlFor="oidc-logouts" className="form-label">
          Post-logout redirect URIs (optional)
        </label>
        <textarea id="oidc-logouts" className="form-control font-monospace" rows={1} value={logouts} onChange={(event) => setLogouts(event.target.value)} />
      </div>
      <div className="row g-2 align-items-center mb-3">
        <div className="col-auto">
          <div className="form-check">
            <input id="oidc-public" className="form-check-input" type="checkbox" checked={isPublic} onChange={(event) => setPublic(event.target.checked)} />
            <label htmlFor="oidc-public" className="form-check-label">
              Public client (no secret, PKCE)
            </label>
          </div>
        </div>
        <div className="col-auto">
          <div className="form-check">
            <input id="oidc-device" className="form-check-input" type="checkbox" checked={device} onChange={(event) => setDevice(event.target.checked)} />
            <label htmlFor="oidc-device" className="form-check-label">
              Device grant (sign-in from a TV or terminal)
            </label>
          </div>
        </div>
        <div className="col-auto">
          <label htmlFor="oidc-alg" className="visually-hidden">
            ID token signature
          </label>
          <select id="oidc-alg" className="form-select form-select-sm" value={alg} onChange={(event) => setAlg(event.target.value as OidcSigningAlg)}>
            {OIDC_SIGNING_ALGS.map((value) => (
              <option key={value} value={value}>
                ID tokens {value}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
        Enable
      </button>
    </form>
  );
}
