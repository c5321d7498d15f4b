/**
 * /team/{id} (docs/api.md, Teams, roles and owners): a team's members with their expiry (Add
 * Member with an expiry, remove) and its apps with role and expiry (Add App with a role, revoke).
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { api, logFailure } from '../api';
import { TeamGrantModal } from '../components/add-team-modal';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ExpiryChoice, expiryOf, type ExpiryChoiceValue } from '../components/expiry-choice';
import { HeadingBar, ListTable } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { useT } from '../i18n/use-t';
import { formatTimestamp } from '../logic/format';
import { paths } from '../paths';

export function TeamDetail() {
  const id = Number(useParams().id);
  const run = useAction();
  const t = useT();
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

      <HeadingBar title={t('teams.members')} level={2} action={{ label: t('teams.addMember'), onClick: () => setAdding('member') }} />
      <ListTable
        label={t('teams.members')}
        head={
          <>
            <th scope="col">{t('teams.member.email')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('teams.member.client')}
            </th>
            <th scope="col">{t('teams.expires')}</th>
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
            <td>{member.expires ? formatTimestamp(member.expires) : t('teams.never')}</td>
            <DeleteCell
              onConfirm={() =>
                run({
                  call: () => api.teams.removeUser(id, member.id),
                  success: t('teams.member.removed', { email: member.email, team: name }),
                  danger: t('teams.member.removeFailed', { email: member.email, team: name }),
                  what: 'remove member',
                  onSuccess: members.reload,
                })
              }
            />
          </tr>
        ))}
        <EmptyRow columns={4} shown={members.data?.length ?? 0} loading={members.loading} text={t('teams.noMembers')} />
      </ListTable>

      <HeadingBar title={t('teams.apps')} level={2} action={{ label: t('teams.addApp'), onClick: () => setAdding('app') }} />
      <ListTable
        label={t('teams.apps')}
        head={
          <>
            <th scope="col">{t('teams.app')}</th>
            <th scope="col">{t('teams.role')}</th>
            <th scope="col">{t('teams.expires')}</th>
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
            <td>{app.expires ? formatTimestamp(app.expires) : t('teams.never')}</td>
            <DeleteCell
              onConfirm={() =>
                run({
                  call: () => api.teams.revoke(id, app.id),
                  success: t('teams.app.revoked', { app: app.name, team: name }),
                  danger: t('teams.app.revokeFailed', { app: app.name, team: name }),
                  what: 'revoke app',
                  onSuccess: apps.reload,
                })
              }
            />
          </tr>
        ))}
        <EmptyRow columns={4} shown={apps.data?.length ?? 0} loading={apps.loading} text={t('teams.noApps')} />
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
        <TeamGrantModal
          team={{ id, name }}
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
  const t = useT();
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
      success: t('teams.member.added', { email: user.email, team: teamName }),
      danger: t('teams.member.addFailed', { email: user.email, team: teamName }),
      what: 'add member',
      onSuccess: onAdded,
    });
    setBusy(false);
  };

  return (
    <Modal
      title={t('teams.addMember')}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy || !user} submitLabel={t('teams.add')} />}
    >
      <div className="mb-3">
        <label className="form-label" htmlFor="member-user">
          {t('teams.member.user')}
        </label>
        <select id="member-user" className="form-select" value={userId} onChange={(event) => setUserId(event.target.value)}>
          <option value="">{t('teams.member.choose')}</option>
          {(users.data ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.email}
            </option>
          ))}
        </select>
      </div>
      <ExpiryChoice value={expiry} onChange={setExpiry} label={t('teams.member.expiry')} />
    </Modal>
  );
}
