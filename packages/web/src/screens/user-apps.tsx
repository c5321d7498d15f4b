/** /userapps (docs/product.md §2): Your Apps, filterable, sortable by name; one app means going there. */
import { useEffect, useState } from 'react';
import { api } from '../api';
import { useAlerts } from '../components/alerts';
import { EmptyRow } from '../components/empty-row';
import { ListPage } from '../components/list-page';
import { SortHeader, useSort } from '../components/sort-header';
import { useLoad } from '../components/use-load';
import { onlyAppUrl } from '../logic/app-list';
import { filterRows } from '../logic/filter';
import { sortRows } from '../logic/sort';

export function UserApps() {
  const alerts = useAlerts();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort({ key: 'name', direction: 'asc' });
  const apps = useLoad(
    () => api.apps.list(),
    () => alerts.danger('failed to fetch all apps'),
  );

  const onlyUrl = apps.data ? onlyAppUrl(apps.data) : null;
  useEffect(() => {
    if (onlyUrl) window.location.assign(onlyUrl);
  }, [onlyUrl]);

  const rows = sortRows(
    filterRows(apps.data ?? [], filter, (app) => [app.name, app.description]),
    (app) => app.name,
    sort.direction,
  );

  return (
    <ListPage
      title="Your Apps"
      filter={filter}
      onFilter={setFilter}
      head={
        <>
          <SortHeader column="name" sort={sort} onSort={onSort}>
            App Name
          </SortHeader>
          <th scope="col">Description</th>
        </>
      }
    >
      {rows.map((app) => (
        <tr key={app.id}>
          <td>
            <a href={`/${encodeURIComponent(app.name)}`}>{app.name}</a>
          </td>
          <td className="text-secondary">{app.description}</td>
        </tr>
      ))}
      <EmptyRow columns={2} shown={rows.length} loading={apps.loading} text="No apps." />
    </ListPage>
  );
}
