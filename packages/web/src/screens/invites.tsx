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
  const t = useT();
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
    () => alerts.danger(t('invites.loadFailed')),
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
      success: t('invites.deleted', { email: invite.email }),
      danger: t('invites.deleteFailed', { email: invite.email }),
      what: 'delete invite',
      onSuccess: invites.reload,
    });

  const copy = async (invite: RegistrationToken) => {
    try {
      await navigator.clipboard.writeText(invite.link);
      alerts.success(t('invites.copied', { email: invite.email }));
    } catch {
      setLink({ link: invite.link });
    }
  };

  return (
    <>
      <ListPage
        title={t('nav.invites')}
        lead={t('invites.lead')}
        filter={filter}
        onFilter={setFilter}
        action={{ label: t('invites.new'), onClick: () => setCreating('') }}
        head={
          <>
            <SortHeader column="email" sort={sort} onSort={onSort}>
              {t('login.email')}
            </SortHeader>
            <th scope="col">{t('people.client')}</th>
            <th scope="col" className="d-none d-xl-table-cell">
              {t('nav.apps')}
            </th>
            <SortHeader column="sent" sort={sort} onSort={onSort}>
              {t('invites.sent')}
            </SortHeader>
            <th scope="col">{t('requests.status')}</th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">{t('people.actions')}</span>
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
                {invite.apps.map((id) => invites.data?.appNames.get(id) ?? `#${id}`).join(', ') || <span className="text-secondary">{t('people.none')}</span>}
              </td>
              <td className="text-nowrap">{formatTimestamp(invite.sent_timestamp)}</td>
              <td>
                {expired ? (
                  <span className="badge text-bg-secondary">{t('tokens.expired')}</span>
                ) : (
                  <span className="text-nowrap" title={formatTimestamp(invite.expires_timestamp)}>
                    <span className="badge text-bg-success">{t('status.open')}</span>{' '}
                    <span className="small text-secondary">{t('invites.until', { date: formatDate(invite.expires_timestamp) })}</span>
                  </span>
                )}
              </td>
              <td>
                <div className="d-flex flex-wrap flex-xl-nowrap justify-content-end gap-2">
                  {!expired && (
                    <button type="button" className="btn btn-sm btn-outline-secondary text-nowrap" onClick={() => void copy(invite)}>
                      {t('invites.copyLink')}
                    </button>
                  )}
                  {invites.data?.mail && !expired && (
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary"
                      onClick={() =>
                        void run({
                          call: () => api.invites.resend(invite.id),
                          success: t('invites.resent', { email: invite.email }),
                          danger: t('invites.resendFailed', { email: invite.email }),
                          what: 'resend invite',
                        })
                      }
                    >
                      {t('invites.resend')}
                    </button>
                  )}
                  <DeleteButton onConfirm={() => remove(invite)} />
                </div>
              </td>
            </tr>
          );
        })}
        <EmptyRow columns={6} shown={rows.length} loading={invites.loading} text={filter ? t('invites.noMatch') : t('invites.none')} />
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
          title={t('invites.copyTitle')}
          staticBackdrop
          onClose={() => setLink(null)}
          footer={
            <button type="button" className="btn btn-primary" onClick={() => setLink(null)}>
              {t('people.ok')}
            </button>
          }
        >
          {link.sentTo ? <p>{t('people.linkSentTo', { email: link.sentTo })}</p> : <p>{t('invites.sendThisLink')}</p>}
          <CopyField value={link.link} label={t('invites.link')} />
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
  const t = useT();
  const form = useFormErrors();
  const options = useLoad(
    async () => {
      const [clients, apps, options] = await Promise.all([api.clients.list(), api.apps.all(), api.auth.options()]);
      // Mail is configured exactly when the server offers password reset.
      return { clients: clients.sort(byName), apps: apps.sort(byName), mail: options.passwordReset };
    },
    () => alerts.danger(t('invites.optionsFailed')),
  );
  const [email, setEmail] = useState('');
  const [clientId, setClientId] = useState(initialClient);
  const [appIds, setAppIds] = useState<number[]>([]);
  const [sendChoice, setSendChoice] = useState<boolean | null>(null);
  // The invitation mail's language; '' leaves it to the portal's DEFAULT_LANGUAGE.
  const [language, setLanguage] = useState<Language | ''>('');
  const { defaultLanguage } = useBranding();
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
      danger: t('invites.createFailed', { email }),
      what: 'create invite',
      onSuccess: onCreated,
      form,
    });
    setBusy(false);
  };

  return (
    <Modal title={t('invites.new')} onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy} />}>
      <div className="mb-3">
        <label className="form-label" htmlFor="invite-email">
          {t('login.email')}
        </label>
        <input
          id="invite-email"
          type="text"
          {...fieldProps(form, 'email')}
          placeholder={t('login.email')}
          value={email}
          autoFocus
          onChange={(event) => setEmail(event.target.value)}
        />
        <FieldFeedback form={form} field="email" />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="invite-client">
          {t('people.client')}
        </label>
        <select id="invite-client" {...fieldProps(form, 'clientid', 'form-select')} value={clientId} onChange={(event) => setClientId(event.target.value)}>
          <option value="">{t('invites.chooseClient')}</option>
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
            {t('invites.sendByMail')}
          </label>
        </div>
      )}
    </Modal>
  );
}
