/**
 * /accesstokens (docs/product.md §2): the user's own API keys, masked, with name, expiry and last
 * use; a new key is made here, optionally named and expiring, and shown once.
 */
import { useState } from 'react';
import { generateApiKey, maskApiKey } from '@tools-portal/core/api-keys';
import type { AccessToken } from '@tools-portal/core/entities';
import { ApiError } from '@tools-portal/core/errors';
import { api, logFailure } from '../api';
import { useAlerts } from '../components/alerts';
import { CopyField } from '../components/copy-field';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ExpiryChoice, expiryOf, type ExpiryChoiceValue } from '../components/expiry-choice';
import { ListPage } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { SortHeader, useSort } from '../components/sort-header';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { useLanguage } from '../i18n/language';
import { useT } from '../i18n/use-t';
import { formatTimestamp } from '../logic/format';
import { sortRows } from '../logic/sort';

const MAX_NAME_LENGTH = 200;

export function AccessTokens() {
  const run = useAction();
  const t = useT();
  const [filter, setFilter] = useState('');
  const [sort, onSort] = useSort({ key: 'lastUsed', direction: 'desc' });
  const [newKey, setNewKey] = useState<string | null>(null);
  const tokens = useLoad(
    () => api.accessTokens.list(),
    (error) => logFailure('load access tokens', error),
  );

  const rows = sortRows(
    filterRows(tokens.data ?? [], filter, (token) => [token.token, token.name ?? '']),
    (token) => token.lastUsedTimestamp,
    sort.direction,
  );

  const remove = (token: AccessToken) =>
    run({
      call: () => api.accessTokens.delete(token.id),
      success: t('tokens.deleted', { token: token.token }),
      danger: t('tokens.deleteFailed', { token: token.token }),
      what: 'delete access token',
      onSuccess: tokens.reload,
    });

  return (
    <>
      <ListPage
        title={t('nav.accessTokens')}
        lead={t('tokens.lead')}
        filter={filter}
        onFilter={setFilter}
        action={{ label: t('tokens.new'), onClick: () => setNewKey(generateApiKey()) }}
        head={
          <>
            <th scope="col">{t('tokens.token')}</th>
            <th scope="col">{t('account.passkeys.name')}</th>
            <th scope="col">{t('tokens.expires')}</th>
            <SortHeader column="lastUsed" sort={sort} onSort={onSort}>
              {t('tokens.timestamp')}
            </SortHeader>
            <DeleteHeader />
          </>
        }
      >
        {rows.map((token) => (
          <tr key={token.id}>
            <td className="font-monospace text-break">{token.token}</td>
            <td className="text-break">{token.name ?? ''}</td>
            <td className="text-nowrap">
              <Expiry iso={token.expiresTimestamp} />
            </td>
            <td className="text-nowrap" title={t('tokens.lastUsed')}>
              {token.lastUsedTimestamp ? formatTimestamp(token.lastUsedTimestamp) : t('tokens.neverUsed')}
            </td>
            <DeleteCell onConfirm={() => remove(token)} />
          </tr>
        ))}
        <EmptyRow columns={5} shown={rows.length} loading={tokens.loading} text={t('tokens.none')} />
      </ListPage>
      {newKey && (
        <NewKeyModal
          newKey={newKey}
          onDone={async () => {
            setNewKey(null);
            await tokens.reload();
          }}
        />
      )}
    </>
  );
}

/** When a key stops working; an expired one says so (it answers 401 until deleted). */
function Expiry({ iso }: { iso: string | null }) {
  const t = useT();
  if (!iso) return <>{t('tokens.never')}</>;
  const expired = Date.parse(iso) <= Date.now();
  return (
    <>
      {formatTimestamp(iso)}
      {expired && <span className="badge text-bg-danger ms-2">{t('tokens.expired')}</span>}
    </>
  );
}

/**
 * The new key, shown once, with an optional name and expiry. The dialog closes and the list reloads
 * either way, except when the server refuses the name or the expiry: then its reason shows next to
 * that field and the dialog stays.
 */
function NewKeyModal({ newKey, onDone }: { newKey: string; onDone: () => Promise<void> }) {
  const alerts = useAlerts();
  const t = useT();
  const { language } = useLanguage();
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [problem, setProblem] = useState<{ field: 'name' | 'expires'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Alerts show the masked form, like the list: the full key is shown once, in the dialog.
  const masked = maskApiKey(newKey);

  const create = async () => {
    const expires = expiryOf(expiry);
    if (expires === null) return;
    const input = { ...(name.trim() ? { name } : {}), ...(expires ? { expires } : {}) };
    setBusy(true);
    setProblem(null);
    try {
      await api.accessTokens.create(newKey, Object.keys(input).length > 0 ? input : undefined);
      alerts.success(t('tokens.created', { token: masked }));
      await onDone();
    } catch (error) {
      logFailure('create access token', error);
      alerts.danger(t('tokens.createFailed', { token: masked }));
      const field = error instanceof ApiError && error.code === 'invalid_input' ? error.details.field : undefined;
      if (field === 'name' || field === 'expires') {
        // The server's reason in English; otherwise the web's words name the field (i18n/error-words.ts).
        const fieldName = field === 'name' ? t('account.passkeys.name') : t('tokens.expires');
        setProblem({ field, message: language === 'en' ? (error as ApiError).message : t('error.invalidField', { field: fieldName }) });
        setBusy(false);
      } else {
        await onDone();
      }
    }
  };

  return (
    <Modal
      title={t('tokens.new')}
      size="lg"
      onClose={() => void onDone()}
      onSubmit={() => void create()}
      footer={<FormFooter onCancel={() => void onDone()} submitLabel={t('tokens.create')} disabled={busy} />}
    >
      <p>{t('tokens.copyNow')}</p>
      <CopyField value={newKey} label={t('tokens.newKey')} />
      <div className="mt-3">
        <label className="form-label" htmlFor="api-key-name">
          {t('tokens.name')}
        </label>
        <input
          id="api-key-name"
          type="text"
          className={`form-control ${problem?.field === 'name' ? 'is-invalid' : ''}`.trim()}
          maxLength={MAX_NAME_LENGTH}
          placeholder={t('tokens.namePlaceholder')}
          value={name}
          aria-describedby={problem?.field === 'name' ? 'api-key-name-problem' : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        {problem?.field === 'name' && (
          <div id="api-key-name-problem" className="invalid-feedback d-block">
            {problem.message}
          </div>
        )}
      </div>
      <div className="mt-3">
        <span className="form-label d-block">{t('tokens.expires')}</span>
        <ExpiryChoice value={expiry} onChange={setExpiry} label={t('tokens.keyExpires')} />
        {problem?.field === 'expires' && <div className="invalid-feedback d-block">{problem.message}</div>}
        <p className="form-text mb-0">{t('tokens.expiresHelp')}</p>
      </div>
    </Modal>
  );
}
