/** /accesstokens (SPEC section 2): the user's own API keys, masked; a new key is made here and shown once. */
import { useState } from 'react';
import { generateApiKey, maskApiKey, type AccessToken } from '@tools-portal/core';
import { api, logFailure } from '../api';
import { CopyField } from '../components/copy-field';
import { DeleteButton } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { FilterBox } from '../components/filter-box';
import { FormFooter, Modal } from '../components/modal';
import { SortHeader } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { formatTimestamp } from '../logic/format';
import { nextSort, sortRows, type SortState } from '../logic/sort';

export function AccessTokens() {
  const run = useAction();
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState<'lastUsed'>>({ key: 'lastUsed', direction: 'desc' });
  const [newKey, setNewKey] = useState<string | null>(null);
  const tokens = useLoad(() => api.accessTokens.list(), (error) => logFailure('load access tokens', error));

  const rows = sortRows(filterRows(tokens.data ?? [], filter, (token) => [token.token]), (token) => token.lastUsedTimestamp, sort.direction);

  const remove = (token: AccessToken) =>
    run({
      call: () => api.accessTokens.delete(token.id),
      success: `deleted access token ${token.token}`,
      danger: `failed to delete access token ${token.token}`,
      what: 'delete access token',
      onSuccess: tokens.reload,
    });

  const create = async (key: string) => {
    // Alerts show the masked form, like the list: the full key is shown once, in the dialog.
    const masked = maskApiKey(key);
    await run({
      call: () => api.accessTokens.create(key),
      success: `created new access token ${masked}`,
      danger: `failed to create new access token ${masked}`,
      what: 'create access token',
    });
    // The dialog closes and the list reloads either way.
    setNewKey(null);
    await tokens.reload();
  };

  return (
    <>
      <div className="row g-3">
        <div className="col-12 col-md-3">
          <FilterBox value={filter} onChange={setFilter} />
        </div>
        <div className="col-12 col-md-9">
          <div className="d-flex align-items-center mb-2">
            <h1 className="h3 me-auto mb-0">Access Tokens</h1>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => setNewKey(generateApiKey())}>
              New API Key
            </button>
          </div>
          <div className="table-responsive">
            <table className="table table-hover align-middle" aria-label="Access Tokens">
              <thead>
                <tr>
                  <th scope="col">Token</th>
                  <SortHeader column="lastUsed" sort={sort} onSort={(key) => setSort(nextSort(sort, key))}>
                    Timestamp
                  </SortHeader>
                  <th scope="col" className="text-end">
                    Delete
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((token) => (
                  <tr key={token.id}>
                    <td className="font-monospace text-break">{token.token}</td>
                    <td className="text-nowrap" title="last used">
                      {token.lastUsedTimestamp ? formatTimestamp(token.lastUsedTimestamp) : 'never used'}
                    </td>
                    <td className="text-end">
                      <DeleteButton onConfirm={() => remove(token)} />
                    </td>
                  </tr>
                ))}
                <EmptyRow columns={3} shown={rows.length} loading={tokens.loading} text="No API keys yet." />
              </tbody>
            </table>
          </div>
        </div>
      </div>
      {newKey && (
        <Modal
          title="New API Key"
          size="lg"
          onClose={() => setNewKey(null)}
          onSubmit={() => void create(newKey)}
          footer={<FormFooter onCancel={() => setNewKey(null)} submitLabel="Create API Key" />}
        >
          <p>Copy this key now and keep it safe: it is shown only once. It becomes valid when you press Create API Key.</p>
          <CopyField value={newKey} label="New API key" />
        </Modal>
      )}
    </>
  );
}
