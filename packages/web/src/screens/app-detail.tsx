/** /app/{id} (docs/product.md §2): the app, its users (removable), and the placeholder Add User. */
import { Link, useParams } from 'react-router-dom';
import type { User } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { useAlerts } from '../components/alerts';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { HeadingBar, ListTable } from '../components/list-page';
import { AppAccessSection } from '../components/app-access-section';
import { OidcSection } from '../components/oidc-section';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { sortRows } from '../logic/sort';
import { formatTimestamp } from '../logic/format';
import { paths } from '../paths';

export function AppDetail() {
  const id = Number(useParams().id);
  const alerts = useAlerts();
  const run = useAction();
  const [sort, onSort] = useSort({ key: 'email', direction: 'asc' });
  const app = useLoad(
    () => api.apps.get(id),
    (error) => logFailure('load app', error),
    id,
  );
  const users = useLoad(
    () => api.apps.users(id),
    (error) => logFailure('load app users', error),
    id,
  );

  const rows = sortRows(users.data ?? [], (user) => user.email, sort.direction);

  const remove = (user: User) => {
    const name = user.name || user.email;
    return run({
      call: () => api.apps.removeUser(id, user.id),
      success: `deleted user ${name} from app ${id}`,
      danger: `failed to delete user ${name} from app ${id}`,
      what: 'remove user from app',
      onSuccess: users.reload,
    });
  };

  return (
    <>
      <h1 className="h3">{app.data?.name ?? '\u00a0'}</h1>
      {app.data && (
        <dl className="row mb-4">
          <dt className="col-sm-3 col-lg-2">URL</dt>
          <dd className="col-sm-9 col-lg-10 text-break">
            <a href={app.data.url}>{app.data.url}</a>
          </dd>
          <dt className="col-sm-3 col-lg-2">Description</dt>
          <dd className="col-sm-9 col-lg-10">{app.data.description || <span className="text-secondary">none</span>}</dd>
          <dt className="col-sm-3 col-lg-2">Category</dt>
          <dd className="col-sm-9 col-lg-10">{app.data.category || <span className="text-secondary">none</span>}</dd>
          <dt className="col-sm-3 col-lg-2">Requestable</dt>
          <dd className="col-sm-9 col-lg-10">{app.data.requestable ? 'yes: users may ask for access' : 'no'}</dd>
          {app.data.doclink && (
            <>
              <dt className="col-sm-3 col-lg-2">Documentation</dt>
              <dd className="col-sm-9 col-lg-10 text-break">
                <a href={app.data.doclink}>{app.data.doclink}</a>
              </dd>
            </>
          )}
        </dl>
      )}
      <HeadingBar level={2} title="Users" action={{ label: 'Add User', outline: true, onClick: () => alerts.warning('Add User is not implemented yet.') }} />
      <ListTable
        label="App users"
        head={
          <>
            <SortHeader column="email" sort={sort} onSort={onSort}>
              Email
            </SortHeader>
            <th scope="col">Expires</th>
            <DeleteHeader />
          </>
        }
      >
        {rows.map((user) => (
          <tr key={user.id}>
            <td>
              <Link to={paths.user(user.id)}>{user.email}</Link>
            </td>
            <td className="text-nowrap">{user.expires ? formatTimestamp(user.expires) : 'never'}</td>
            <DeleteCell onConfirm={() => remove(user)} />
          </tr>
        ))}
        <EmptyRow columns={3} shown={rows.length} loading={users.loading} text="No users." />
      </ListTable>
      {app.data && <AppAccessSection app={app.data} />}
      {app.data && <OidcSection appId={app.data.id} appName={app.data.name} />}
    </>
  );
}
