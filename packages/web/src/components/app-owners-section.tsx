/**
 * An app's page, Owners (docs/product.md, Teams, app roles and owners): who manages the app's
 * access, read-only; Edit owners opens the app form, whose owners editor (owners-editor.tsx) is
 * the one place they change.
 */
import type { ManagedApp } from '@tools-portal/core';
import { useId } from 'react';
import { useT } from '../i18n/use-t';
import { OwnerList, useOwnerCandidates } from './owners-editor';

export function AppOwnersSection({ app, onEdit }: { app: ManagedApp; onEdit: () => void }) {
  const t = useT();
  const headingId = useId();
  const candidates = useOwnerCandidates();
  const none = app.owners.users.length === 0 && app.owners.teams.length === 0;
  return (
    <section className="mt-4 mb-4" aria-labelledby={headingId}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 className="h5 mb-0 me-auto" id={headingId}>
          {t('owners.title')}
        </h2>
        <button type="button" className="btn btn-link p-0" onClick={onEdit}>
          {t('owners.edit')}
        </button>
      </div>
      <p className="text-body-secondary">{t('owners.about')}</p>
      {none ? <p>{t('owners.none')}</p> : <OwnerList owners={app.owners} candidates={candidates} />}
    </section>
  );
}
