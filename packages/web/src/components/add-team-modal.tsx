/**
 * The one dialog that grants an app to a team, with one of the app's roles and an expiry: Add Team
 * on an app's page and Apps you own (the app is given, the team chosen among those the app may be
 * granted to: `GET /app/{id}/grantable/team`, for admins and the app's owners alike), and Add App
 * on a team's page (the team is given, the app chosen).
 */
import { useState } from 'react';
import { byName } from '@tools-portal/core/apps';
import { api, logFailure } from '../api';
import { useT } from '../i18n/use-t';
import { ExpiryChoice, expiryOf, type ExpiryChoiceValue } from './expiry-choice';
import { FormFooter, Modal } from './modal';
import { useAction } from './use-action';
import { useLoad } from './use-load';

interface AppRef {
  id: number;
  name: string;
  roles: readonly string[];
}
interface TeamRef {
  id: number;
  name: string;
}

type Given = { app: AppRef; team?: undefined } | { team: TeamRef; app?: undefined };
type TeamGrantProps = Given & { onClose: () => void; onAdded: () => Promise<void> };

export function TeamGrantModal({ onClose, onAdded, ...given }: TeamGrantProps) {
  const run = useAction();
  const t = useT();
  const choosing = given.app ? 'team' : 'app';
  const choices = useLoad<(TeamRef & { roles?: readonly string[] })[]>(
    async () => (given.app ? api.apps.grantableTeams(given.app.id) : (await api.apps.all()).sort(byName)),
    (error) => logFailure(`load ${choosing}s`, error),
  );
  const [chosenId, setChosenId] = useState('');
  const [role, setRole] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const chosen = choices.data?.find((candidate) => String(candidate.id) === chosenId);
  const app: AppRef | undefined = given.app ?? (chosen && { id: chosen.id, name: chosen.name, roles: chosen.roles ?? [] });
  const team: TeamRef | undefined = given.team ?? chosen;
  const field = choosing === 'team' ? 'app-team' : 'team-app';

  const save = async () => {
    const expires = expiryOf(expiry);
    if (!app || !team || expires === null) return;
    setBusy(true);
    await run({
      call: () => api.teams.grant(team.id, { appid: app.id, ...(role ? { role } : {}), ...(expires ? { expires } : {}) }),
      success: t('teams.grant.granted', { app: app.name, team: team.name }),
      danger: t('teams.grant.failed', { app: app.name, team: team.name }),
      what: 'grant app to team',
      onSuccess: onAdded,
    });
    setBusy(false);
  };

  return (
    <Modal
      title={t(choosing === 'team' ? 'teams.grant.addTeam' : 'teams.addApp')}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy || !chosen} submitLabel={t('teams.add')} />}
    >
      <div className="mb-3">
        <label className="form-label" htmlFor={field}>
          {t(choosing === 'team' ? 'teams.grant.team' : 'teams.app')}
        </label>
        <select
          id={field}
          className="form-select"
          value={chosenId}
          onChange={(event) => {
            setChosenId(event.target.value);
            if (choosing === 'app') setRole('');
          }}
        >
          <option value="">{t(choosing === 'team' ? 'teams.grant.chooseTeam' : 'teams.grant.chooseApp')}</option>
          {(choices.data ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </select>
      </div>
      {app && <RoleSelect id={`${field}-role`} roles={app.roles} value={role} onChange={setRole} />}
      <ExpiryChoice value={expiry} onChange={setExpiry} label={t('teams.grant.expiry')} />
    </Modal>
  );
}

/** The role of a grant, among the app's roles: '' for the first, the default; nothing when the app has none. */
export function RoleSelect({ id, roles, value, onChange }: { id: string; roles: readonly string[]; value: string; onChange: (role: string) => void }) {
  const t = useT();
  if (roles.length === 0) return null;
  return (
    <div className="mb-3">
      <label className="form-label" htmlFor={id}>
        {t('teams.role')}
      </label>
      <select id={id} className="form-select" value={value} onChange={(event) => onChange(event.target.value)}>
        {roles.map((candidate, index) => (
          <option key={candidate} value={index === 0 ? '' : candidate}>
            {index === 0 ? t('teams.grant.defaultRole', { role: candidate }) : candidate}
          </option>
        ))}
      </select>
    </div>
  );
}

/** @alias TeamGrantModal, as an app's page and Apps you own name it (the app given). */
export { TeamGrantModal as AddTeamModal };
