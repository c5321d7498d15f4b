/**
 * An app's page, Access (docs/api.md, `GET /app/{id}/access`): everyone who may use the app, with
 * their roles and where each grant comes from: "direct" or "via team …", and when it ends; Add
 * Team, and for an app's owners (Apps you own, `manageUsers`) Add User by email and Remove access
 * for a direct grant (the app's page has its own Add User and Remove access for admins).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api, logFailure } from '../api';
import { AddTeamModal } from './add-team-modal';
import { DeleteButton } from './delete-button';
import { GrantUserModal } from './grant-user-modal';
import { EmptyRow } from './empty-row';
import { HeadingBar, ListTable } from './list-page';
import { useAction } from './use-action';
import { useLoad } from './use-load';
import { useT } from '../i18n/use-t';
import { useCurrentUser } from '../session';
import { formatTimestamp } from '../logic/format';
import { paths } from '../paths';

interface AppAccessProps {
  app: { id: number; name: string; roles: readonly string[] };
  /** Add User by email and Remove access for direct grants (an owner's view). */
  manageUsers?: boolean;
}

export function AppAccessSection({ app, manageUsers = false }: AppAccessProps) {
  const { id: appId, roles } = app;
  const [adding, setAdding] = useState<'team' | 'user' | null>(null);
  const t = useT();
  const run = useAction();
  // A user's and a team's pages are the admin console's: an owner sees names, not links that
  // would send them back to their apps.
  const linked = useCurrentUser().admin;
  const access = useLoad(
    () => api.apps.access(appId),
    (error) => logFailure('load app access', error),
    appId,
  );
  const added = async () => {
    setAdding(null);
    await access.reload();
  };
  return (
    <>
      <div className="mt-4">
        <HeadingBar
          level={2}
          title={t('appAccess.title')}
          action={[
            ...(manageUsers ? [{ label: t('appAccess.addUser'), onClick: () => setAdding('user') }] : []),
            { label: t('appAccess.addTeam'), onClick: () => setAdding('team') },
          ]}
        />
      </div>
      <p className="text-body-secondary">{t('appAccess.lead', { roles: roles.length > 0 ? roles.join(', ') : t('appAccess.noRoles') })}</p>
      <ListTable
        label={t('appAccess.table')}
        head={
          <>
            <th scope="col">{t('app.email')}</th>
            <th scope="col">{t('appAccess.roles')}</th>
            <th scope="col">{t('appAccess.via')}</th>
            {manageUsers && (
              <th scope="col">
                <span className="visually-hidden">{t('app.removeAccess')}</span>
              </th>
            )}
          </>
        }
      >
        {(access.data ?? []).map((user) => (
          <tr key={user.id}>
            <td>{linked ? <Link to={paths.user(user.id)}>{user.email}</Link> : user.email}</td>
            <td>{user.roles.join(', ') || '—'}</td>
            <td>
              {user.sources.map((source) => (
                <div key={source.source}>
                  {source.team ? (
                    <>
                      {t('appAccess.viaTeam')} {linked ? <Link to={paths.team(source.team.id)}>{source.team.name}</Link> : source.team.name}
                    </>
                  ) : (
                    t('appAccess.direct')
                  )}
                  {source.role ? ` (${source.role})` : ''}
                  {source.expires ? t('appAccess.until', { time: formatTimestamp(source.expires) }) : ''}
                </div>
              ))}
            </td>
            {manageUsers && (
              <td className="text-end">
                {user.sources.some((source) => !source.team) && (
                  <DeleteButton
                    label={t('app.removeAccess')}
                    onConfirm={() =>
                      run({
                        call: () => api.users.revoke(user.id, appId),
                        success: t('appAccess.removed', { app: app.name, email: user.email }),
                        danger: t('appAccess.removeFailed', { app: app.name, email: user.email }),
                        what: 'remove access',
                        onSuccess: access.reload,
                      })
                    }
                  />
                )}
              </td>
            )}
          </tr>
        ))}
        <EmptyRow columns={manageUsers ? 4 : 3} shown={access.data?.length ?? 0} loading={access.loading} text={t('appAccess.nobody')} />
      </ListTable>
      {adding === 'team' && <AddTeamModal app={app} onClose={() => setAdding(null)} onAdded={added} />}
      {adding === 'user' && <GrantUserModal app={app} onClose={() => setAdding(null)} onAdded={added} />}
    </>
  );
}
