/**
 * An app's owners (docs/product.md, Teams, app roles and owners): the one place they are edited,
 * in the New App and Edit App dialogs. Users are named by email and teams by name, each from the
 * suggestions; each owner is removable; a name the portal does not know is refused at its field.
 * The dialog's Save sends them as `owners` in `POST`/`PUT /app` (admins only).
 */
import type { AppOwners, Team, User } from '@tools-portal/core';
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { api, logFailure } from '../api';
import { useT } from '../i18n/use-t';
import { Email } from './email';
import { useLoad } from './use-load';

/** Every user and team, by id, to name owners with (admin calls: the form and the app page are admins'). */
export function useOwnerCandidates() {
  const loaded = useLoad(
    () => Promise.all([api.users.list(), api.teams.list()]),
    (error) => logFailure('load users and teams', error),
  );
  const [users, teams] = loaded.data ?? [[], []];
  return { users, teams, userById: new Map(users.map((user) => [user.id, user])), teamById: new Map(teams.map((team) => [team.id, team])) };
}

type Candidates = ReturnType<typeof useOwnerCandidates>;

/** The owners as a list: users by email, then teams by name; each row gets `action` (a Remove button, or nothing). */
export function OwnerList({ owners, candidates, action }: { owners: AppOwners; candidates: Candidates; action?: (owner: Owner) => ReactNode }) {
  const t = useT();
  const rows: Owner[] = [
    ...owners.users.map((id): Owner => ({ kind: 'user', id, name: candidates.userById.get(id)?.email ?? `#${id}` })),
    ...owners.teams.map((id): Owner => ({ kind: 'team', id, name: candidates.teamById.get(id)?.name ?? `#${id}` })),
  ];
  return (
    <ul className="list-group mb-2" aria-label={t('owners.title')}>
      {rows.map((owner) => (
        <li key={`${owner.kind}-${owner.id}`} className="list-group-item d-flex align-items-center gap-2">
          <span className="me-auto text-break">{owner.kind === 'user' ? <Email value={owner.name} /> : t('owners.team', { name: owner.name })}</span>
          {action?.(owner)}
        </li>
      ))}
    </ul>
  );
}

export interface Owner {
  kind: 'user' | 'team';
  id: number;
  name: string;
}

export function OwnersEditor({ value, onChange }: { value: AppOwners; onChange: (owners: AppOwners) => void }) {
  const t = useT();
  const id = useId();
  const candidates = useOwnerCandidates();
  const [email, setEmail] = useState('');
  const [teamName, setTeamName] = useState('');
  const [errors, setErrors] = useState<{ user?: string; team?: string }>({});

  const addUser = () => {
    const typed = email.trim();
    if (!typed) return;
    const user: User | undefined = candidates.users.find((candidate) => candidate.email === typed.toLowerCase());
    if (!user) return setErrors({ ...errors, user: t('owners.unknownUser', { email: typed }) });
    onChange({ ...value, users: [...new Set([...value.users, user.id])] });
    setEmail('');
    setErrors({ ...errors, user: undefined });
  };
  const addTeam = () => {
    const typed = teamName.trim();
    if (!typed) return;
    const team: Team | undefined = candidates.teams.find((candidate) => candidate.name.toLowerCase() === typed.toLowerCase());
    if (!team) return setErrors({ ...errors, team: t('owners.unknownTeam', { name: typed }) });
    onChange({ ...value, teams: [...new Set([...value.teams, team.id])] });
    setTeamName('');
    setErrors({ ...errors, team: undefined });
  };
  const remove = (owner: Owner) =>
    onChange(
      owner.kind === 'user'
        ? { ...value, users: value.users.filter((one) => one !== owner.id) }
        : { ...value, teams: value.teams.filter((one) => one !== owner.id) },
    );
  // Enter in a field adds what it holds; it must not submit the dialog.
  const onEnter = (add: () => void) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };

  const field = (kind: 'user' | 'team') => {
    const error = errors[kind];
    const inputId = `${id}-${kind}`;
    return (
      <div className="mb-2">
        <label className="form-label small mb-1" htmlFor={inputId}>
          {t(kind === 'user' ? 'owners.userField' : 'owners.teamField')}
        </label>
        <div className="input-group has-validation">
          <input
            id={inputId}
            type={kind === 'user' ? 'email' : 'text'}
            className={`form-control${error ? ' is-invalid' : ''}`}
            list={`${inputId}-suggestions`}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-feedback` : undefined}
            value={kind === 'user' ? email : teamName}
            onChange={(event) => {
              if (kind === 'user') setEmail(event.target.value);
              else setTeamName(event.target.value);
              setErrors({ ...errors, [kind]: undefined });
            }}
            onKeyDown={onEnter(kind === 'user' ? addUser : addTeam)}
          />
          <button type="button" className="btn btn-outline-primary" onClick={kind === 'user' ? addUser : addTeam}>
            {t(kind === 'user' ? 'owners.addUser' : 'owners.addTeam')}
          </button>
          {error && (
            <div className="invalid-feedback" id={`${inputId}-feedback`}>
              {error}
            </div>
          )}
        </div>
        <datalist id={`${inputId}-suggestions`}>
          {kind === 'user'
            ? candidates.users.map((user) => <option key={user.id} value={user.email} />)
            : candidates.teams.map((team) => <option key={team.id} value={team.name} />)}
        </datalist>
      </div>
    );
  };

  const none = value.users.length === 0 && value.teams.length === 0;
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6 mb-1">{t('owners.title')}</legend>
      <p className="text-secondary small mb-2">{none ? t('owners.none') : t('owners.about')}</p>
      {!none && (
        <OwnerList
          owners={value}
          candidates={candidates}
          action={(owner) => (
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => remove(owner)}>
              {t('owners.remove')} <span className="visually-hidden">{owner.kind === 'user' ? owner.name : t('owners.team', { name: owner.name })}</span>
            </button>
          )}
        />
      )}
      {field('user')}
      {field('team')}
    </fieldset>
  );
}
