/** /accesstokens (docs/product.md §2): the user's own API keys, masked; a new key is made here and shown once. */
import { useState } from 'react';
import { generateApiKey, maskApiKey } from '@tools-portal/core/api-keys';
import type { AccessToken } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
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

export function AccessTokens() {
  const run = useAction();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort({ key: 'lastUsed', direction: 'desc' });
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
      <ListPage
        title="Access Tokens"
        filter={filter}
        onFilter={setFilter}
        action={{ label: 'New API Key', onClick: () => setNewKey(generateApiKey()) }}
        head={
          <>
            <th scope="col">Token</th>
            <SortHeader column="lastUsed" sort={sort} onSort={onSort}>
              Timestamp
            </SortHeader>
            <DeleteHeader />
          </>
        }
      >
        {rows.map((token) => (
          <tr key={token.id}>
            <td className="font-monospace text-break">{token.token}</td>
            <td className="text-nowrap" title="last used">
              {token.lastUsedTimestamp ? formatTimestamp(token.lastUsedTimestamp) : 'never used'}
            </td>
            <DeleteCell onConfirm={() => remove(token)} />
          </tr>
        ))}
        <EmptyRow columns={3} shown={rows.length} loading={tokens.loading} text="No API keys yet." />
      </ListPage>
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
