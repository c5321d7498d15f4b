/**
 * /requests, Request access (docs/api.md, Access requests): the requestable apps the user cannot
 * use yet, each with a reason dialog, and the user's own requests with their status. Reachable
 * from the navigation and from the denied page, also by a user whom the one-app redirect sends on.
 */
import { useState } from 'react';
import type { RequestableApp } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { AppIcon } from '../components/app-icon';
import { EmptyRow } from '../components/empty-row';
import { ListTable } from '../components/list-page';
import { PageHeader } from '../components/page-header';
import { RequestDialog } from '../components/request-dialog';
import { StatusBadge } from '../components/status-badge';
import { useLoad } from '../components/use-load';
import { useDescription } from '../i18n/description';
import { useT } from '../i18n/use-t';
import { formatTimestamp } from '../logic/format';

export function Requests() {
  const t = useT();
  const describe = useDescription();
  const apps = useLoad(
    () => api.users.requestable(),
    (error) => logFailure('load requestable apps', error),
  );
  const requests = useLoad(
    () => api.accessRequests.list(),
    (error) => logFailure('load access requests', error),
  );
  const [asking, setAsking] = useState<RequestableApp | null>(null);
  const open = new Set((requests.data ?? []).filter((request) => request.status === 'open').map((request) => request.app.id));

  return (
    <>
      <PageHeader title={t('nav.requestAccess')} lead={t('requests.lead')} />
      <ListTable
        label={t('requests.requestable')}
        head={
          <>
            <th scope="col">{t('requests.app')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('requests.category')}
            </th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">{t('requests.request')}</span>
            </th>
          </>
        }
      >
        {(apps.data ?? []).map((app) => (
          <tr key={app.id}>
            <td>
              <div className="d-flex align-items-start gap-3">
                <AppIcon app={{ name: app.name, icon: null }} />
                <div>
                  <span className="fw-semibold">{app.name}</span>
                  {describe(app) && <div className="small text-secondary">{describe(app)}</div>}
                </div>
              </div>
            </td>
            <td className="d-none d-md-table-cell">{app.category}</td>
            <td className="text-end">
              {open.has(app.id) ? (
                <span className="text-secondary small">{t('requests.requested')}</span>
              ) : (
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  aria-label={t('requests.requestTo', { name: app.name })}
                  onClick={() => setAsking(app)}
                >
                  {t('nav.requestAccess')}
                </button>
              )}
            </td>
          </tr>
        ))}
        <EmptyRow columns={3} shown={apps.data?.length ?? 0} loading={apps.loading} text={t('requests.nothing')} />
      </ListTable>

      <h2 className="h5 mt-4">{t('requests.yours')}</h2>
      <ListTable
        label={t('requests.yours')}
        head={
          <>
            <th scope="col">{t('requests.app')}</th>
            <th scope="col">{t('requests.status')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('requests.requestedAt')}
            </th>
            <th scope="col">{t('requests.reasonDecision')}</th>
          </>
        }
      >
        {(requests.data ?? []).map((request) => (
          <tr key={request.id}>
            <td className="fw-semibold">{request.app.name}</td>
            <td>
              <StatusBadge status={request.status} />
            </td>
            <td className="d-none d-md-table-cell text-nowrap">{formatTimestamp(request.createdTimestamp)}</td>
            <td className="text-break">
              {request.reason && <div>{request.reason}</div>}
              {request.decision && <div className="small text-danger">{request.decision}</div>}
            </td>
          </tr>
        ))}
        <EmptyRow columns={4} shown={requests.data?.length ?? 0} loading={requests.loading} text={t('requests.none')} />
      </ListTable>

      {asking && (
        <RequestDialog
          app={asking}
          onClose={() => setAsking(null)}
          onRequested={async () => {
            setAsking(null);
            await Promise.all([requests.reload(), apps.reload()]);
          }}
        />
      )}
    </>
  );
}
