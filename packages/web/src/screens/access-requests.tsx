/**
 * /accessrequests, Access requests (admins; docs/api.md, Access requests): the open requests with
 * user, app, reason and age; Approve with an expiry choice, Deny with an optional reason; then
 * the last decided ones.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
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
import type { MessageKey } from '../i18n/en';
import { useT } from '../i18n/use-t';

type Deciding = { kind: 'approve' | 'deny'; request: AccessRequest };

export function AccessRequests() {
  const t = useT();
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
      <PageHeader title={t('nav.accessRequests')} lead={t('accessRequests.lead')} />
      <ListTable
        label={t('accessRequests.open')}
        head={
          <>
            <th scope="col">{t('accessRequests.user')}</th>
            <th scope="col">{t('accessRequests.app')}</th>
            <th scope="col">{t('accessRequests.reason')}</th>
            <th scope="col">{t('accessRequests.age')}</th>
            <th scope="col" className="text-end">
              <span className="visually-hidden">{t('accessRequests.decision')}</span>
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
                  aria-label={t('accessRequests.approveFor', { email: request.user.email, app: request.app.name })}
                  onClick={() => setDeciding({ kind: 'approve', request })}
                >
                  {t('accessRequests.approve')}
                </button>
                <button
                  type="button"
                  className="btn btn-outline-danger btn-sm"
                  aria-label={t('accessRequests.denyFor', { email: request.user.email, app: request.app.name })}
                  onClick={() => setDeciding({ kind: 'deny', request })}
                >
                  {t('accessRequests.deny')}
                </button>
              </div>
            </td>
          </tr>
        ))}
        <EmptyRow columns={5} shown={open.length} loading={requests.loading} text={t('accessRequests.noOpen')} />
      </ListTable>

      <h2 className="h5 mt-4">{t('accessRequests.decided')}</h2>
      <ListTable
        label={t('accessRequests.decidedTable')}
        head={
          <>
            <th scope="col">{t('accessRequests.user')}</th>
            <th scope="col">{t('accessRequests.app')}</th>
            <th scope="col">{t('accessRequests.status')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('accessRequests.decided')}
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('accessRequests.by')}
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
        <EmptyRow columns={5} shown={decided.length} loading={requests.loading} text={t('accessRequests.noneDecided')} />
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

/** "Grant {app} to {email}." with both names in bold. */
function DecisionText({ kind, request }: { kind: Deciding['kind']; request: AccessRequest }) {
  const intl = useIntl();
  const id: MessageKey = kind === 'approve' ? 'accessRequests.grant' : 'accessRequests.denyText';
  return (
    <p>
      {intl.formatMessage(
        { id },
        {
          app: <strong key="app">{request.app.name}</strong>,
          email: (
            <strong key="email" className="text-break">
              {request.user.email}
            </strong>
          ),
        },
      )}
    </p>
  );
}

function ApproveDialog({ request, onClose, onDone }: DecisionProps) {
  const run = useAction();
  const t = useT();
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [busy, setBusy] = useState(false);
  const approve = async () => {
    const expires = expiryOf(expiry);
    if (expires === null) return;
    setBusy(true);
    await run({
      call: () => api.accessRequests.approve(request.id, expires),
      success: t('owned.approved', { app: request.app.name, email: request.user.email }),
      danger: t('owned.approveFailed', { app: request.app.name, email: request.user.email }),
      what: 'approve access request',
      onSuccess: onDone,
    });
    setBusy(false);
  };
  return (
    <Modal
      title={t('accessRequests.approveTitle')}
      onClose={onClose}
      onSubmit={() => void approve()}
      footer={<FormFooter onCancel={onClose} disabled={busy} submitLabel={t('accessRequests.approve')} />}
    >
      <DecisionText kind="approve" request={request} />
      <ExpiryChoice value={expiry} onChange={setExpiry} label={t('accessRequests.accessExpires')} />
    </Modal>
  );
}

function DenyDialog({ request, onClose, onDone }: DecisionProps) {
  const run = useAction();
  const t = useT();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const deny = async () => {
    setBusy(true);
    await run({
      call: () => api.accessRequests.deny(request.id, reason),
      success: t('owned.denied', { app: request.app.name, email: request.user.email }),
      danger: t('owned.denyFailed', { app: request.app.name, email: request.user.email }),
      what: 'deny access request',
      onSuccess: onDone,
    });
    setBusy(false);
  };
  return (
    <Modal
      title={t('accessRequests.denyTitle')}
      onClose={onClose}
      onSubmit={() => void deny()}
      footer={<FormFooter onCancel={onClose} disabled={busy} submitLabel={t('accessRequests.deny')} />}
    >
      <DecisionText kind="deny" request={request} />
      <label className="form-label" htmlFor="deny-reason">
        {t('accessRequests.denyReason')}
      </label>
      <textarea id="deny-reason" className="form-control" rows={2} maxLength={2000} value={reason} onChange={(event) => setReason(event.target.value)} />
    </Modal>
  );
}
