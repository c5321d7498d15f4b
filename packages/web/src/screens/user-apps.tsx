/** /userapps (SPEC section 2): Your Apps, filterable, sortable by name; one app means going there. */
import { useEffect, useState } from 'react';
import { api } from '../api';
import { useAlerts } from '../components/alerts';
import { EmptyRow } from '../components/empty-row';
import { FilterBox } from '../components/filter-box';
import { SortHeader } from '../components/sort-header';
import { useLoad } from '../components/use-load';
import { onlyAppUrl } from '../logic/app-list';
import { filterRows } from '../logic/filter';
import { nextSort, sortRows, type SortState } from '../logic/sort';

export function UserApps() {
  const alerts = useAlerts();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState<'name'>>({ key: 'name', direction: 'asc' });
  const apps = useLoad(() => api.apps.list(), () => alerts.danger('failed to fetch all apps'));

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
    <div className="row g-3">
      <div className="col-12 col-md-3">
        <FilterBox value={filter} onChange={setFilter} />
      </div>
      <div className="col-12 col-md-9">
        <h1 className="h3">Your Apps</h1>
        <div className="table-responsive">
          <table className="table table-hover align-middle" aria-label="Your Apps">
            <thead>
              <tr>
                <SortHeader column="name" sort={sort} onSort={(key) => setSort(nextSort(sort, key))}>
                  App Name
                </SortHeader>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((app) => (
                <tr key={app.id}>
                  <td>
                    <a href={`/${encodeURIComponent(app.name)}`}>{app.name}</a>
                  </td>
                  <td className="text-secondary">{app.description}</td>
                </tr>
              ))}
              <EmptyRow columns={2} shown={rows.length} loading={apps.loading} text="No apps." />
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}
