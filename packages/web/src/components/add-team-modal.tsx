/** Add Team on an app's page: grants the app to a team, with one of the app's roles and an expiry. */
import { useState } from 'react';
import { byName } from '@tools-portal/core/apps';
import { api, logFailure } from '../api';
import { ExpiryChoice, expiryOf, type ExpiryChoiceValue } from './expiry-choice';
import { FormFooter, Modal } from './modal';
import { useAction } from './use-action';
import { useLoad } from './use-load';

interface AddTeamProps {
  app: { id: number; name: string; roles: readonly string[] };
  onClose: () => void;
  onAdded: () => Promise<void>;
}

export function AddTeamModal({ app, onClose, onAdded }: AddTeamProps) {
  const run = useAction();
  const teams = useLoad(
    async () => (await api.teams.list()).sort(byName),
    (error) => logFailure('load teams', error),
  );
  const [teamId, setTeamId] = useState('');
  const [role, setRole] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const team = teams.data?.find((candidate) => String(candidate.id) === teamId);

  const save = async () => {
    const expires = expiryOf(expiry);
    if (!team || expires === null) return;
    setBusy(true);
    await run({
      call: () => api.teams.grant(team.id, { appid: app.id, ...(role ? { role } : {}), ...(expires ? { expires } : {}) }),
      success: `granted app ${app.name} to team ${team.name}`,
      danger: `failed to grant app ${app.name} to team ${team.name}`,
      what: 'grant app to team',
      onSuccess: onAdded,
    });
    setBusy(false);
  };

  return (
    <Modal
      title="Add Team"
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy || !team} submitLabel="Add" />}
    >
      <div className="mb-3">
        <label className="form-label" htmlFor="app-team">
          Team
        </label>
        <select id="app-team" className="form-select" value={teamId} onChange={(event) => setTeamId(event.target.value)}>
          <option value="">Choose a team</option>
          {(teams.data ?? []).map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.name}
            </option>
          ))}
        </select>
      </div>
      {app.roles.length > 0 && (
        <div className="mb-3">
          <label className="form-label" htmlFor="app-team-role">
            Role
          </label>
          <select id="app-team-role" className="form-select" value={role} onChange={(event) => setRole(event.target.value)}>
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
