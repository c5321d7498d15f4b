/**
 * Modals New App and Edit App (docs/product.md §2): name, url, description (and its German
 * `descriptionDe`, shown to German readers), doclink, sent as entered;
 * and the launcher's Category, Requestable and an icon upload with a preview (docs/api.md, Icons);
 * the app's roles, comma-separated, the first the default, and its owners (owners-editor.tsx), sent
 * as `owners` (docs/api.md, Teams, roles and owners).
 */
import { useEffect, useState } from 'react';
import type { AppOwners } from '@tools-portal/core';
import type { App } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import type { MessageKey } from '../i18n/en';
import { useT } from '../i18n/use-t';
import { useAlerts } from './alerts';
import { AppIcon } from './app-icon';
import { FieldFeedback, fieldProps, useFormErrors } from './form-errors';
import { FormFooter, Modal } from './modal';
import { OwnersEditor } from './owners-editor';
import { useAction } from './use-action';

/** An app to edit; without its owners (a list's app), the form reads them. */
export type AppFormMode = { kind: 'new' } | { kind: 'edit'; app: App & { owners?: AppOwners } };

type TextField = 'name' | 'url' | 'description' | 'descriptionDe' | 'doclink' | 'category';

const FIELDS: { key: TextField; label: MessageKey }[] = [
  { key: 'name', label: 'appForm.name' },
  { key: 'url', label: 'appForm.url' },
  { key: 'description', label: 'appForm.description' },
  { key: 'descriptionDe', label: 'appForm.descriptionDe' },
  { key: 'doclink', label: 'appForm.doclink' },
  { key: 'category', label: 'appForm.category' },
];

const ICON_ACCEPT = 'image/png,image/jpeg,image/webp';
const MAX_ICON_BYTES = 256 * 1024;

/** What happens to the icon on Save. */
type IconChange = { kind: 'keep' } | { kind: 'remove' } | { kind: 'upload'; file: File; preview: string };

