/** Modals New App and Edit App (SPEC section 2): name, url, description, doclink, sent as entered. */
import { useState } from 'react';
import type { App } from '@tools-portal/core/entities';
import type { AppInput } from '@tools-portal/core/validation';
import { api } from '../api';
import { FormFooter, Modal } from './modal';
import { useAction } from './use-action';

export type AppFormMode = { kind: 'new' } | { kind: 'edit'; app: App };

const FIELDS: { key: keyof AppInput; label: string }[] = [
  { key: 'name', label: 'app name' },
  { key: 'url', label: 'app url' },
  { key: 'description', label: 'app description' },
  { key: 'doclink', label: 'link to the documentation' },
];

export function AppFormModal({ mode, onClose, onSaved }: { mode: AppFormMode; onClose: () => void; onSaved: () => Promise<void> }) {
  const run = useAction();
  const initial = mode.kind === 'edit' ? mode.app : { name: '', url: '', description: '', doclink: '' };
  const [values, setValues] = useState<AppInput>({
    name: initial.name,
    url: initial.url,
    description: initial.description,
    doclink: initial.doclink,
  });
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    await run({
      call: () => (mode.kind === 'edit' ? api.apps.update({ ...values, id: mode.app.id }) : api.apps.create(values)),
      success: (saved) => `created new app ${saved.name}`,
      // SPEC section 8 keeps the original's wording for this failure, word for word.
      danger: 'failed to create new client undefined',
      what: 'save app',
      onSuccess: onSaved,
    });
    setBusy(false);
  };

  return (
    <Modal
      title={mode.kind === 'edit' ? 'Edit App' : 'New App'}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy} />}
    >
      {FIELDS.map((field) => (
        <div className="mb-3" key={field.key}>
          <label className="form-label" htmlFor={`app-${field.key}`}>
            {field.label}
          </label>
          <input
            id={`app-${field.key}`}
            type="text"
            className="form-control"
            placeholder={field.label}
            value={values[field.key] ?? ''}
            onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
          />
        </div>
      ))}
    </Modal>
  );
}
