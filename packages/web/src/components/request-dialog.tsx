/** The reason dialog of a request for access (docs/api.md, Access requests). */
import { useState } from 'react';
import type { RequestableApp } from '@tools-portal/core/entities';
import { api } from '../api';
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
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    await run({
      call: () => api.accessRequests.create({ appid: app.id, reason }),
      success: `requested access to ${app.name}`,
      danger: `failed to request access to ${app.name}`,
      what: 'request access',
      onSuccess: onRequested,
    });
    setBusy(false);
  };
  return (
    <Modal
      title={`Request access to ${app.name}`}
      onClose={onClose}
      onSubmit={() => void send()}
      footer={<FormFooter onCancel={onClose} disabled={busy} submitLabel="Send request" />}
    >
      <label className="form-label" htmlFor="request-reason">
        Why do you need it?
      </label>
      <textarea id="request-reason" className="form-control" rows={3} maxLength={2000} value={reason} onChange={(event) => setReason(event.target.value)} />
      <div className="form-text">An admin will read it and approve or deny your request.</div>
    </Modal>
  );
}
