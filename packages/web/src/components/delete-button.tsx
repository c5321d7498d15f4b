/** docs/product.md §4: Delete, then Really? to confirm; the button resets afterwards or when left. */
import { useState } from 'react';

interface DeleteButtonProps {
  onConfirm: () => unknown;
  label?: string;
  className?: string;
}

export function DeleteButton({ onConfirm, label = 'Delete', className = '' }: DeleteButtonProps) {
  const [armed, setArmed] = useState(false);
  const [busy, setBusy] = useState(false);

  const click = async () => {
    if (!armed) {
      setArmed(true);
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
      {armed ? 'Really?' : label}
    </button>
  );
}

/** The Delete column of a list: its header cell. */
export function DeleteHeader() {
  return (
    <th scope="col" className="text-end">
      Delete
    </th>
  );
}

/** The Delete column of a list: the cell of one row. */
export function DeleteCell({ onConfirm }: { onConfirm: () => unknown }) {
  return (
    <td className="text-end">
      <DeleteButton onConfirm={onConfirm} />
    </td>
  );
}
