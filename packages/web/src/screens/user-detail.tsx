/**
 * /user/{id} (docs/product.md §2): email, client, apps; Manage Apps saves one change at a time;
 * password reset, two-factor reset and "Revoke all API keys" (each Really? first where it destroys).
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import type { GrantedApp, PasswordResetLink } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { useAlerts } from '../components/alerts';
import { DeleteButton } from '../components/delete-button';
import { CopyField } from '../components/copy-field';
import { EmptyRow } from '../components/empty-row';
import { HeadingBar, ListTable } from '../components/list-page';
import { expiryOf } from '../components/expiry-choice';
import { FormFooter, Modal } from '../components/modal';
import { filterRows } from '../logic/filter';
import { formatTimestamp } from '../logic/format';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { toggled, userAppChanges } from '../logic/user-apps';
import { paths } from '../paths';
import { Email } from '../components/email';
import { PageHeader } from '../components/page-header';
import { Time } from '../components/time';
import { isMissing } from '../logic/not-found';
import { Missing } from './not-found';

export function UserDetail() {
  const rawId = useParams().id ?? '';
  const id = Number(rawId);
  const navigate = useNavigate();
  const [managing, setManaging] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const user = useLoad(
    () => api.users.get(id),
    (error) => logFailure('load user', error),
    id,
  );
  const security = useLoad(
    () => api.users.security(id),
    (error) => logFailure('load user security', error),
    id,
  );
  const [resetLink, setResetLink] = useState<PasswordResetLink | null>(null);
  const run = useAction();
  const email = user.data?.email ?? '';
  const sendReset = () =>
    run({
      call: () => api.users.passwordReset(id),
      success: (answer) => (answer.sent ? `sent password reset to ${email}` : `created password reset link for ${email}`),
      danger: `failed to send password reset to ${email}`,
      what: 'send password reset',
      onSuccess: (answer) => {
        setConfirmReset(false);
        setResetLink(answer);
      },
    });
  const apps = useLoad(
    async () => (await api.users.apps(id)).sort(byName),
    (error) => logFailure('load user apps', error),
    id,
  );

  if (isMissing(user.error))
    return (
      <Missing
        title="No such user"
        text={`There is no user with the id ${rawId}: they may have been deleted.`}
        back={{ to: paths.users, label: 'Go to Users' }}
      />
    );

  const facts = security.data;
  const factor = facts ? [facts.totp && 'authenticator app', facts.passkeys > 0 && plural(facts.passkeys, 'passkey')].filter(Boolean).join(' and ') : '';

  return (
    <>
      <PageHeader
        title={user.data ? <Email value={user.data.email} /> : '\u00a0'}
        lead={
          user.data && (
            <>
              Client: <Link to={paths.client(user.data.client.id)}>{user.data.client.name}</Link>
            </>
          )
        }
      />
      {facts && (
        <dl className="row mb-3 user-facts">
          <dt className="col-sm-4 col-lg-2">Created</dt>
          <dd className="col-sm-8 col-lg-4">
            <Time iso={facts.createdTimestamp} />
          </dd>
          <dt className="col-sm-4 col-lg-2">Last sign-in</dt>
          <dd className="col-sm-8 col-lg-4">{facts.lastSignInTimestamp ? <Time iso={facts.lastSignInTimestamp} /> : 'never'}</dd>
          <dt className="col-sm-4 col-lg-2">Second factor</dt>
          <dd className="col-sm-8 col-lg-4">
            {factor ? <span className="badge text-bg-success">on</span> : <span className="badge text-bg-secondary">off</span>} {factor}
          </dd>
          <dt className="col-sm-4 col-lg-2">Passkeys</dt>
          <dd className="col-sm-8 col-lg-4">{facts.passkeys}</dd>
          <dt className="col-sm-4 col-lg-2">Active sessions</dt>
          <dd className="col-sm-8 col-lg-4">{facts.sessions}</dd>
          <dt className="col-sm-4 col-lg-2">API keys</dt>
          <dd className="col-sm-8 col-lg-4">{facts.apiKeys}</dd>
        </dl>
      )}
      {user.data && (
        <div className="d-flex flex-wrap align-items-center gap-2 mb-4" role="group" aria-label="Actions">
          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => setConfirmReset(true)}>
            Send password reset
          </button>
          <DeleteButton
            label="Reset two-factor"
            onConfirm={() =>
              run({
                call: () => api.users.resetMfa(id),
                success: 'Two-factor authentication reset; the user was signed out.',
                danger: 'failed to reset two-factor authentication',
                what: 'reset two-factor',
                onSuccess: security.reload,
              })
            }
          />
          <DeleteButton
            label="End sessions"
            consequence={async () => (facts && facts.sessions > 0 ? `Signs out ${plural(facts.sessions, 'session')}` : null)}
            onConfirm={() =>
              run({
                call: () => api.users.endSessions(id),
                success: `ended every session of ${email}`,
                danger: `failed to end the sessions of ${email}`,
                what: 'end sessions',
                onSuccess: security.reload,
              })
            }
          />
          <DeleteButton
            label="Revoke all API keys"
            onConfirm={() =>
              run({
                call: () => api.users.revokeKeys(id),
                success: (answer) => `revoked ${answer.revoked} API key${answer.revoked === 1 ? '' : 's'} of ${email}`,
                danger: `failed to revoke the API keys of ${email}`,
                what: 'revoke API keys',
                onSuccess: security.reload,
              })
            }
          />
          <DeleteButton
            label="Delete"
            onConfirm={() =>
              run({
                call: () => api.users.delete(id),
                success: `deleted user ${email}`,
                danger: `failed to delete user ${email}`,
                what: 'delete user',
                onSuccess: () => navigate(paths.users),
              })
            }
          />
        </div>
      )}
      {confirmReset && (
        <Modal
          title="Send a password reset?"
          onClose={() => setConfirmReset(false)}
          onSubmit={() => void sendReset()}
          footer={<FormFooter onCancel={() => setConfirmReset(false)} submitLabel="Send" />}
        >
          <p className="mb-0">
            {email} gets a link to set a new password (by email when mail is configured; you see the link too). Their current password keeps working until they
            use it.
          </p>
        </Modal>
      )}
      {resetLink && (
        <Modal
          title="Password reset link"
          staticBackdrop
          onClose={() => setResetLink(null)}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setResetLink(null)}>
              OK
            </button>
          }
        >
          {resetLink.sent ? (
            <p>The link was sent by email to {email}. You can also copy it:</p>
          ) : (
            <p>Send this link to {email}; it works once, for 60 minutes:</p>
          )}
          <CopyField value={resetLink.link} label="Password reset link" />
        </Modal>
      )}
      <HeadingBar level={2} title="Apps" action={{ label: 'Manage Apps', onClick: () => setManaging(true), disabled: !apps.data }} />
      <ListTable
        label="User apps"
        className="table table-hover"
        head={
          <>
            <th scope="col">App Name</th>
            <th scope="col" className="d-none d-md-table-cell">
              URL
            </th>
            <th scope="col">Expires</th>
            <th scope="col">Via</th>
          </>
        }
      >
        {(apps.data ?? []).map((app) => (
          <tr key={app.id}>
            <td>
              <Link to={paths.app(app.id)}>{app.name}</Link>
            </td>
            <td className="d-none d-md-table-cell text-secondary text-break">{app.url}</td>
            <td className="text-nowrap">{app.expires ? formatTimestamp(app.expires) : 'never'}</td>
            <td>
              {app.sources.map((source) => (source === 'direct' ? 'direct' : `team ${source}`)).join(', ')}
              {app.grantedRoles.length > 0 ? ` (${app.grantedRoles.join(', ')})` : ''}
            </td>
          </tr>
        ))}
        <EmptyRow columns={4} shown={apps.data?.length ?? 0} loading={apps.loading} text="No apps." />
      </ListTable>
      {managing && apps.data && (
        <ManageUserApps
          userId={id}
          had={apps.data.filter((app) => app.sources.includes('direct'))}
          onChanged={async () => {
            await user.reload();
            await apps.reload();
          }}
          onClose={() => setManaging(false)}
        />
      )}
    </>
  );
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

interface ManageProps {
  userId: number;
  had: GrantedApp[];
  onChanged: () => Promise<void>;
  onClose: () => void;
}

function ManageUserApps({ userId, had, onChanged, onClose }: ManageProps) {
  const alerts = useAlerts();
  const run = useAction();
  const all = useLoad(
    async () => (await api.apps.all()).sort(byName),
    () => alerts.danger('failed to fetch all apps'),
  );
  const [checked, setChecked] = useState(() => new Set(had.map((app) => app.id)));
  // Per app, the expiry date as the date input holds it (`YYYY-MM-DD`, local), '' for none.
  const initialDates = new Map(had.map((app) => [app.id, app.expires ? localDate(app.expires) : '']));
  const [dates, setDates] = useState(() => new Map(initialDates));
  const [busy, setBusy] = useState(false);
  const [query, setQuery] = useState('');
  const expiresOn = (appId: number) => {
    const date = dates.get(appId) ?? '';
    return date ? (expiryOf({ kind: 'date', date }) ?? undefined) : undefined;
  };

  const save = async () => {
    setBusy(true);
    const { remove, add } = userAppChanges(
      had.map((app) => app.id),
      checked,
    );
    let failed = false;
    for (const appId of remove) {
      const ok = await run({ call: () => api.users.revoke(userId, appId), danger: 'failed to delete app', what: 'remove app from user', onSuccess: onChanged });
      if (!ok) failed = true;
    }
    for (const appId of add) {
      const ok = await run({
        call: () => api.users.grant(userId, appId, expiresOn(appId)),
        danger: 'failed to add app',
        what: 'add app to user',
        onSuccess: onChanged,
      });
      if (!ok) failed = true;
    }
    for (const appId of [...checked].filter((id) => initialDates.has(id) && (dates.get(id) ?? '') !== initialDates.get(id))) {
      const ok = await run({
        call: () => api.users.setGrantExpiry(userId, appId, expiresOn(appId) ?? null),
        danger: 'failed to change the expiry',
        what: 'change grant expiry',
        onSuccess: onChanged,
      });
      if (!ok) failed = true;
    }
    setBusy(false);
    if (!failed) onClose();
  };

  return (
    <Modal title="Manage User Apps" onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy || !all.data} />}>
      <input
        type="search"
        className="form-control form-control-sm mb-2"
        placeholder="Search apps"
        aria-label="Search apps"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {filterRows(all.data ?? [], query, (app) => [app.name, app.description, app.category]).map((app) => (
        <div className="d-flex flex-wrap align-items-center gap-2 mb-1" key={app.id}>
          <div className="form-check me-auto">
            <input
              className="form-check-input"
              type="checkbox"
              id={`user-app-${app.id}`}
              checked={checked.has(app.id)}
              onChange={() => setChecked(toggled(checked, app.id))}
            />
            <label className="form-check-label" htmlFor={`user-app-${app.id}`}>
              {app.name}
            </label>
          </div>
          {checked.has(app.id) && (
            <input
              type="date"
              className="form-control form-control-sm w-auto"
              aria-label={`Expiry of ${app.name} (optional)`}
              title="expires at the end of this day (optional)"
              min={localDate(new Date().toISOString())}
              value={dates.get(app.id) ?? ''}
              onChange={(event) => setDates(new Map(dates).set(app.id, event.target.value))}
            />
          )}
        </div>
      ))}
      <p className="form-text mb-0">A date makes the grant end at the end of that day; leave it empty for no expiry.</p>
      {all.data?.length === 0 && <p className="text-secondary mb-0">There are no apps yet.</p>}
    </Modal>
  );
}

/** An ISO time as the local `YYYY-MM-DD` a date input shows. */
function localDate(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
