/**
 * #/manage/apps, the admin console's Apps table: the SPEC's per-app admin elements (docs/product.md
 * §2: the app's page, Edit, a two-step Delete App) and New App, moved here from the launcher. The
 * name leads to the app's page; Open goes to the app itself.
 */
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import type { App } from '@tools-portal/core/entities';
import { api } from '../api';
import { useAlerts } from '../components/alerts';
import { AppFormModal, type AppFormMode } from '../components/app-form-modal';
import { AppIcon } from '../components/app-icon';
import { DeleteButton } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ListPage } from '../components/list-page';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { useDescription } from '../i18n/description';
import { useT, type Translate } from '../i18n/use-t';
import { filterRows } from '../logic/filter';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';

/** What deleting an app takes along: its users' access. */
export async function appDeletionConsequence(id: number, t: Translate): Promise<string | null> {
  const users = (await api.apps.users(id)).length;
  return users === 0 ? null : t('apps.usersLoseAccess', { count: users });
}

export function ManageApps() {
  const alerts = useAlerts();
  const run = useAction();
  const t = useT();
  const describe = useDescription();
  const [search, setSearch] = useSearchParams();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort({ key: 'name', direction: 'asc' });
  const [form, setForm] = useState<AppFormMode | null>(null);
  const apps = useLoad(
    async () => (await api.apps.all()).sort(byName),
    () => alerts.danger(t('apps.loadFailed')),
  );

  // The launcher's Get started links here with ?new=1: the New App form opens at once.
  useEffect(() => {
    if (search.get('new') !== '1') return;
    setForm({ kind: 'new' });
    setSearch({}, { replace: true });
  }, [search, setSearch]);

  const rows = sortRows(
    filterRows(apps.data ?? [], filter, (app) => [app.name, app.url, app.description, app.category]),
    (app) => app.name,
    sort.direction,
  );

  const remove = (app: App) =>
    run({
      call: () => api.apps.delete(app.id),
      success: t('apps.deleted', { name: app.name }),
      danger: t('apps.deleteFailed', { name: app.name }),
      what: 'delete app',
      onSuccess: apps.reload,
    });

  return (
    <>
      <ListPage
        title={t('nav.apps')}
        lead={t('apps.lead')}
        filter={filter}
        onFilter={setFilter}
        action={{ label: t('apps.new'), onClick: () => setForm({ kind: 'new' }) }}
        head={
          <>
            <SortHeader column="name" sort={sort} onSort={onSort}>
              {t('apps.name')}
            </SortHeader>
            <th scope="col" className="d-none d-md-table-cell">
              {t('apps.category')}
            </th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">{t('apps.actions')}</span>
            </th>
          </>
        }
      >
        {rows.map((app) => (
          <tr key={app.id}>
            <td>
              <div className="d-flex align-items-start gap-3">
                <AppIcon app={app} />
                <div className="min-w-0">
                  <Link to={paths.app(app.id)} className="fw-semibold">
                    {app.name}
                  </Link>
                  {describe(app) && <div className="small text-secondary">{describe(app)}</div>}
                  <div className="small text-break">
                    <a href={app.url}>{app.url}</a>
                    {app.doclink && (
                      <>
                        {' · '}
                        <a href={app.doclink}>{t('apps.docs')}</a>
                      </>
                    )}
                  </div>
                </div>
              </div>
            </td>
            <td className="d-none d-md-table-cell">{app.category}</td>
            <td>
              <div className="d-flex flex-wrap justify-content-end align-items-center gap-2">
                <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setForm({ kind: 'edit', app })}>
                  {t('apps.edit')}
                </button>
                <DeleteButton label={t('apps.delete')} onConfirm={() => remove(app)} consequence={() => appDeletionConsequence(app.id, t)} />
              </div>
            </td>
          </tr>
        ))}
        <EmptyRow columns={3} shown={rows.length} loading={apps.loading} text={filter ? t('apps.noMatch') : t('apps.none')} />
      </ListPage>
      {form && (
        <AppFormModal
          mode={form}
          onClose={() => setForm(null)}
          onSaved={async () => {
            setForm(null);
            await apps.reload();
          }}
        />
      )}
    </>
  );
}
