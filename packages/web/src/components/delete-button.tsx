/**
 * docs/product.md §4: Delete, then Really? to confirm; the button resets afterwards, when left,
 * and after 5 seconds. Really? names what else goes ("Really? Also deletes 3 users") when the
 * screen can tell (`consequence`, asked when the button arms).
 */
import { useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/use-t';

const ARMED_MS = 5000;

interface DeleteButtonProps {
  onConfirm: () => unknown;
  label?: string;
  className?: string;
  /** What the deletion takes along, e.g. "Also deletes 3 users"; null when nothing. */
  consequence?: () => Promise<string | null>;
}

export function DeleteButton({ onConfirm, label, className = '', consequence }: DeleteButtonProps) {
  const [armed, setArmed] = useState(false);
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [extra, setExtra] = useState<string | null>(null);
  const asked = useRef(0);

  useEffect(() => {
    if (!armed) return;
    const timer = setTimeout(() => setArmed(false), ARMED_MS);
    return () => clearTimeout(timer);
  }, [armed]);

  const click = async () => {
    if (!armed) {
      setArmed(true);
      setExtra(null);
      if (consequence) {
        const mine = ++asked.current;
        const text = await consequence().catch(() => null);
        if (mine === asked.current) setExtra(text);
      }
      return;
    }
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setArmed(false);
    }
  };

  return (
    <button
      type="button"
      className={`btn btn-sm ${armed ? 'btn-danger' : 'btn-outline-danger'} ${className}`.trim()}
      disabled={busy}
      onClick={() => void click()}
      onBlur={() => setArmed(false)}
    >
      {armed ? (extra ? t('common.reallyWith', { consequence: extra }) : t('common.really')) : (label ?? t('common.delete'))}
    </button>
  );
}

/** The Delete column of a list: its header cell. */
export function DeleteHeader() {
  const t = useT();
  return (
    <th scope="col" className="text-end">
      {t('common.delete')}
    </th>
  );
}

/** The Delete column of a list: the cell of one row. */
export function DeleteCell({ onConfirm, consequence }: { onConfirm: () => unknown; consequence?: () => Promise<string | null> }) {
  return (
    <td className="text-end">
      <DeleteButton onConfirm={onConfirm} consequence={consequence} />
    </td>
  );
}
