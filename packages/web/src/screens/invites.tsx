/** /registrationtokens (docs/product.md §2): Invites, New Invite, and the link to copy. */
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import type { App, Client, RegistrationToken } from '@tools-portal/core/entities';
import { LANGUAGES, type Language } from '@tools-portal/core/languages';
import { api } from '../api';
import { useBranding } from '../branding';
import { useAlerts } from '../components/alerts';
import { CopyField } from '../components/copy-field';
import { AppPicker } from '../components/app-picker';
import { DeleteButton } from '../components/delete-button';
import { Email } from '../components/email';
import { FieldFeedback, fieldProps, useFormErrors } from '../components/form-errors';
import { EmptyRow } from '../components/empty-row';
import { ListPage } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { formatDate, formatTimestamp } from '../logic/format';
import { useT } from '../i18n/use-t';
import { paths } from '../paths';
import { sortRows } from '../logic/sort';

type Column = 'email' | 'sent';

export function Invites() {
  const alerts = useAlerts();
  const run = useAction();
  const [search, setSearch] = useSearchParams();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort<Column>({ key: 'sent', direction: 'desc' });
  const [creating, setCreating] = useState<string | null>(null);
  const [link, setLink] = useState<{ link: string; sentTo?: string } | null>(null);
  const invites = useLoad(
    async () => {
      const [list, apps, options] = await Promise.all([api.invites.list(), api.apps.all(), api.auth.options()]);
      return { list, appNames: new Map(apps.map((app) => [app.id, app.name])), mail: options.passwordReset };
    },
    () => alerts.danger('failed to load registration tokens'),
  );

  // A client's page links here with ?client=ID: New Invite opens with that client chosen.
  useEffect(() => {
    const client = search.get('client');
    if (!client) return;
    setCreating(client);
    setSearch({}, { replace: true });
  }, [search, setSearch]);

  const now = Date.now();
  const rows = sortRows(
    filterRows(invites.data?.list ?? [], filter, (invite) => [invite.email, invite.client?.name]),
    (invite) => (sort.key === 'email' ? invite.email : invite.sent_timestamp),
    sort.direction,
  );

  const remove = (invite: RegistrationToken) =>
    run({
      call: () => api.invites.delete(invite.id),
      success: `deleted registration token ${invite.email}`,
      danger: `failed to delete registration token ${invite.email}`,
      what: 'delete invite',
      onSuccess: invites.reload,
    });

  const copy = async (invite: RegistrationToken) => {
    try {
      await navigator.clipboard.writeText(invite.link);
      alerts.success(`copied the registration link of ${invite.email}`);
    } catch {
      setLink({ link: invite.link });
    }
  };

  return (
    <>
      <ListPage
        title="Invites"
        lead="Open invitations: each link lets one person set a password and join a client."
        filter={filter}
        onFilter={setFilter}
        action={{ label: 'New Invite', onClick: () => setCreating('') }}
        head={
          <>
            <SortHeader column="email" sort={sort} onSort={onSort}>
              Email
            </SortHeader>
            <th scope="col">Client</th>
            <th scope="col" className="d-none d-xl-table-cell">
              Apps
            </th>
            <SortHeader column="sent" sort={sort} onSort={onSort}>
              Registration Timestamp
            </SortHeader>
            <th scope="col">Status</th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">Actions</span>
            </th>
          </>
        }
      >
        {rows.map((invite) => {
          const expired = Date.parse(invite.expires_timestamp) <= now;
          return (
            <tr key={invite.id}>
              <td>
                <Email value={invite.email} />
              </td>
              <td>
                <Link to={paths.client(invite.client.id)}>{invite.client.name}</Link>
              </td>
              <td className="d-none d-xl-table-cell small">
                {invite.apps.map((id) => invites.data?.appNames.get(id) ?? `#${id}`).join(', ') || <span className="text-secondary">none</span>}
              </td>
              <td className="text-nowrap">{formatTimestamp(invite.sent_timestamp)}</td>
              <td>
                {expired ? (
                  <span className="badge text-bg-secondary">expired</span>
                ) : (
                  <span className="text-nowrap" title={formatTimestamp(invite.expires_timestamp)}>
                    <span className="badge text-bg-success">open</span>{' '}
                    <span className="small text-secondary">until {formatDate(invite.expires_timestamp)}</span>
                  </span>
                )}
              </td>
              <td>
                <div className="d-flex flex-wrap flex-xl-nowrap justify-content-end gap-2">
                  {!expired && (
                    <button type="button" className="btn btn-sm btn-outline-secondary text-nowrap" onClick={() => void copy(invite)}>
                      Copy link
                    </button>
                  )}
                  {invites.data?.mail && !expired && (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary"
                      onClick={() =>
                        void run({
                          call: () => api.invites.resend(invite.id),
                          success: `sent the invitation to ${invite.email} again`,
                          danger: `failed to send the invitation to ${invite.email}`,
                          what: 'resend invite',
                        })
                      }
                    >
                      Resend
                    </button>
                  )}
                  <DeleteButton onConfirm={() => remove(invite)} />
                </div>
              </td>
            </tr>
          );
        })}
        <EmptyRow columns={6} shown={rows.length} loading={invites.loading} text={filter ? 'No invite matches.' : 'No open invites: New Invite sends one.'} />
      </ListPage>
      {creating !== null && (
        <NewInviteModal
          initialClient={creating}
          onClose={() => setCreating(null)}
          onCreated={async (created) => {
            setCreating(null);
            await invites.reload();
            setLink(created);
          }}
        />
      )}
      {link && (
        <Modal
          title="Please copy the registration link"
          staticBackdrop
          onClose={() => setLink(null)}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setLink(null)}>
              OK
            </button>
          }
        >
          {link.sentTo ? <p>The link was sent by email to {link.sentTo}. You can also copy it:</p> : <p>Send this link to the invited email address:</p>}
          <CopyField value={link.link} label="Registration link" />
        </Modal>
      )}
    </>
  );
}

