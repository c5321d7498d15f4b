/** The reason dialog of a request for access (docs/api.md, Access requests). */
import { useState } from 'react';
import type { RequestableApp } from '@tools-portal/core/entities';
import { api } from '../api';
import { useT } from '../i18n/use-t';
import { FormFooter, Modal } from './modal';
import { useAction } from './use-action';

export function RequestDialog({
  app,
  onClose,
  onRequested,
}: {
  app: Pick<RequestableApp, 'id' | 'name'>;
  onClose: () => void;
  onRequested: () => Promise<void>;
}) {
  const run = useAction();
  const t = useT();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    await run({
      call: () => api.accessRequests.create({ appid: app.id, reason }),
      success: t('requests.sent', { name: app.name }),
      danger: t('requests.failed', { name: app.name }),
      what: 'request access',
      onSuccess: onRequested,
    });
    setBusy(false);
  };
  return (
    <Modal
      title={t('requests.requestTo', { name: app.name })}
      onClose={onClose}
      onSubmit={() => void send()}
      footer={<FormFooter onCancel={onClose} disabled={busy} submitLabel={t('requests.send')} />}
    >
      <label className="form-label" htmlFor="request-reason">
        {t('requests.why')}
      </label>
      <textarea id="request-reason" className="form-control" rows={3} maxLength={2000} value={reason} onChange={(event) => setReason(event.target.value)} />
      <div className="form-text">{t('requests.whyHelp')}</div>
    </Modal>
  );
}
