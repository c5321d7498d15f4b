/**
 * Add User for an app's owners (Apps you own; docs/product.md, Teams, app roles and owners): the
 * user named by their exact email (`GET /app/{id}/grantable/user`, which answers admins and the
 * app's owners only), then granted with one of the app's roles and an expiry. An unknown email is
 * refused at its field; nothing is granted.
 */
import { useState } from 'react';
import { ApiError } from '@tools-portal/core/errors';
import { api } from '../api';
import { RoleSelect } from './add-team-modal';
import { useT } from '../i18n/use-t';
import { ExpiryChoice, expiryOf, type ExpiryChoiceValue } from './expiry-choice';
import { FieldFeedback, fieldProps, useFormErrors } from './form-errors';
import { FormFooter, Modal } from './modal';
import { useAction } from './use-action';

interface GrantUserProps {
  app: { id: number; name: string; roles: readonly string[] };
  onClose: () => void;
  onAdded: () => Promise<void>;
}

/** The user of exactly this email, or an error that names the email field. */
async function userByEmail(appId: number, email: string) {
  try {
    return await api.apps.grantableUser(appId, email);
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'not_found' || error.code === 'invalid_input')) {
      throw new ApiError(error.code, error.message, { ...error.details, field: 'email' });
    }
    throw error;
  }
}

export function GrantUserModal({ app, onClose, onAdded }: GrantUserProps) {
  const run = useAction();
  const t = useT();
  const form = useFormErrors();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('');
  const [expiry, setExpiry] = useState<ExpiryChoiceValue>({ kind: 'none' });
  const [busy, setBusy] = useState(false);

  const save = async () => {
    const expires = expiryOf(expiry);
    const named = email.trim();
    if (!named || expires === null) return;
    setBusy(true);
    await run({
      call: async () => {
        const user = await userByEmail(app.id, named);
        await api.users.grant(user.id, app.id, { ...(role ? { role } : {}), ...(expires ? { expires } : {}) });
      },
      success: t('grantUser.granted', { app: app.name, email: named }),
      danger: t('grantUser.failed', { app: app.name, email: named }),
      what: 'grant app to user',
      form,
      onSuccess: onAdded,
    });
    setBusy(false);
  };

  return (
    <Modal
      title={t('grantUser.title')}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy || !email.trim()} submitLabel={t('teams.add')} />}
    >
      <div className="mb-3">
        <label className="form-label" htmlFor="grant-user-email">
          {t('grantUser.email')}
        </label>
        <input
          id="grant-user-email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          {...fieldProps(form, 'email')}
        />
        <FieldFeedback form={form} field="email" />
        <div className="form-text">{t('grantUser.emailHelp')}</div>
      </div>
      <RoleSelect id="grant-user-role" roles={app.roles} value={role} onChange={setRole} />
      <ExpiryChoice value={expiry} onChange={setExpiry} label={t('teams.grant.expiry')} />
    </Modal>
  );
}
