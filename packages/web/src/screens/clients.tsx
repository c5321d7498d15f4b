/** /clients (SPEC section 2): filter (3 of 12 columns), the client table (9 of 12), New Client. */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { byName, type Client } from '@tools-portal/core';
import { api, logFailure } from '../api';
import { DeleteButton } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { FilterBox } from '../components/filter-box';
import { FormFooter, Modal } from '../components/modal';
import { SortHeader } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { nextSort, sortRows, type SortState } from '../logic/sort';
import { paths } from '../paths';

export function Clients() {
  const run = useAction();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState<'name'>>({ key: 'name', direction: 'asc' });
  const [creating, setCreating] = useState(false);
  const clients = useLoad(async () => (await api.clients.list()).sort(byName), (error) => logFailure('load clients', error));

  const rows = sortRows(filterRows(clients.data ?? [], filter, (client) => [client.name]), (client) => client.name, sort.direction);

  const remove = (client: Client) =>
    run({
      call: () => api.clients.delete(client.id),
      success: `deleted client ${client.name}`,
      danger: `failed to delete client ${client.name}`,
      what: 'delete client',
      onSuccess: clients.reload,
    });

  return (
    <>
      <div className="row g-3">
        <div className="col-12 col-md-3">
          <FilterBox value={filter} onChange={setFilter} />
        </div>
        <div className="col-12 col-md-9">
          <div className="d-flex align-items-center mb-2">
            <h1 className="h3 me-auto mb-0">Clients</h1>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setCreating(true)}>
              New Client
            </button>
          </div>
          <div className="table-responsive">
            <table className="table table-hover align-middle" aria-label="Clients">
              <thead>
                <tr>
                  <SortHeader column="name" sort={sort} onSort={(key) => setSort(nextSort(sort, key))}>
                    Client Name
                  </SortHeader>
                  <th scope="col" className="text-end">
                    Delete
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((client) => (
                  <tr key={client.id}>
                    <td>
                      <Link to={paths.client(client.id)}>{client.name}</Link>
                    </td>
                    <td className="text-end">
                      <DeleteButton onConfirm={() => remove(client)} />
                    </td>
                  </tr>
                ))}
                <EmptyRow columns={2} shown={rows.length} loading={clients.loading} text="No clients." />
              </tbody>
            </table>
          </div>
        </div>
      </div>
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

function NewClientModal({ onClose, onCreated }: { onClose: () => void; onCreated: () => Promise<void> }) {
  const run = useAction();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    await run({
      call: () => api.clients.create(name),
      success: `created new client ${name}`,
      danger: `failed to create new client ${name}`,
      what: 'create client',
      onSuccess: onCreated,
    });
    setBusy(false);
  };

  return (
    <Modal
      title="New Client"
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy} />}
    >
      <label className="visually-hidden" htmlFor="client-name">
        Client name
      </label>
      <input
        id="client-name"
        type="text"
        className="form-control"
        placeholder="Enter the client name"
        value={name}
        autoFocus
        onChange={(event) => setName(event.target.value)}
      />
    </Modal>
  );
}
