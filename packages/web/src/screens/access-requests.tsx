/**
 * /accessrequests, Access requests (admins; docs/api.md, Access requests): the open requests with
 * user, app, reason and age; Approve with an expiry choice, Deny with an optional reason; then
 * the last decided ones.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { AccessRequest } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { EmptyRow } from '../components/empty-row';
import { ExpiryChoice, expiryOf, type ExpiryChoiceValue } from '../components/expiry-choice';
import { ListTable } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { StatusBadge } from '../components/status-badge';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { formatAge, formatTimestamp } from '../logic/format';
import { paths } from '../paths';
import { useOpenRequests } from '../open-requests';
import { PageHeader } from '../components/page-header';

type Deciding = { kind: 'approve' | 'deny'; request: AccessRequest };

export function AccessRequests() {
  const requests = useLoad(
    () => api.accessRequests.list(),
    (error) => logFailure('load access requests', error),
  );
  const openCount = useOpenRequests();
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const open = (requests.data ?? []).filter((request) => request.status === 'open');
  const decided = (requests.data ?? []).filter((request) => request.status !== 'open');

  const onDecided = async () => {
    setDeciding(null);
    await requests.reload();
    await openCount.reload();
  };

  return (
    <>
      <PageHeader title="Access requests" lead="Users asking for apps: approve with an optional expiry, or deny with a reason." />
      <ListTable
        label="Open access requests"
        head={
          <>
            <th scope="col">User</th>
            <th scope="col">App</th>
            <th scope="col">Reason</th>
            <th scope="col">Age</th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">Decision</span>
            </th>
          </>
        }
      >
        {open.map((request) => (
          <tr key={request.id}>
            <td className="text-break">
              <Link to={paths.user(request.user.id)}>{request.user.email}</Link>
            </td>
            <td>
              <Link to={paths.app(request.app.id)}>{request.app.name}</Link>
            </td>
            <td className="text-break">{request.reason}</td>
            <td className="text-nowrap" title={formatTimestamp(request.createdTimestamp)}>
              {formatAge(request.createdTimestamp)}
            </td>
            <td>
              <div className="d-flex flex-wrap justify-content-end gap-2">
                <button
                  type="button"
                  className="btn btn-success btn-sm"
                  aria-label={`Approve ${request.user.email} for ${request.app.name}`}
                  onClick={() => setDeciding({ kind: 'approve', request })}
                >
                  Approve
                </button>
                <button
                  type="button"
                  className="btn btn-outline-danger btn-sm"
                  aria-label={`Deny ${request.user.email} for ${request.app.name}`}
                  onClick={() => setDeciding({ kind: 'deny', request })}
                >
                  Deny
                </button>
              </div>
            </td>
          </tr>
        ))}
        <EmptyRow columns={5} shown={open.length} loading={requests.loading} text="No open requests." />
      </ListTable>

      <h2 className="h5 mt-4">Decided</h2>
      <ListTable
        label="Decided access requests"
        head={
          <>
            <th scope="col">User</th>
            <th scope="col">App</th>
            <th scope="col">Status</th>
            <th scope="col" className="d-none d-md-table-cell">
              Decided
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              By
            </th>
          </>
        }
      >
        {decided.map((request) => (
          <tr key={request.id}>
            <td className="text-break">{request.user.email}</td>
            <td>{request.app.name}</td>
            <td>
              <StatusBadge status={request.status} />
              {request.decision && <div className="small text-secondary text-break">{request.decision}</div>}
            </td>
            <td className="d-none d-md-table-cell text-nowrap">{formatTimestamp(request.decidedTimestamp)}</td>
            <td className="d-none d-md-table-cell text-break">{request.decidedBy}</td>
          </tr>
        ))}
        <EmptyRow columns={5} shown={decided.length} loading={requests.loading} text="Nothing decided yet." />
      </ListTable>

      {deciding?.kind === 'approve' && <ApproveDialog request={deciding.request} onClose={() => setDeciding(null)} onDone={onDecided} />}
      {deciding?.kind === 'deny' && <DenyDialog request={deciding.request} onClose={() => setDeciding(null)} onDone={onDecided} />}
    </>
  );
}

interface DecisionProps {
  request: AccessRequest;
  onClose: () => void;
  onDone: () => Promise<void>;
}

function ApproveDialog({ request, onClose, onDone }: DecisionProps) {
  const run = useAction();
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const approve = async () => {
    const expires = expiryOf(expiry);
    if (expires === null) return;
    setBusy(true);
    await run({
      call: () => api.accessRequests.approve(request.id, expires),
      success: `approved ${request.app.name} for ${request.user.email}`,
      danger: `failed to approve ${request.app.name} for ${request.user.email}`,
      what: 'approve access request',
      onSuccess: onDone,
    });
    setBusy(false);
  };
  return (
    <Modal
      title="Approve access"
      onClose={onClose}
      onSubmit={() => void approve()}
      footer={<FormFooter onCancel={onClose} disabled={busy} submitLabel="Approve" />}
    >
      <p>
        Grant <strong>{request.app.name}</strong> to <strong className="text-break">{request.user.email}</strong>.
      </p>
      <ExpiryChoice value={expiry} onChange={setExpiry} label="Access expires" />
    </Modal>
  );
}

function DenyDialog({ request, onClose, onDone }: DecisionProps) {
  const run = useAction();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const deny = async () => {
    setBusy(true);
    await run({
      call: () => api.accessRequests.deny(request.id, reason),
      success: `denied ${request.app.name} for ${request.user.email}`,
      danger: `failed to deny ${request.app.name} for ${request.user.email}`,
      what: 'deny access request',
      onSuccess: onDone,
    });
    setBusy(false);
  };
  return (
    <Modal title="Deny access" onClose={onClose} onSubmit={() => void deny()} footer={<FormFooter onCancel={onClose} disabled={busy} submitLabel="Deny" />}>
      <p>
        Deny <strong>{request.app.name}</strong> to <strong className="text-break">{request.user.email}</strong>.
      </p>
      <label className="form-label" htmlFor="deny-reason">
        Reason (optional, shown to the user)
      </label>
      <textarea id="deny-reason" className="form-control" rows={2} maxLength={2000} value={reason} onChange={(event) => setReason(event.target.value)} />
    </Modal>
  );
}
