/** /failedlogin (docs/product.md §2). */
import { Link } from 'react-router-dom';
import { Centered } from '../components/layout';
import { useT } from '../i18n/use-t';
import { paths } from '../paths';

export function FailedLogin() {
  const t = useT();
  return (
    <Centered>
      <div className="card shadow-sm border-danger">
        <div className="card-body p-4">
          <h2 className="h4 text-danger">{t('failedLogin.title')}</h2>
          <p>{t('failedLogin.text')}</p>
          <Link to={paths.login} className="btn btn-outline-primary">
            {t('failedLogin.back')}
          </Link>
        </div>
      </div>
    </Centered>
  );
}
