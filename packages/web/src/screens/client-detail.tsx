/**
 * /client/{id} (docs/product.md §2): the client's name, its users by email with the apps each may
 * use, and Invite to this client (New Invite with the client chosen). Load failures other than an
 * unknown id only go to the console.
 */
import { Link, useParams } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import { api, logFailure } from '../api';
import { Email } from '../components/email';
import { EmptyRow } from '../components/empty-row';
import { ListTable } from '../components/list-page';
import { PageHeader } from '../components/page-header';
import { useLoad } from '../components/use-load';
import { useT } from '../i18n/use-t';
import { isMissing } from '../logic/not-found';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';
import { Missing } from './not-found';

export function ClientDetail() {
  const rawId = useParams().id ?? '';
  const id = Number(rawId);
  const t = useT();
  const client = useLoad(
    () => api.clients.get(id),
    (error) => logFailure('load client', error),
    id,
  );
  const users = useLoad(
    async () => {
      const members = sortRows(await api.clients.users(id), (user) => user.email, 'asc');
      // The apps of each user: one call each, which a client's page can afford.
      return Promise.all(members.map(async (user) => ({ user, apps: (await api.users.apps(user.id).catch(() => [])).sort(byName) })));
    },
    (error) => logFailure('load client users', error),
    id,
  );

  if (isMissing(client.error))
    return <Missing title={t('client.missingTitle')} text={t('client.missingText', { id: rawId })} back={{ to: paths.clients, label: t('client.back') }} />;

  const rows = users.data ?? [];

  return (
    <>
      <PageHeader
        title={client.data?.name ?? '\u00a0'}
        lead={users.data ? t('client.lead', { count: rows.length }) : undefined}
        actions={
          <Link to={`${paths.invites}?client=${id}`} className="btn btn-primary">
            {t('client.invite')}
          </Link>
        }
      />
      <ListTable
        label={t('nav.users')}
        className="table table-hover"
        head={
          <>
            <th scope="col">{t('login.email')}</th>
            <th scope="col">{t('nav.apps')}</th>
          </>
        }
      >
        {rows.map(({ user, apps }) => (
          <tr key={user.id}>
            <td>
              <Link to={paths.user(user.id)}>
                <Email value={user.email} />
              </Link>
            </td>
            <td>
              {apps.length === 0 ? (
                <span className="text-secondary">{t('people.none')}</span>
              ) : (
                apps.map((app, index) => (
                  <span key={app.id}>
                    {index > 0 && ', '}
                    <Link to={paths.app(app.id)}>{app.name}</Link>
                  </span>
                ))
              )}
            </td>
          </tr>
        ))}
        <EmptyRow columns={2} shown={rows.length} loading={users.loading} text={t('client.noUsers')} />
      </ListTable>
    </>
  );
}
