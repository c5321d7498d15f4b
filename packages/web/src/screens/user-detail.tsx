/**
 * /user/{id} (docs/product.md §2): email, client, apps; Manage Apps saves one change at a time;
 * password reset, two-factor reset and "Revoke all API keys" (each Really? first where it destroys).
 */
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import { isAdmin } from '@tools-portal/core/permissions';
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
import { useT, type Translate } from '../i18n/use-t';
import { Missing } from './not-found';

export function UserDetail() {
  const rawId = useParams().id ?? '';
  const id = Number(rawId);
  const navigate = useNavigate();
  const t = useT();
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
      success: (answer) => (answer.sent ? t('user.resetSent', { email }) : t('user.resetLinkCreated', { email })),
      danger: t('user.resetFailed', { email }),
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
    return <Missing title={t('user.missingTitle')} text={t('user.missingText', { id: rawId })} back={{ to: paths.users, label: t('user.back') }} />;

  const facts = security.data;
  const factor = facts ? factorWords(facts, t) : '';

  return (
    <>
      <PageHeader
        title={user.data ? <Email value={user.data.email} /> : '\u00a0'}
        lead={
          user.data && (
            <>
              {t('user.clientLead')} <Link to={paths.client(user.data.client.id)}>{user.data.client.name}</Link>
            </>
          )
        }
      />
      {facts && (
        <dl className="row mb-3 user-facts">
          <dt className="col-sm-4 col-lg-2">{t('user.created')}</dt>
          <dd className="col-sm-8 col-lg-4">
            <Time iso={facts.createdTimestamp} />
          </dd>
          <dt className="col-sm-4 col-lg-2">{t('user.lastSignIn')}</dt>
          <dd className="col-sm-8 col-lg-4">{facts.lastSignInTimestamp ? <Time iso={facts.lastSignInTimestamp} /> : t('people.never')}</dd>
          <dt className="col-sm-4 col-lg-2">{t('user.secondFactor')}</dt>
          <dd className="col-sm-8 col-lg-4">
            {factor ? (
              <span className="badge text-bg-success">{t('user.factorOn')}</span>
            ) : (
              <span className="badge text-bg-secondary">{t('user.factorOff')}</span>
            )}{' '}
            {factor}
          </dd>
          <dt className="col-sm-4 col-lg-2">{t('account.passkeys.title')}</dt>
          <dd className="col-sm-8 col-lg-4">{facts.passkeys}</dd>
          <dt className="col-sm-4 col-lg-2">{t('user.sessions')}</dt>
          <dd className="col-sm-8 col-lg-4">{facts.sessions}</dd>
          <dt className="col-sm-4 col-lg-2">{t('user.apiKeys')}</dt>
          <dd className="col-sm-8 col-lg-4">{facts.apiKeys}</dd>
        </dl>
      )}
      {user.data && (
        <div className="d-flex flex-wrap align-items-center gap-2 mb-4" role="group" aria-label={t('people.actions')}>
          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => setConfirmReset(true)}>
            {t('user.sendReset')}
          </button>
          <DeleteButton
            label={t('user.resetMfa')}
            onConfirm={() =>
              run({
                call: () => api.users.resetMfa(id),
                success: t('user.mfaReset'),
                danger: t('user.mfaResetFailed'),
                what: 'reset two-factor',
                onSuccess: security.reload,
              })
            }
          />
          <DeleteButton
            label={t('user.endSessions')}
            consequence={async () => (facts && facts.sessions > 0 ? t('user.endSessionsConsequence', { count: facts.sessions }) : null)}
            onConfirm={() =>
              run({
                call: () => api.users.endSessions(id),
                success: t('user.sessionsEnded', { email }),
                danger: t('user.endSessionsFailed', { email }),
                what: 'end sessions',
                onSuccess: security.reload,
              })
            }
          />
          <DeleteButton
            label={t('user.revokeKeys')}
            onConfirm={() =>
              run({
                call: () => api.users.revokeKeys(id),
                success: (answer) => t('user.keysRevoked', { count: answer.revoked, email }),
                danger: t('user.revokeKeysFailed', { email }),
                what: 'revoke API keys',
                onSuccess: security.reload,
              })
            }
          />
          <DeleteButton
            label={t('common.delete')}
            onConfirm={() =>
              run({
                call: () => api.users.delete(id),
                success: t('users.deleted', { email }),
                danger: t('users.deleteFailed', { email }),
                what: 'delete user',
                onSuccess: () => navigate(paths.users),
              })
            }
          />
        </div>
      )}
      {confirmReset && (
        <Modal
          title={t('user.resetQuestion')}
          onClose={() => setConfirmReset(false)}
          onSubmit={() => void sendReset()}
          footer={<FormFooter onCancel={() => setConfirmReset(false)} submitLabel={t('user.send')} />}
        >
          <p className="mb-0">{t('user.resetExplained', { email })}</p>
        </Modal>
      )}
      {resetLink && (
        <Modal
          title={t('user.resetLink')}
          staticBackdrop
          onClose={() => setResetLink(null)}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setResetLink(null)}>
              {t('people.ok')}
            </button>
          }
        >
          {resetLink.sent ? <p>{t('people.linkSentTo', { email })}</p> : <p>{t('user.resetLinkOnce', { email })}</p>}
          <CopyField value={resetLink.link} label={t('user.resetLink')} />
        </Modal>
      )}
      <HeadingBar level={2} title={t('nav.apps')} action={{ label: t('user.manageApps'), onClick: () => setManaging(true), disabled: !apps.data }} />
      <ListTable
        label={t('user.appsTable')}
        className="table table-hover"
        head={
          <>
            <th scope="col">{t('userApps.name')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('people.url')}
            </th>
            <th scope="col">{t('tokens.expires')}</th>
            <th scope="col">{t('user.via')}</th>
          </>
        }
      >
        {(apps.data ?? []).map((app) => (
          <tr key={app.id}>
            <td>
              <Link to={paths.app(app.id)}>{app.name}</Link>
            </td>
            <td className="d-none d-md-table-cell text-secondary text-break">{app.url}</td>
            <td className="text-nowrap">{app.expires ? formatTimestamp(app.expires) : t('people.never')}</td>
            <td>
              {app.sources.map((source) => (source === 'direct' ? t('user.direct') : t('user.viaTeam', { team: source }))).join(', ')}
              {app.grantedRoles.length > 0 ? ` (${app.grantedRoles.join(', ')})` : ''}
            </td>
          </tr>
        ))}
        {/* An admin's grants are not what they may use: every app, with or without one. */}
        <EmptyRow
          columns={4}
          shown={apps.data?.length ?? 0}
          loading={apps.loading}
          text={user.data && isAdmin(user.data) ? t('user.adminUsesEvery') : t('launcher.none')}
        />
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

