/** The confirmation of a deletion that takes much along: the thing's name typed, then a danger button. */
import { useState } from 'react';
import { useT } from '../i18n/use-t';
import { Modal } from './modal';

interface TypeToDeleteProps {
  title: string;
  /** What must be typed. */
  name: string;
  /** How the prompt calls it, in the reader's language: "the client's name". */
  what: string;
  consequence: string;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}

export function TypeToDelete({ title, name, what, consequence, onClose, onConfirm }: TypeToDeleteProps) {
  const t = useT();
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const matches = typed.trim() === name;

  const confirm = async () => {
    if (!matches) return;
    setBusy(true);
    await onConfirm();
    setBusy(false);
  };

  return (
    <Modal
      title={title}
      onClose={onClose}
      onSubmit={() => void confirm()}
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn-danger" disabled={!matches || busy}>
            {t('common.delete')}
          </button>
        </>
      }
    >
      <p>{consequence}</p>
      <label className="form-label" htmlFor="type-to-delete">
        {t('typeToDelete.prompt', { what })} <strong className="text-break">{name}</strong>
      </label>
      <input
        id="type-to-delete"
        type="text"
        className="form-control"
        autoComplete="off"
        value={typed}
        autoFocus
        onChange={(event) => setTyped(event.target.value)}
      />
    </Modal>
  );
}
