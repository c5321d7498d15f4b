import type { AccessRequestStatus } from '@tools-portal/core/entities';
import type { MessageKey } from '../i18n/en';
import { useT } from '../i18n/use-t';

const STYLE: Record<AccessRequestStatus, string> = { open: 'text-bg-warning', approved: 'text-bg-success', denied: 'text-bg-danger' };

/** An access request's status as a badge. */
const WORDS = { open: 'status.open', approved: 'status.approved', denied: 'status.denied' } as const satisfies Record<AccessRequestStatus, MessageKey>;

export function StatusBadge({ status }: { status: AccessRequestStatus }) {
  const t = useT();
  return <span className={`badge ${STYLE[status]}`}>{t(WORDS[status])}</span>;
}
