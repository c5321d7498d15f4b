/** Any route the portal does not know (docs/product.md §2): says so, with a way home. */
import { Link } from 'react-router-dom';
import { useT } from '../i18n/use-t';
import { paths } from '../paths';

export function NotFound() {
  const t = useT();
  return <Missing title={t('notFound.title')} text={t('notFound.text')} />;
}

/** An id in a route that names nothing (`#/user/999`): which kind of thing is missing, and a way on. */
export function Missing({ title, text, back }: { title: string; text: string; back?: { to: string; label: string } }) {
  const t = useT();
  const way = back ?? { to: paths.appList, label: t('notFound.home') };
  return (
    <div className="py-4">
      <h1 className="h3">{title}</h1>
      <p className="text-secondary">{text}</p>
      <Link to={way.to} className="btn btn-primary">
        {way.label}
      </Link>
    </div>
  );
}
