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
import { useDescription } from '../i18n/description';
import { useT } from '../i18n/use-t';

export function UserApps() {
  const alerts = useAlerts();
  const t = useT();
  const describe = useDescription();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort({ key: 'name', direction: 'asc' });
  const apps = useLoad(
    () => api.apps.list(),
    () => alerts.danger(t('launcher.loadFailed')),
  );

  const onlyUrl = apps.data ? onlyAppUrl(apps.data) : null;
  useEffect(() => {
    if (onlyUrl) window.location.assign(onlyUrl);
  }, [onlyUrl]);

  const rows = sortRows(
    filterRows(apps.data ?? [], filter, (app) => [app.name, describe(app)]),
    (app) => app.name,
    sort.direction,
  );

  return (
    <ListPage
      title={t('userApps.title')}
      filter={filter}
      onFilter={setFilter}
      head={
        <>
          <SortHeader column="name" sort={sort} onSort={onSort}>
            {t('userApps.name')}
          </SortHeader>
          <th scope="col">{t('userApps.description')}</th>
        </>
      }
    >
      {rows.map((app) => (
        <tr key={app.id}>
          <td>
            <a href={`/${encodeURIComponent(app.name)}`}>{app.name}</a>
          </td>
          <td className="text-secondary">{describe(app)}</td>
        </tr>
      ))}
      <EmptyRow columns={2} shown={rows.length} loading={apps.loading} text={t('launcher.none')} />
    </ListPage>
  );
}
