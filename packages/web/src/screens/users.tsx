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
import { useT } from '../i18n/use-t';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';

type Column = 'email' | 'client';

export function Users() {
  const run = useAction();
  const t = useT();
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
      success: t('users.deleted', { email: user.email }),
      danger: t('users.deleteFailed', { email: user.email }),
      what: 'delete user',
      onSuccess: users.reload,
    });

  return (
    <ListPage
      title={t('nav.users')}
      lead={t('users.lead')}
      filter={filter}
      onFilter={setFilter}
      head={
        <>
          <SortHeader column="email" sort={sort} onSort={onSort}>
            {t('login.email')}
          </SortHeader>
          <SortHeader column="client" sort={sort} onSort={onSort}>
            {t('people.client')}
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
      <EmptyRow columns={3} shown={rows.length} loading={users.loading} text={t('users.none')} />
    </ListPage>
  );
}