/** The second factors a user has, "authenticator app and 2 passkeys", or '' for none. */
function factorWords(facts: { totp: boolean; passkeys: number }, t: Translate): string {
  const words = [facts.totp && t('user.factorTotp'), facts.passkeys > 0 && t('user.factorPasskeys', { count: facts.passkeys })].filter(
    (word) => typeof word === 'string',
  );
  return words.length === 2 ? t('user.factorBoth', { first: words[0], second: words[1] }) : (words[0] ?? '');
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
  const t = useT();
  const all = useLoad(
    async () => (await api.apps.all()).sort(byName),
    () => alerts.danger(t('launcher.loadFailed')),
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
      const ok = await run({ call: () => api.users.revoke(userId, appId), danger: t('user.revokeFailed'), what: 'remove app from user', onSuccess: onChanged });
      if (!ok) failed = true;
    }
    for (const appId of add) {
      const ok = await run({
        call: () => api.users.grant(userId, appId, expiresOn(appId)),
        danger: t('user.grantFailed'),
        what: 'add app to user',
        onSuccess: onChanged,
      });
      if (!ok) failed = true;
    }
    for (const appId of [...checked].filter((id) => initialDates.has(id) && (dates.get(id) ?? '') !== initialDates.get(id))) {
      const ok = await run({
        call: () => api.users.setGrantExpiry(userId, appId, expiresOn(appId) ?? null),
        danger: t('user.expiryFailed'),
        what: 'change grant expiry',
        onSuccess: onChanged,
      });
      if (!ok) failed = true;
    }
    setBusy(false);
    if (!failed) onClose();
  };

  return (
    <Modal title={t('user.manageTitle')} onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy || !all.data} />}>
      <input
        type="search"
        className="form-control form-control-sm mb-2"
        placeholder={t('launcher.search')}
        aria-label={t('launcher.search')}
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
              aria-label={t('user.expiryOf', { name: app.name })}
              title={t('user.expiryTitle')}
              min={localDate(new Date().toISOString())}
              value={dates.get(app.id) ?? ''}
              onChange={(event) => setDates(new Map(dates).set(app.id, event.target.value))}
            />
          )}
        </div>
      ))}
      <p className="form-text mb-0">{t('user.expiryHelp')}</p>
      {all.data?.length === 0 && <p className="text-secondary mb-0">{t('user.noAppsYet')}</p>}
    </Modal>
  );
}

/** An ISO time as the local `YYYY-MM-DD` a date input shows. */
function localDate(iso: string): string {
  const date = new Date(iso);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