export function AppFormModal({ mode, onClose, onSaved }: { mode: AppFormMode; onClose: () => void; onSaved: () => Promise<void> }) {
  const run = useAction();
  const alerts = useAlerts();
  const form = useFormErrors();
  const t = useT();
  const initial =
    mode.kind === 'edit'
      ? mode.app
      : { name: '', url: '', description: '', descriptionDe: '', doclink: '', category: '', requestable: false, icon: null, roles: [] };
  const [values, setValues] = useState<Record<TextField, string>>({
    name: initial.name,
    url: initial.url,
    description: initial.description,
    descriptionDe: initial.descriptionDe,
    doclink: initial.doclink,
    category: initial.category,
  });
  const [requestable, setRequestable] = useState(initial.requestable);
  const [roles, setRoles] = useState(initial.roles.join(', '));
  const [icon, setIcon] = useState<IconChange>({ kind: 'keep' });
  const [owners, setOwners] = useOwners(mode);
  const [busy, setBusy] = useState(false);
  const categories = useCategories();

  const pickIcon = (file: File | undefined) => {
    if (!file) return;
    if (!ICON_ACCEPT.split(',').includes(file.type)) return alerts.danger(t('appForm.iconType', { type: file.type || t('appForm.thisFile') }));
    if (file.size > MAX_ICON_BYTES) return alerts.danger(t('appForm.iconSize'));
    const reader = new FileReader();
    reader.onload = () => setIcon({ kind: 'upload', file, preview: String(reader.result) });
    reader.readAsDataURL(file);
  };

  const save = async () => {
    setBusy(true);
    await run({
      call: async () => {
        const body = {
          ...values,
          requestable,
          roles: roles
            .split(',')
            .map((role) => role.trim())
            .filter(Boolean),
          // Not read yet (an edit from a list): left out, so the server keeps them.
          ...(owners ? { owners } : {}),
        };
        let saved = mode.kind === 'edit' ? await api.apps.update({ ...body, id: mode.app.id }) : await api.apps.create(body);
        if (icon.kind === 'upload') saved = await api.apps.setIcon(saved.id, icon.file, icon.file.type);
        if (icon.kind === 'remove' && saved.icon) await api.apps.removeIcon(saved.id);
        return saved;
      },
      success: (saved) => t('appForm.created', { name: saved.name }),
      // docs/product.md §8: the original said "failed to create new client undefined" here.
      danger: t(mode.kind === 'edit' ? 'appForm.saveFailed' : 'appForm.createFailed', { name: values.name }),
      what: 'save app',
      onSuccess: onSaved,
      form,
    });
    setBusy(false);
  };

  const currentIcon = icon.kind === 'upload' ? icon.preview : icon.kind === 'remove' ? null : initial.icon;

  return (
    <Modal
      title={mode.kind === 'edit' ? t('appForm.editTitle') : t('appForm.newTitle')}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy} />}
    >
      {FIELDS.map((field) => (
        <div className="mb-3" key={field.key}>
          <label className="form-label" htmlFor={`app-${field.key}`}>
            {t(field.label)}
          </label>
          <input
            id={`app-${field.key}`}
            type="text"
            {...fieldProps(form, field.key)}
            placeholder={t(field.label)}
            value={values[field.key]}
            list={field.key === 'category' ? 'app-categories' : undefined}
            onChange={(event) => setValues({ ...values, [field.key]: event.target.value })}
          />
          <FieldFeedback form={form} field={field.key} />
        </div>
      ))}
      <datalist id="app-categories">
        {categories.map((category) => (
          <option key={category} value={category} />
        ))}
      </datalist>
      <div className="form-check mb-3">
        <input
          className="form-check-input"
          type="checkbox"
          id="app-requestable"
          checked={requestable}
          onChange={(event) => setRequestable(event.target.checked)}
        />
        <label className="form-check-label" htmlFor="app-requestable">
          {t('appForm.requestable')} <span className="text-secondary small">{t('appForm.requestableHint')}</span>
        </label>
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="app-roles">
          {t('appForm.roles')} <span className="text-secondary small">{t('appForm.rolesHint')}</span>
        </label>
        <input id="app-roles" type="text" className="form-control" value={roles} onChange={(event) => setRoles(event.target.value)} />
      </div>
      {owners && <OwnersEditor value={owners} onChange={setOwners} />}
      <div className="mb-1">
        <label className="form-label" htmlFor="app-icon">
          {t('appForm.icon')} <span className="text-secondary small">{t('appForm.iconHint')}</span>
        </label>
        <div className="d-flex align-items-center gap-3">
          {currentIcon ? (
            <img className="app-icon icon-preview" src={currentIcon} alt={t('appForm.iconPreview')} />
          ) : (
            <AppIcon app={{ name: values.name || '?', icon: null }} />
          )}
          <input id="app-icon" type="file" className="form-control" accept={ICON_ACCEPT} onChange={(event) => pickIcon(event.target.files?.[0])} />
          {currentIcon && (
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={() => setIcon({ kind: 'remove' })}>
              {t('appForm.removeIcon')}
            </button>
          )}
        </div>
      </div>
    </Modal>
  );
}

/** The categories in use, offered while typing one. */
function useCategories(): string[] {
  const [categories, setCategories] = useState<string[]>([]);
  useEffect(() => {
    api.apps.list().then(
      (apps) => setCategories([...new Set(apps.map((app) => app.category).filter(Boolean))].sort()),
      (error) => logFailure('load categories', error),
    );
  }, []);
  return categories;
}

/** The owners the form edits: none for a new app, the app's own, read when the mode's app lacks them. */
function useOwners(mode: AppFormMode): [AppOwners | undefined, (owners: AppOwners) => void] {
  const known = mode.kind === 'new' ? { users: [], teams: [] } : mode.app.owners;
  const [owners, setOwners] = useState<AppOwners | undefined>(known);
  const appId = mode.kind === 'edit' ? mode.app.id : undefined;
  useEffect(() => {
    if (known || appId === undefined) return;
    api.apps.get(appId).then(
      (app) => setOwners((current) => current ?? app.owners),
      (error) => logFailure('load app owners', error),
    );
    // Read once per app: `known` is fixed for the dialog's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [appId]);
  return [owners, setOwners];
}
