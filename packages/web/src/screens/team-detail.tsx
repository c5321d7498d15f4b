/**
 * /team/{id} (docs/api.md, Teams, roles and owners): a team's members with their expiry (Add
 * Member with an expiry, remove) and its apps with role and expiry (Add App with a role, revoke).
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import { api, logFailure } from '../api';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ExpiryChoice, expiryOf, type ExpiryChoiceValue } from '../components/expiry-choice';
import { HeadingBar, ListTable } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { formatTimestamp } from '../logic/format';
import { paths } from '../paths';

export function TeamDetail() {
  const id = Number(useParams().id);
  const run = useAction();
  const [adding, setAdding] = useState<'member' | 'app' | null>(null);
  const team = useLoad(
    () => api.teams.get(id),
    (error) => logFailure('load team', error),
    id,
  );
  const members = useLoad(
    () => api.teams.users(id),
    (error) => logFailure('load team members', error),
    id,
  );
  const apps = useLoad(
    () => api.teams.apps(id),
    (error) => logFailure('load team apps', error),
    id,
  );
  const name = team.data?.name ?? '';

  return (
    <>
      <h1 className="h3 mb-1">{team.data?.name ?? '\u00a0'}</h1>
      <p className="text-body-secondary">{team.data?.description}</p>

      <HeadingBar title="Members" level={2} action={{ label: 'Add Member', onClick: () => setAdding('member') }} />
      <ListTable
        label="Members"
        head={
          <>
            <th scope="col">Email</th>
            <th scope="col" className="d-none d-md-table-cell">
              Client
            </th>
            <th scope="col">Expires</th>
            <DeleteHeader />
          </>
        }
      >
        {(members.data ?? []).map((member) => (
          <tr key={member.id}>
            <td>
              <Link to={paths.user(member.id)}>{member.email}</Link>
            </td>
            <td className="d-none d-md-table-cell">{member.client.name}</td>
            <td>{member.expires ? formatTimestamp(member.expires) : 'never'}</td>
            <DeleteCell
              onConfirm={() =>
                run({
                  call: () => api.teams.removeUser(id, member.id),
                  success: `removed ${member.email} from team ${name}`,
                  danger: `failed to remove ${member.email} from team ${name}`,
                  what: 'remove member',
                  onSuccess: members.reload,
                })
              }
            />
          </tr>
        ))}
        <EmptyRow columns={4} shown={members.data?.length ?? 0} loading={members.loading} text="No members." />
      </ListTable>

      <HeadingBar title="Apps" level={2} action={{ label: 'Add App', onClick: () => setAdding('app') }} />
      <ListTable
        label="Apps"
        head={
          <>
            <th scope="col">App</th>
            <th scope="col">Role</th>
            <th scope="col">Expires</th>
            <DeleteHeader />
          </>
        }
      >
        {(apps.data ?? []).map((app) => (
          <tr key={app.id}>
            <td>
              <Link to={paths.app(app.id)}>{app.name}</Link>
            </td>
            <td>{app.role ?? '—'}</td>
            <td>{app.expires ? formatTimestamp(app.expires) : 'never'}</td>
            <DeleteCell
              onConfirm={() =>
                run({
                  call: () => api.teams.revoke(id, app.id),
                  success: `revoked app ${app.name} from team ${name}`,
                  danger: `failed to revoke app ${app.name} from team ${name}`,
                  what: 'revoke app',
                  onSuccess: apps.reload,
                })
              }
            />
          </tr>
        ))}
        <EmptyRow columns={4} shown={apps.data?.length ?? 0} loading={apps.loading} text="No apps." />
      </ListTable>

      {adding === 'member' && (
        <AddMemberModal
          teamId={id}
          teamName={name}
          onClose={() => setAdding(null)}
          onAdded={async () => {
            setAdding(null);
            await members.reload();
          }}
        />
      )}
      {adding === 'app' && (
        <AddAppModal
          teamId={id}
          teamName={name}
          onClose={() => setAdding(null)}
          onAdded={async () => {
            setAdding(null);
            await apps.reload();
          }}
        />
      )}
    </>
  );
}

interface AddProps {
  teamId: number;
  teamName: string;
  onClose: () => void;
  onAdded: () => Promise<void>;
}

function AddMemberModal({ teamId, teamName, onClose, onAdded }: AddProps) {
  const run = useAction();
  const users = useLoad(
    async () => (await api.users.list()).sort((a, b) => a.email.localeCompare(b.email)),
    (error) => logFailure('load users', error),
  );
  const [userId, setUserId] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const user = users.data?.find((candidate) => String(candidate.id) === userId);

  const save = async () => {
    const expires = expiryOf(expiry);
    if (!user || expires === null) return;
    setBusy(true);
    await run({
      call: () => api.teams.addUser(teamId, { userid: user.id, ...(expires ? { expires } : {}) }),
      success: `added ${user.email} to team ${teamName}`,
      danger: `failed to add ${user.email} to team ${teamName}`,
      what: 'add member',
      onSuccess: onAdded,
    });
    setBusy(false);
  };

  return (
    <Modal
      title="Add Member"
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy || !user} submitLabel="Add" />}
    >
      <div className="mb-3">
        <label className="form-label" htmlFor="member-user">
          User
        </label>
        <select id="member-user" className="form-select" value={userId} onChange={(event) => setUserId(event.target.value)}>
          <option value="">Choose a user</option>
          {(users.data ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.email}
            </option>
          ))}
        </select>
      </div>
      <ExpiryChoice value={expiry} onChange={setExpiry} label="Membership expiry" />
    </Modal>
  );
}

function AddAppModal({ teamId, teamName, onClose, onAdded }: AddProps) {
  const run = useAction();
  const apps = useLoad(
    async () => (await api.apps.all()).sort(byName),
    (error) => logFailure('load apps', error),
  );
  const [appId, setAppId] = useState('');
  const [role, setRole] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const app = apps.data?.find((candidate) => String(candidate.id) === appId);

  const save = async () => {
    const expires = expiryOf(expiry);
    if (!app || expires === null) return;
    setBusy(true);
    await run({
      call: () => api.teams.grant(teamId, { appid: app.id, ...(role ? { role } : {}), ...(expires ? { expires } : {}) }),
      success: `granted app ${app.name} to team ${teamName}`,
      danger: `failed to grant app ${app.name} to team ${teamName}`,
      what: 'grant app',
      onSuccess: onAdded,
    });
    setBusy(false);
  };

  return (
    <Modal title="Add App" onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy || !app} submitLabel="Add" />}>
      <div className="mb-3">
        <label className="form-label" htmlFor="team-app">
          App
        </label>
        <select
          id="team-app"
          className="form-select"
          value={appId}
          onChange={(event) => {
            setAppId(event.target.value);
            setRole('');
          }}
        >
          <option value="">Choose an app</option>
          {(apps.data ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </select>
      </div>
      {app && app.roles.length > 0 && (
        <div className="mb-3">
          <label className="form-label" htmlFor="team-app-role">
            Role
          </label>
          <select id="team-app-role" className="form-select" value={role} onChange={(event) => setRole(event.target.value)}>
            {app.roles.map((candidate, index) => (
              <option key={candidate} value={index === 0 ? '' : candidate}>
                {index === 0 ? `${candidate} (default)` : candidate}
              </option>
            ))}
          </select>
        </div>
      )}
      <ExpiryChoice value={expiry} onChange={setExpiry} label="Grant expiry" />
    </Modal>
  );
}
