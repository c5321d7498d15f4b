/** Something on its way (the session, a screen's code): a spinner that screen readers announce. */
import { useT } from '../i18n/use-t';

export function Loading() {
  const t = useT();
  return (
    <div className="d-flex justify-content-center py-5" role="status">
      <div className="spinner-border text-secondary" aria-hidden="true" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