function NewInviteModal({
  initialClient,
  onClose,
  onCreated,
}: {
  initialClient: string;
  onClose: () => void;
  onCreated: (created: { link: string; sentTo?: string }) => Promise<void>;
}) {
  const alerts = useAlerts();
  const run = useAction();
  const form = useFormErrors();
  const options = useLoad(
    async () => {
      const [clients, apps, options] = await Promise.all([api.clients.list(), api.apps.all(), api.auth.options()]);
      // Mail is configured exactly when the server offers password reset.
      return { clients: clients.sort(byName), apps: apps.sort(byName), mail: options.passwordReset };
    },
    () => alerts.danger('failed to load clients or apps'),
  );
  const [email, setEmail] = useState('');
  const [clientId, setClientId] = useState(initialClient);
  const [appIds, setAppIds] = useState<number[]>([]);
  const [sendChoice, setSendChoice] = useState<boolean | null>(null);
  // The invitation mail's language; '' leaves it to the portal's DEFAULT_LANGUAGE.
  const [language, setLanguage] = useState<Language | ''>('');
  const { defaultLanguage } = useBranding();
  const t = useT();
  const [busy, setBusy] = useState(false);
  const mail = options.data?.mail ?? false;
  // On by default when mail is configured.
  const send = mail && (sendChoice ?? true);

  const clients: Client[] = options.data?.clients ?? [];
  const apps: App[] = options.data?.apps ?? [];

  const save = async () => {
    setBusy(true);
    await run({
      call: async () => {
        const invite = await api.invites.create({
          email,
          clientid: Number(clientId),
          apps: appIds,
          ...(send ? { send: true } : {}),
          ...(language ? { language } : {}),
        });
        return { link: invite.link, sentTo: send ? invite.email : undefined };
      },
      danger: `failed to create new registration token ${email}`,
      what: 'create invite',
      onSuccess: onCreated,
      form,
    });
    setBusy(false);
  };

  return (
    <Modal title="New Invite" onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy} />}>
      <div className="mb-3">
        <label className="form-label" htmlFor="invite-email">
          Email
        </label>
        <input
          id="invite-email"
          type="text"
          {...fieldProps(form, 'email')}
          placeholder="Email"
          value={email}
          autoFocus
          onChange={(event) => setEmail(event.target.value)}
        />
        <FieldFeedback form={form} field="email" />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="invite-client">
          Client
        </label>
        <select id="invite-client" {...fieldProps(form, 'clientid', 'form-select')} value={clientId} onChange={(event) => setClientId(event.target.value)}>
          <option value="">Choose a client…</option>
          {clients.map((client) => (
            <option key={client.id} value={client.id}>
              {client.name}
            </option>
          ))}
        </select>
        <FieldFeedback form={form} field="clientid" />
      </div>
      <AppPicker apps={apps} value={appIds} onChange={setAppIds} />
      <div className="mt-3">
        <label className="form-label" htmlFor="invite-language">
          {t('language.title')}
        </label>
        <select
          id="invite-language"
          {...fieldProps(form, 'language', 'form-select')}
          value={language}
          onChange={(event) => setLanguage(event.target.value as Language | '')}
        >
          <option value="">{t('invite.languageDefault', { language: t(`language.name.${defaultLanguage}`) })}</option>
          {LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {t(`language.name.${code}`)}
            </option>
          ))}
        </select>
        <div className="form-text">{t('invite.languageHelp')}</div>
        <FieldFeedback form={form} field="language" />
      </div>
      {mail && (
        <div className="form-check mt-3">
          <input id="invite-send" type="checkbox" className="form-check-input" checked={send} onChange={(event) => setSendChoice(event.target.checked)} />
          <label className="form-check-label" htmlFor="invite-send">
            Send the link by email
          </label>
        </div>
      )}
    </Modal>
  );
}
