/** /client/{id} (docs/product.md §2): the client's name and its users by email. Failures only go to the console. */
import { Link, useParams } from 'react-router-dom';
import { api, logFailure } from '../api';
import { EmptyRow } from '../components/empty-row';
import { ListTable } from '../components/list-page';
import { useLoad } from '../components/use-load';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';

export function ClientDetail() {
  const id = Number(useParams().id);
  const client = useLoad(
    () => api.clients.get(id),
    (error) => logFailure('load client', error),
    id,
  );
  const users = useLoad(
    async () => sortRows(await api.clients.users(id), (user) => user.email, 'asc'),
    (error) => logFailure('load client users', error),
    id,
  );

  return (
    <>
      <h1 className="h3 mb-3">{client.data?.name ?? '\u00a0'}</h1>
      <ListTable label="Users" className="table table-hover" head={<th scope="col">Email</th>}>
        {(users.data ?? []).map((user) => (
          <tr key={user.id}>
            <td>
              <Link to={paths.user(user.id)}>{user.email}</Link>
            </td>
          </tr>
        ))}
        <EmptyRow columns={1} shown={users.data?.length ?? 0} loading={users.loading} text="No users." />
      </ListTable>
    </>
  );
}
