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
import { formatTimestamp } from '../logic/format';
import { paths } from '../paths';

export function AppAccessSection({ app }: { app: { id: number; name: string; roles: readonly string[] } }) {
  const { id: appId, roles } = app;
  const [adding, setAdding] = useState(false);
  const access = useLoad(
    () => api.apps.access(appId),
    (error) => logFailure('load app access', error),
    appId,
  );
  return (
    <>
      <div className="mt-4">
        <HeadingBar level={2} title="Access" action={{ label: 'Add Team', onClick: () => setAdding(true) }} />
      </div>
      <p className="text-body-secondary">Everyone who may use the app, directly or through a team. Roles: {roles.length > 0 ? roles.join(', ') : 'none'}.</p>
      <ListTable
        label="App access"
        head={
          <>
            <th scope="col">Email</th>
            <th scope="col">Roles</th>
            <th scope="col">Via</th>
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
                      via team <Link to={paths.team(source.team.id)}>{source.team.name}</Link>
                    </>
                  ) : (
                    'direct'
                  )}
                  {source.role ? ` (${source.role})` : ''}
                  {source.expires ? `, until ${formatTimestamp(source.expires)}` : ''}
                </div>
              ))}
            </td>
          </tr>
        ))}
        <EmptyRow columns={3} shown={access.data?.length ?? 0} loading={access.loading} text="Nobody may use this app." />
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
