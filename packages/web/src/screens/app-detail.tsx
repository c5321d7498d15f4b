/** /app/{id} (SPEC section 2): the app, its users (removable), and the placeholder Add User. */
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { User } from '@tools-portal/core';
import { api, logFailure } from '../api';
import { useAlerts } from '../components/alerts';
import { DeleteButton } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { SortHeader } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { nextSort, sortRows, type SortState } from '../logic/sort';
import { paths } from '../paths';

export function AppDetail() {
  const id = Number(useParams().id);
  const alerts = useAlerts();
  const run = useAction();
  const [sort, setSort] = useState<SortState<'email'>>({ key: 'email', direction: 'asc' });
  const app = useLoad(() => api.apps.get(id), (error) => logFailure('load app', error), id);
  const users = useLoad(() => api.apps.users(id), (error) => logFailure('load app users', error), id);

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
      <div className="d-flex align-items-center mb-2">
        <h2 className="h5 me-auto mb-0">Users</h2>
        <button type="button" className="btn btn-outline-primary btn-sm" onClick={() => alerts.warning('Add User is not implemented yet.')}>
          Add User
        </button>
      </div>
      <div className="table-responsive">
        <table className="table table-hover align-middle" aria-label="App users">
          <thead>
            <tr>
              <SortHeader column="email" sort={sort} onSort={(key) => setSort(nextSort(sort, key))}>
                Email
              </SortHeader>
              <th scope="col" className="text-end">
                Delete
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((user) => (
              <tr key={user.id}>
                <td>
                  <Link to={paths.user(user.id)}>{user.email}</Link>
                </td>
                <td className="text-end">
                  <DeleteButton onConfirm={() => remove(user)} />
                </td>
              </tr>
            ))}
            <EmptyRow columns={2} shown={rows.length} loading={users.loading} text="No users." />
          </tbody>
        </table>
      </div>
    </>
  );
}
