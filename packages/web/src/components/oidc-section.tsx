/**
 * App detail (admins): the app as an OpenID Connect client (docs/oidc.md). Enable it with
 * redirect URIs; then the client id and discovery URL to copy, the secret shown once, New secret
 * and Turn off (two-step).
 */
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from '@tools-portal/core/errors';
import { OIDC_SIGNING_ALGS, type OidcSigningAlg } from '@tools-portal/core/oidc-names';
import type { OidcClientCreated, OidcClientSettings } from '@tools-portal/core/oidc';
import { api, logFailure } from '../api';
import { useAlerts } from './alerts';
import { CopyField } from './copy-field';
import { DeleteButton } from './delete-button';
import { useLoad } from './use-load';
import type { MessageKey } from '../i18n/en';
import { useT } from '../i18n/use-t';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

const notFound = (error: unknown) => error instanceof ApiError && error.code === 'not_found';

export function OidcSection({ appId, appName }: { appId: number; appName: string }) {
  const alerts = useAlerts();
  const t = useT();
  const intl = useIntl();
  const settings = useLoad<OidcClientSettings | null>(
    () => api.apps.oidc.get(appId).catch((error: unknown) => (notFound(error) ? null : Promise.reject(error))),
    (error) => logFailure('load OpenID Connect settings', error),
    appId,
  );
  const [secret, setSecret] = useState<string>();
  const [busy, setBusy] = useState(false);

  const enable = async (
    input: { redirect_uris: string[]; post_logout_redirect_uris: string[]; public: boolean; device: boolean; id_token_signed_response_alg: OidcSigningAlg },
    done: MessageKey,
  ) => {
    setBusy(true);
    try {
      const created: OidcClientCreated = await api.apps.oidc.enable(appId, input);
      setSecret(created.client_secret);
      alerts.success(t(done, { name: appName }));
      await settings.reload();
    } catch (error) {
      logFailure('enable OpenID Connect', error);
      alerts.danger(t('oidc.enableFailed', { name: appName, reason: error instanceof Error ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    try {
      await api.apps.oidc.disable(appId);
      setSecret(undefined);
      alerts.success(t('oidc.turnedOff', { name: appName }));
      await settings.reload();
    } catch (error) {
      logFailure('turn off OpenID Connect', error);
      alerts.danger(t('oidc.turnOffFailed', { name: appName }));
    }
  };

  const current = settings.data;
  return (
    <section className="mb-4" aria-labelledby="oidc-heading">
      <h2 id="oidc-heading" className="h5">
        OpenID Connect
      </h2>
      {current === undefined ? (
        <p className="text-secondary">{settings.loading ? t('oidc.loading') : t('oidc.loadFailed')}</p>
      ) : current === null ? (
        <EnableForm busy={busy} onSubmit={(input) => enable(input, 'oidc.enabled')} />
      ) : (
        <>
          {secret && (
            <div className="alert alert-warning" role="status">
              <p className="mb-2">
                {intl.formatMessage({ id: 'oidc.secretNow' satisfies MessageKey }, { secret: <strong key="secret">{t('oidc.clientSecret')}</strong> })}
              </p>
              <CopyField value={secret} label={t('oidc.clientSecret')} solid />
            </div>
          )}
          <dl className="row">
            <dt className="col-sm-3 col-lg-2">{t('oidc.clientId')}</dt>
            <dd className="col-sm-9 col-lg-10">
              <CopyField value={current.client_id} label={t('oidc.clientId')} />
            </dd>
            <dt className="col-sm-3 col-lg-2">{t('oidc.discoveryUrl')}</dt>
            <dd className="col-sm-9 col-lg-10">
              <CopyField value={current.discovery_url} label={t('oidc.discoveryUrl')} />
            </dd>
            <dt className="col-sm-3 col-lg-2">{t('oidc.redirectUris')}</dt>
            <dd className="col-sm-9 col-lg-10 text-break">
              {current.redirect_uris.map((uri) => (
                <div key={uri}>{uri}</div>
              ))}
            </dd>
            {current.post_logout_redirect_uris.length > 0 && (
              <>
                <dt className="col-sm-3 col-lg-2">{t('oidc.afterLogout')}</dt>
                <dd className="col-sm-9 col-lg-10 text-break">
                  {current.post_logout_redirect_uris.map((uri) => (
                    <div key={uri}>{uri}</div>
                  ))}
                </dd>
              </>
            )}
            <dt className="col-sm-3 col-lg-2">{t('oidc.client')}</dt>
            <dd className="col-sm-9 col-lg-10">
              {current.public ? t('oidc.public') : t('oidc.confidential')}, {t('oidc.idTokens', { alg: current.id_token_signed_response_alg })}
              {current.device && t('oidc.deviceGrant')}
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
                    'oidc.newSecretIssued',
                  )
                }
              >
                {t('oidc.newSecret')}
              </button>
            )}
            <DeleteButton label={t('oidc.turnOff')} onConfirm={turnOff} />
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
  const t = useT();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ redirect_uris: lines(redirects), post_logout_redirect_uris: lines(logouts), public: isPublic, device, id_token_signed_response_alg: alg });
  };
  return (
    <form onSubmit={submit}>
      <p className="text-secondary">{t('oidc.enableLead')}</p>
      <div className="mb-2">
        <label htmlFor="oidc-redirects" className="form-label">
          {t('oidc.redirectsLabel')}
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
          {t('oidc.logoutsLabel')}
        </label>
        <textarea id="oidc-logouts" className="form-control font-monospace" rows={1} value={logouts} onChange={(event) => setLogouts(event.target.value)} />
      </div>
      <div className="row g-2 align-items-center mb-3">
        <div className="col-auto">
          <div className="form-check">
            <input id="oidc-public" className="form-check-input" type="checkbox" checked={isPublic} onChange={(event) => setPublic(event.target.checked)} />
            <label htmlFor="oidc-public" className="form-check-label">
              {t('oidc.publicLabel')}
            </label>
          </div>
        </div>
        <div className="col-auto">
          <div className="form-check">
            <input id="oidc-device" className="form-check-input" type="checkbox" checked={device} onChange={(event) => setDevice(event.target.checked)} />
            <label htmlFor="oidc-device" className="form-check-label">
              {t('oidc.deviceLabel')}
            </label>
          </div>
        </div>
        <div className="col-auto">
          <label htmlFor="oidc-alg" className="visually-hidden">
            {t('oidc.signature')}
          </label>
          <select id="oidc-alg" className="form-select form-select-sm" value={alg} onChange={(event) => setAlg(event.target.value as OidcSigningAlg)}>
            {OIDC_SIGNING_ALGS.map((value) => (
              <option key={value} value={value}>
                {t('oidc.idTokens', { alg: value })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
        {t('oidc.enable')}
      </button>
    </form>
  );
}
