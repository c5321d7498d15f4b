/**
 * /owned, Apps you own (docs/api.md, Teams, roles and owners): for an app's owners, each app they
 * own with everyone who may use it (Add User by email, Add Team, Remove access), and its open
 * access requests to approve or deny. Nothing more.
 */
import { byName } from '@tools-portal/core/apps';
import type { AccessRequest } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { AppAccessSection } from '../components/app-access-section';
import { EmptyRow } from '../components/empty-row';
import { ListTable } from '../components/list-page';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { useT } from '../i18n/use-t';
import { formatTimestamp } from '../logic/format';

export function OwnedApps() {
  const run = useAction();
  const t = useT();
  const apps = useLoad(
    async () => {
      const { owns } = await api.users.me();
      return (await Promise.all(owns.map((id) => api.apps.get(id)))).sort(byName);
    },
    (error) => logFailure('load owned apps', error),
  );
  const requests = useLoad(
    async () => (await api.accessRequests.list()).filter((request) => request.status === 'open'),
    (error) => logFailure('load access requests', error),
  );

  const decide = (request: AccessRequest, approve: boolean) =>
    run({
      call: () => (approve ? api.accessRequests.approve(request.id) : api.accessRequests.deny(request.id)),
      success: t(approve ? 'owned.approved' : 'owned.denied', { app: request.app.name, email: request.user.email }),
      danger: t(approve ? 'owned.approveFailed' : 'owned.denyFailed', { app: request.app.name, email: request.user.email }),
      what: approve ? 'approve access request' : 'deny access request',
      onSuccess: requests.reload,
    });

  return (
    <>
      <h1 className="h3 mb-3">{t('nav.ownedApps')}</h1>
      {!apps.loading && (apps.data ?? []).length === 0 && <p className="text-body-secondary">{t('owned.none')}</p>}
      {(apps.data ?? []).map((app) => {
        const open = (requests.data ?? []).filter((request) => request.app.id === app.id);
        return (
          <section key={app.id} className="mb-5" aria-labelledby={`owned-${app.id}`}>
            <h2 className="h4" id={`owned-${app.id}`}>
              {app.name}
            </h2>
            <ListTable
              label={t('owned.openRequests', { name: app.name })}
              head={
                <>
                  <th scope="col">{t('owned.user')}</th>
                  <th scope="col">{t('owned.reason')}</th>
                  <th scope="col" className="d-none d-md-table-cell">
                    {t('requests.requestedAt')}
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">{t('owned.decision')}</span>
                  </th>
                </>
              }
            >
              {open.map((request) => (
                <tr key={request.id}>
                  <td>{request.user.email}</td>
                  <td>{request.reason}</td>
                  <td className="d-none d-md-table-cell text-nowrap">{formatTimestamp(request.createdTimestamp)}</td>
                  <td>
                    <div className="d-flex flex-wrap justify-content-end gap-2">
                      <button type="button" className="btn btn-sm btn-success" onClick={() => void decide(request, true)}>
                        {t('owned.approve')}
                      </button>
                      <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void decide(request, false)}>
                        {t('owned.deny')}
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
              <EmptyRow columns={4} shown={open.length} loading={requests.loading} text={t('owned.noOpen')} />
            </ListTable>
            <AppAccessSection app={app} manageUsers />
          </section>
        );
      })}
    </>
  );
}
