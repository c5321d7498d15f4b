/** /registrationtokens (docs/product.md §2): Invites, New Invite, and the link to copy. */
import { useState } from 'react';
import { byName } from '@tools-portal/core/apps';
import type { App, Client, RegistrationToken } from '@tools-portal/core/entities';
import { api } from '../api';
import { useAlerts } from '../components/alerts';
import { CopyField } from '../components/copy-field';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ListPage } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { formatTimestamp } from '../logic/format';
import { sortRows } from '../logic/sort';

type Column = 'email' | 'sent';

export function Invites() {
  const alerts = useAlerts();
  const run = useAction();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort<Column>({ key: 'sent', direction: 'desc' });
  const [creating, setCreating] = useState(false);
  const [link, setLink] = useState<{ link: string; sentTo?: string } | null>(null);
  const invites = useLoad(
    () => api.invites.list(),
    () => alerts.danger('failed to load registration tokens'),
  );

  const rows = sortRows(
    filterRows(invites.data ?? [], filter, (invite) => [invite.email, invite.client?.name]),
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

  return (
    <>
      <ListPage
        title="Invites"
        filter={filter}
        onFilter={setFilter}
        action={{ label: 'New Invite', onClick: () => setCreating(true) }}
        head={
          <>
            <SortHeader column="email" sort={sort} onSort={onSort}>
              Email
            </SortHeader>
            <SortHeader column="sent" sort={sort} onSort={onSort}>
              Registration Timestamp
            </SortHeader>
            <DeleteHeader />
          </>
        }
      >
        {rows.map((invite) => (
          <tr key={invite.id}>
            <td className="text-break">{invite.email}</td>
            <td className="text-nowrap">{formatTimestamp(invite.sent_timestamp)}</td>
            <DeleteCell onConfirm={() => remove(invite)} />
          </tr>
        ))}
        <EmptyRow columns={3} shown={rows.length} loading={invites.loading} text="No invites." />
      </ListPage>
      {creating && (
        <NewInviteModal
          onClose={() => setCreating(false)}
          onCreated={async (created) => {
            setCreating(false);
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

function NewInviteModal({ onClose, onCreated }: { onClose: () => void; onCreated: (created: { link: string; sentTo?: string }) => Promise<void> }) {
  const alerts = useAlerts();
  const run = useAction();
  const options = useLoad(
    async () => {
      const [clients, apps, options] = await Promise.all([api.clients.list(), api.apps.all(), api.auth.options()]);
      // Mail is configured exactly when the server offers password reset.
      return { clients: clients.sort(byName), apps: apps.sort(byName), mail: options.passwordReset };
    },
    () => alerts.danger('failed to load clients or apps'),
  );
  const [email, setEmail] = useState('');
  const [clientId, setClientId] = useState('');
  const [appIds, setAppIds] = useState<number[]>([]);
  const [sendChoice, setSendChoice] = useState<boolean | null>(null);
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
        const invite = await api.invites.create({ email, clientid: Number(clientId), apps: appIds, ...(send ? { send: true } : {}) });
        return { link: invite.link, sentTo: send ? invite.email : undefined };
      },
      danger: `failed to create new registration token ${email}`,
      what: 'create invite',
      onSuccess: onCreated,
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
          className="form-control"
          placeholder="Email"
          value={email}
          autoFocus
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="invite-client">
          Client
        </label>
        <select id="invite-client" className="form-select" value={clientId} onChange={(event) => setClientId(event.target.value)}>
          <option value="">Choose a client…</option>
          {clients.map((client) => (
            <option key={client.id} value={client.id}>
              {client.name}
            </option>
          ))}
        </select>
      </div>
      <div className="mb-1">
        <label className="form-label" htmlFor="invite-apps">
          Apps
        </label>
        <select
          id="invite-apps"
          className="form-select"
          multiple
          size={5}
          value={appIds.map(String)}
          onChange={(event) => setAppIds([...event.target.selectedOptions].map((option) => Number(option.value)))}
        >
          {apps.map((app) => (
            <option key={app.id} value={app.id}>
              {app.name}
            </option>
          ))}
        </select>
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
