import type { AccessRequestStatus } from '@tools-portal/core/entities';

const STYLE: Record<AccessRequestStatus, string> = { open: 'text-bg-warning', approved: 'text-bg-success', denied: 'text-bg-danger' };

/** An access request's status as a badge. */
export function StatusBadge({ status }: { status: AccessRequestStatus }) {
  return <span className={`badge ${STYLE[status]}`}>{status}</span>;
}
