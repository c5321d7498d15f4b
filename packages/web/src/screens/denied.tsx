/**
 * /denied/{app} (docs/forward-auth.md): where a proxy sends a browser that forward auth refused.
 * It says only that the user cannot use that app; it offers Request access when the app is one
 * the user may ask for, and links to the Request access screen in any case. Whether the app
 * exists at all is not revealed.
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { api, logFailure } from '../api';
import { RequestDialog } from '../components/request-dialog';
import { useLoad } from '../components/use-load';
import { paths } from '../paths';

export function Denied() {
  const name = useParams().app ?? '';
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
            <h1 className="h4">No access</h1>
            <p className="text-break">
              You cannot use <strong>{name || 'this app'}</strong> with your account.
            </p>
            {pending && <p className="text-secondary">You have asked for it; an admin will decide.</p>}
            <div className="d-flex flex-wrap gap-2">
              {app && !pending && (
                <button type="button" className="btn btn-primary" onClick={() => setAsking(true)}>
                  Request access
                </button>
              )}
              <Link to={paths.requests} className="btn btn-outline-primary">
                Your requests
              </Link>
              <Link to={paths.appList} className="btn btn-outline-secondary">
                Your apps
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
