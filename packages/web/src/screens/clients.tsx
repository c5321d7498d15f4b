/** /clients (docs/product.md §2): filter (3 of 12 columns), the client table (9 of 12), New Client. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import type { Client } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ListPage } from '../components/list-page';
import { FieldFeedback, fieldProps, useFormErrors } from '../components/form-errors';
import { FormFooter, Modal } from '../components/modal';
import { TypeToDelete } from '../components/type-to-delete';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { useT, type Translate } from '../i18n/use-t';
import { sortRows } from '../logic/sort';
import { paths } from '../paths';

export function Clients() {
  const run = useAction();
  const t = useT();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort({ key: 'name', direction: 'asc' });
  const [creating, setCreating] = useState(false);
  const clients = useLoad(
    async () => (await api.clients.list()).sort(byName),
    (error) => logFailure('load clients', error),
  );

  const rows = sortRows(
    filterRows(clients.data ?? [], filter, (client) => [client.name]),
    (client) => client.name,
    sort.direction,
  );

  const [confirming, setConfirming] = useState<{ client: Client; users: number } | null>(null);

  const remove = (client: Client) =>
    run({
      call: () => api.clients.delete(client.id),
      success: t('clients.deleted', { name: client.name }),
      danger: t('clients.deleteFailed', { name: client.name }),
      what: 'delete client',
      onSuccess: clients.reload,
    });

  // A client with users goes only once its name is typed: deleting it deletes them all.
  const removeOrAsk = async (client: Client) => {
    const users = await countUsers(client.id);
    if (users > 0) setConfirming({ client, users });
    else await remove(client);
  };

  return (
    <>
      <ListPage
        title={t('nav.clients')}
        lead={t('clients.lead')}
        filter={filter}
        onFilter={setFilter}
        action={{ label: t('clients.new'), onClick: () => setCreating(true) }}
        head={
          <>
            <SortHeader column="name" sort={sort} onSort={onSort}>
              {t('clients.name')}
            </SortHeader>
            <DeleteHeader />
          </>
        }
      >
        {rows.map((client) => (
          <tr key={client.id}>
            <td>
              <Link to={paths.client(client.id)}>{client.name}</Link>
            </td>
            <DeleteCell onConfirm={() => removeOrAsk(client)} consequence={() => clientDeletionConsequence(client.id, t)} />
          </tr>
        ))}
        <EmptyRow columns={2} shown={rows.length} loading={clients.loading} text={t('clients.none')} />
      </ListPage>
      {confirming && (
        <TypeToDelete
          title={t('clients.deleteTitle', { name: confirming.client.name })}
          name={confirming.client.name}
          what={t('clients.nameToType')}
          consequence={t('clients.deleteConsequence', { count: confirming.users })}
          onClose={() => setConfirming(null)}
          onConfirm={async () => {
            const ok = await remove(confirming.client);
            if (ok) setConfirming(null);
          }}
        />
      )}
      {creating && (
        <NewClientModal
          onClose={() => setCreating(false)}
          onCreated={async () => {
            setCreating(false);
            await clients.reload();
          }}
        />
      )}
    </>
  );
}

async function countUsers(id: number): Promise<number> {
  return (await api.clients.users(id)).length;
}

/** What deleting a client takes along (docs/product.md, Deleting): its users. */
async function clientDeletionConsequence(id: number, t: Translate): Promise<string | null> {
  const count = await countUsers(id);
  return count === 0 ? null : t('clients.alsoDeletes', { count });
}

function NewClientModal({ onClose, onCreated }: { onClose: () => void; onCreated: () => Promise<void> }) {
  const run = useAction();
  const t = useT();
  const form = useFormErrors();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    await run({
      call: () => api.clients.create(name),
      success: t('clients.created', { name }),
      danger: t('clients.createFailed', { name }),
      what: 'create client',
      onSuccess: onCreated,
      form,
    });
    setBusy(false);
  };

  return (
    <Modal title={t('clients.new')} onClose={onClose} onSubmit={() => void save()} footer={<FormFooter onCancel={onClose} disabled={busy} />}>
      <label className="visually-hidden" htmlFor="client-name">
        {t('clients.nameLabel')}
      </label>
      <input
        id="client-name"
        type="text"
        {...fieldProps(form, 'name')}
        placeholder={t('clients.namePlaceholder')}
        value={name}
        autoFocus
        onChange={(event) => setName(event.target.value)}
      />
      <FieldFeedback form={form} field="name" />
    </Modal>
  );
}
