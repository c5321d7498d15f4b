/** /teams (docs/api.md, Teams, roles and owners): every team, New Team, delete. Admins only. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import type { Team } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ListPage } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { useT } from '../i18n/use-t';
import { filterRows } from '../logic/filter';
import { paths } from '../paths';

export function Teams() {
  const run = useAction();
  const t = useT();
  const [filter, setFilter] = useState('');
  const [creating, setCreating] = useState(false);
  const teams = useLoad(
    async () => (await api.teams.list()).sort(byName),
    (error) => logFailure('load teams', error),
  );
  const rows = filterRows(teams.data ?? [], filter, (team) => [team.name, team.description]);

  const remove = (team: Team) =>
    run({
      call: () => api.teams.delete(team.id),
      success: t('teams.deleted', { name: team.name }),
      danger: t('teams.deleteFailed', { name: team.name }),
      what: 'delete team',
      onSuccess: teams.reload,
    });

  return (
    <>
      <ListPage
        title={t('teams.title')}
        filter={filter}
        onFilter={setFilter}
        action={{ label: t('teams.new'), onClick: () => setCreating(true) }}
        head={
          <>
            <th scope="col">{t('teams.column.name')}</th>
            <th scope="col">{t('teams.column.description')}</th>
            <DeleteHeader />
          </>
        }
      >
        {rows.map((team) => (
          <tr key={team.id}>
            <td>
              <Link to={paths.team(team.id)}>{team.name}</Link>
            </td>
            <td>{team.description}</td>
            <DeleteCell onConfirm={() => remove(team)} />
          </tr>
        ))}
        <EmptyRow columns={3} shown={rows.length} loading={teams.loading} text={t('teams.none')} />
      </ListPage>
      {creating && (
        <NewTeamModal
          onClose={() => setCreating(false)}
          onCreated={async () => {
            setCreating(false);
            await teams.reload();
          }}
        />
      )}
    </>
  );
}

function NewTeamModal({ onClose, onCreated }: { onClose: () => void; onCreated: () => Promise<void> }) {
  const run = useAction();
  const t = useT();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    await run({
      call: () => api.teams.create({ name, description }),
      success: t('teams.created', { name }),
      danger: t('teams.createFailed', { name }),
      what: 'create team',
      onSuccess: onCreated,
    });
    setBusy(false);
  };

  return (
    <Modal title={t('teams.new')} onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy} />}>
      <div className="mb-3">
        <label className="form-label" htmlFor="team-name">
          {t('teams.form.name')}
        </label>
        <input id="team-name" type="text" className="form-control" value={name} autoFocus onChange={(event) => setName(event.target.value)} />
      </div>
      <label className="form-label" htmlFor="team-description">
        {t('teams.form.description')}
      </label>
      <input id="team-description" type="text" className="form-control" value={description} onChange={(event) => setDescription(event.target.value)} />
    </Modal>
  );
}
