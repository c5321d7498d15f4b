/** /docs (docs/product.md §1 and §2): the admin help page; other users see no content. */
import { useIntl } from 'react-intl';
import { useT } from '../i18n/use-t';
import { useCurrentUser } from '../session';

export function Docs() {
  const user = useCurrentUser();
  const t = useT();
  const intl = useIntl();
  if (!user.admin) return <p className="text-secondary">{t('help.adminsOnly')}</p>;
  return (
    <div className="row g-4">
      <article className="col-12 col-lg-8">
        <h1 className="h3">{t('nav.help')}</h1>
        <p>{t('help.intro')}</p>
        <h2 className="h5 mt-4">{t('help.clients')}</h2>
        <p>{intl.formatMessage({ id: 'help.clientsText' }, { admin: <strong key="admin">Admin</strong> })}</p>
        <h2 className="h5 mt-4">{t('help.apps')}</h2>
        <p>{intl.formatMessage({ id: 'help.appsText' }, { dev: <code key="dev">-dev</code>, extern: <code key="extern">extern:</code> })}</p>
        <h2 className="h5 mt-4">{t('help.users')}</h2>
        <p>{t('help.usersText')}</p>
        <h2 className="h5 mt-4">{t('help.staff')}</h2>
        <p>{t('help.staffText')}</p>
        <h2 className="h5 mt-4">{t('help.apiKeys')}</h2>
        <p>{t('help.apiKeysText')}</p>
      </article>
      {/* The other tools are described in German in every language (docs/product.md §1). */}
      <aside className="col-12 col-lg-4" lang="de">
        <div className="card">
          <div className="card-header fw-semibold">Weitere Werkzeuge</div>
          <ul className="list-group list-group-flush small">
            <li className="list-group-item">
              <strong>Monitoring</strong>: Überwachung der Server und Dienste, mit Alarmen bei Ausfällen.
            </li>
            <li className="list-group-item">
              <strong>Ticketsystem</strong>: Anfragen und Störungen melden und ihren Stand verfolgen.
            </li>
            <li className="list-group-item">
              <strong>Wiki</strong>: Anleitungen und Dokumentation der internen Werkzeuge.
            </li>
            <li className="list-group-item">
              <strong>Dateiablage</strong>: gemeinsame Dokumente der Teams.
            </li>
          </ul>
        </div>
      </aside>
    </div>
  );
}
