/** /users (docs/product.md §2): every user, filterable and sortable, deletable with confirmation. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { User } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { Email } from '../components/email';
import { ListPage } from '../components/list-page';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';

type Column = 'email' | 'client';

export function Users() {
  const run = useAction();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort<Column>({ key: 'email', direction: 'asc' });
  const users = useLoad(
    () => api.users.list(),
    (error) => logFailure('load users', error),
  );

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

  return (
    <ListPage
      title="Users"
      lead="Everyone who can sign in, by email; a user's page shows their sign-ins, second factors and apps."
      filter={filter}
      onFilter={setFilter}
      head={
        <>
          <SortHeader column="email" sort={sort} onSort={onSort}>
            Email
          </SortHeader>
          <SortHeader column="client" sort={sort} onSort={onSort}>
            Client
          </SortHeader>
          <DeleteHeader />
        </>
      }
    >
      {rows.map((user) => (
        <tr key={user.id}>
          <td>
            <Link to={paths.user(user.id)}>
              <Email value={user.email} />
            </Link>
          </td>
          <td>
            <Link to={paths.client(user.client.id)} className="link-secondary">
              {user.client.name}
            </Link>
          </td>
          <DeleteCell onConfirm={() => remove(user)} />
        </tr>
      ))}
      <EmptyRow columns={3} shown={rows.length} loading={users.loading} text="No users." />
    </ListPage>
  );
}
