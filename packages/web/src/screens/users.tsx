/** /users (SPEC section 2): every user, filterable and sortable, deletable with confirmation. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { User } from '@tools-portal/core';
import { api, logFailure } from '../api';
import { DeleteButton } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { FilterBox } from '../components/filter-box';
import { SortHeader } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { nextSort, sortRows, type SortState } from '../logic/sort';
import { paths } from '../paths';

type Column = 'email' | 'client';

export function Users() {
  const run = useAction();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState<Column>>({ key: 'email', direction: 'asc' });
  const users = useLoad(() => api.users.list(), (error) => logFailure('load users', error));

  const rows = sortRows(
    filterRows(users.data ?? [], filter, (user) => [user.email, user.name, user.client.name]),
    (user) => (sort.key === 'email' ? user.email : user.client.name),
    sort.direction,
  );

  const remove = (user: User) =>
    run({
      call: () => api.users.delete(user.id),
      success: `deleted user ${user.email}`,
      danger: `failed to delete user ${user.email}`,
      what: 'delete user',
      onSuccess: users.reload,
    });

  const onSort = (key: Column) => setSort(nextSort(sort, key));

  return (
    <div className="row g-3">
      <div className="col-12 col-md-3">
        <FilterBox value={filter} onChange={setFilter} />
      </div>
      <div className="col-12 col-md-9">
        <h1 className="h3">Users</h1>
        <div className="table-responsive">
          <table className="table table-hover align-middle" aria-label="Users">
            <thead>
              <tr>
                <SortHeader column="email" sort={sort} onSort={onSort}>
                  Email
                </SortHeader>
                <SortHeader column="client" sort={sort} onSort={onSort}>
                  Client
                </SortHeader>
                <th scope="col" className="text-end">
                  Delete
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((user) => (
                <tr key={user.id}>
                  <td className="text-break">
                    <Link to={paths.user(user.id)}>{user.email}</Link>
                  </td>
                  <td>
                    <Link to={paths.client(user.client.id)} className="link-secondary">
                      {user.client.name}
                    </Link>
                  </td>
                  <td className="text-end">
                    <DeleteButton onConfirm={() => remove(user)} />
                  </td>
                </tr>
              ))}
              <EmptyRow columns={3} shown={rows.length} loading={users.loading} text="No users." />
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
