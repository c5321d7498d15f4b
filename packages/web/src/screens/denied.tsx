/**
 * /denied/{app} (docs/forward-auth.md): where a proxy sends a browser that forward auth refused.
 * It says only that the user cannot use that app; it offers Request access when the app is one
 * the user may ask for, and links to the Request access screen in any case. Whether the app
 * exists at all is not revealed.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { Link, useParams } from 'react-router-dom';
import { api, logFailure } from '../api';
import { RequestDialog } from '../components/request-dialog';
import { useLoad } from '../components/use-load';
import { useT } from '../i18n/use-t';
import { paths } from '../paths';

export function Denied() {
  const name = useParams().app ?? '';
  const t = useT();
  const intl = useIntl();
  const requestable = useLoad(
    () => api.users.requestable(),
    (error) => logFailure('load requestable apps', error),
  );
  const requests = useLoad(
    () => api.accessRequests.list(),
    (error) => logFailure('load access requests', error),
  );
  const [asking, setAsking] = useState(false);
  const app = requestable.data?.find((candidate) => candidate.name === name);
  const pending = requests.data?.some((request) => request.app.name === name && request.status === 'open');

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-md-9 col-lg-7">
        <div className="card shadow-sm border-warning">
          <div className="card-body p-4">
            <h1 className="h4">{t('denied.title')}</h1>
            <p className="text-break">{intl.formatMessage({ id: 'denied.text' }, { app: <strong key="app">{name || t('denied.thisApp')}</strong> })}</p>
            {pending && <p className="text-secondary">{t('denied.pending')}</p>}
            <div className="d-flex flex-wrap gap-2">
              {app && !pending && (
                <button type="button" className="btn btn-primary" onClick={() => setAsking(true)}>
                  {t('nav.requestAccess')}
                </button>
              )}
              <Link to={paths.requests} className="btn btn-outline-primary">
                {t('requests.yours')}
              </Link>
              <Link to={paths.appList} className="btn btn-outline-secondary">
                {t('denied.yourApps')}
              </Link>
            </div>
          </div>
        </div>
      </div>
      {asking && app && (
        <RequestDialog
          app={app}
          onClose={() => setAsking(false)}
          onRequested={async () => {
            setAsking(false);
            await requests.reload();
          }}
        />
      )}
    </div>
  );
}
