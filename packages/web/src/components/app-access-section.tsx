/**
 * An app's page, Access (docs/api.md, `GET /app/{id}/access`): everyone who may use the app, with
 * their roles and where each grant comes from: "direct" or "via team …", and when it ends.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api, logFailure } from '../api';
import { AddTeamModal } from './add-team-modal';
import { EmptyRow } from './empty-row';
import { HeadingBar, ListTable } from './list-page';
import { useLoad } from './use-load';
import { useT } from '../i18n/use-t';
import { formatTimestamp } from '../logic/format';
import { paths } from '../paths';

export function AppAccessSection({ app }: { app: { id: number; name: string; roles: readonly string[] } }) {
  const { id: appId, roles } = app;
  const [adding, setAdding] = useState(false);
  const t = useT();
  const access = useLoad(
    () => api.apps.access(appId),
    (error) => logFailure('load app access', error),
    appId,
  );
  return (
    <>
      <div className="mt-4">
        <HeadingBar level={2} title={t('appAccess.title')} action={{ label: t('appAccess.addTeam'), onClick: () => setAdding(true) }} />
      </div>
      <p className="text-body-secondary">{t('appAccess.lead', { roles: roles.length > 0 ? roles.join(', ') : t('appAccess.noRoles') })}</p>
      <ListTable
        label={t('appAccess.table')}
        head={
          <>
            <th scope="col">{t('app.email')}</th>
            <th scope="col">{t('appAccess.roles')}</th>
            <th scope="col">{t('appAccess.via')}</th>
          </>
        }
      >
        {(access.data ?? []).map((user) => (
          <tr key={user.id}>
            <td>
              <Link to={paths.user(user.id)}>{user.email}</Link>
            </td>
            <td>{user.roles.join(', ') || '—'}</td>
            <td>
              {user.sources.map((source) => (
                <div key={source.source}>
                  {source.team ? (
                    <>
                      {t('appAccess.viaTeam')} <Link to={paths.team(source.team.id)}>{source.team.name}</Link>
                    </>
                  ) : (
                    t('appAccess.direct')
                  )}
                  {source.role ? ` (${source.role})` : ''}
                  {source.expires ? t('appAccess.until', { time: formatTimestamp(source.expires) }) : ''}
                </div>
              ))}
            </td>
          </tr>
        ))}
        <EmptyRow columns={3} shown={access.data?.length ?? 0} loading={access.loading} text={t('appAccess.nobody')} />
      </ListTable>
      {adding && (
        <AddTeamModal
          app={app}
          onClose={() => setAdding(false)}
          onAdded={async () => {
            setAdding(false);
            await access.reload();
          }}
        />
      )}
    </>
  );
}
