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
import { isMissing } from '../logic/not-found';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';
import { Missing } from './not-found';

export function ClientDetail() {
  const rawId = useParams().id ?? '';
  const id = Number(rawId);
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
    return (
      <Missing
        title="No such client"
        text={`There is no client with the id ${rawId}: it may have been deleted.`}
        back={{ to: paths.clients, label: 'Go to Clients' }}
      />
    );

  const rows = users.data ?? [];
  const userCount = rows.length === 1 ? '1 user' : `${rows.length} users`;

  return (
    <>
      <PageHeader
        title={client.data?.name ?? '\u00a0'}
        lead={users.data ? `A client: ${userCount}. Deleting it deletes them, never the apps' data.` : undefined}
        actions={
          <Link to={`${paths.invites}?client=${id}`} className="btn btn-primary">
            Invite to this client
          </Link>
        }
      />
      <ListTable
        label="Users"
        className="table table-hover"
        head={
          <>
            <th scope="col">Email</th>
            <th scope="col">Apps</th>
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
                <span className="text-secondary">none</span>
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
        <EmptyRow columns={2} shown={rows.length} loading={users.loading} text="No users yet: Invite to this client adds the first." />
      </ListTable>
    </>
  );
}
