/**
 * An app's page, Owners (docs/product.md, Teams, app roles and owners): the users and teams who
 * manage the app's access, added by email or team name and removed one by one (`PUT /app` with
 * `owners`; admins only).
 */
import type { ManagedApp, Team, User } from '@tools-portal/core';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { api, logFailure } from '../api';
import { Email } from './email';
import { useAlerts } from './alerts';
import { useAction } from './use-action';
import { useLoad } from './use-load';
import { paths } from '../paths';

type Owners = ManagedApp['owners'];

/** A candidate as typed: an email, or `team NAME`. */
const TEAM_PREFIX = 'team ';

export function AppOwnersSection({ app, onChanged }: { app: ManagedApp; onChanged: () => Promise<void> }) {
  const run = useAction();
  const alerts = useAlerts();
  const listId = useId();
  const [candidate, setCandidate] = useState('');
  const people = useLoad(
    () => Promise.all([api.users.list(), api.teams.list()]),
    (error) => logFailure('load users and teams', error),
    app.id,
  );
  const [users, teams] = people.data ?? [[], []];
  const userById = new Map(users.map((user) => [user.id, user]));
  const teamById = new Map(teams.map((team) => [team.id, team]));

  const save = (owners: Owners, success: string) =>
    run({
      what: 'change owners',
      call: () => api.apps.update({ id: app.id, name: app.name, url: app.url, description: app.description, doclink: app.doclink, owners }),
      success,
      danger: `failed to change the owners of ${app.name}`,
      onSuccess: onChanged,
    });

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const typed = candidate.trim();
    const team = typed.startsWith(TEAM_PREFIX) ? teams.find((entry) => entry.name === typed.slice(TEAM_PREFIX.length)) : undefined;
    const user = team ? undefined : users.find((entry) => entry.email === typed.toLowerCase());
    if (!team && !user) {
      alerts.danger(`No user or team ${typed}: pick an email or "team NAME" from the list`);
      return;
    }
    const owners: Owners = {
      users: user ? [...new Set([...app.owners.users, user.id])] : app.owners.users,
      teams: team ? [...new Set([...app.owners.teams, team.id])] : app.owners.teams,
    };
    if (await save(owners, `${user ? user.email : `team ${team!.name}`} owns ${app.name}`)) setCandidate('');
  };

  const removeUser = (user: Pick<User, 'id' | 'email'>) =>
    save({ ...app.owners, users: app.owners.users.filter((id) => id !== user.id) }, `${user.email} no longer owns ${app.name}`);
  const removeTeam = (team: Pick<Team, 'id' | 'name'>) =>
    save({ ...app.owners, teams: app.owners.teams.filter((id) => id !== team.id) }, `team ${team.name} no longer owns ${app.name}`);

  const none = app.owners.users.length === 0 && app.owners.teams.length === 0;
  return (
    <section className="mt-4 mb-4" aria-labelledby={`${listId}-heading`}>
      <h2 className="h5" id={`${listId}-heading`}>
        Owners
      </h2>
      <p className="text-body-secondary">Owners decide who may use this app and answer its access requests; they manage nothing else.</p>
      {none ? (
        <p>No owners: only admins manage this app's access.</p>
      ) : (
        <ul className="list-group mb-3" aria-label="Owners">
          {app.owners.users.map((id) => {
            const user = userById.get(id) ?? { id, email: `user ${id}` };
            return (
              <li key={`user-${id}`} className="list-group-item d-flex align-items-center gap-2">
                <Link to={paths.user(id)} className="me-auto">
                  <Email value={user.email} />
                </Link>
                <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void removeUser(user)}>
                  Remove owner <span className="visually-hidden">{user.email}</span>
                </button>
              </li>
            );
          })}
          {app.owners.teams.map((id) => {
            const team = teamById.get(id) ?? { id, name: `${id}` };
            return (
              <li key={`team-${id}`} className="list-group-item d-flex align-items-center gap-2">
                <span className="me-auto">
                  team <Link to={paths.team(id)}>{team.name}</Link>
                </span>
                <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void removeTeam(team)}>
                  Remove owner <span className="visually-hidden">team {team.name}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form className="d-flex flex-wrap gap-2" onSubmit={(event) => void add(event)}>
        <label htmlFor={`${listId}-candidate`} className="visually-hidden">
          User email or team
        </label>
        <input
          id={`${listId}-candidate`}
          className="form-control w-auto flex-grow-1"
          list={`${listId}-candidates`}
          placeholder="Email, or team name"
          value={candidate}
          onChange={(event) => setCandidate(event.target.value)}
          required
        />
        <datalist id={`${listId}-candidates`}>
          {users.map((user) => (
            <option key={`user-${user.id}`} value={user.email} />
          ))}
          {teams.map((team) => (
            <option key={`team-${team.id}`} value={`${TEAM_PREFIX}${team.name}`} />
          ))}
        </datalist>
        <button type="submit" className="btn btn-primary">
          Add owner
        </button>
      </form>
    </section>
  );
}
