/** Any route the portal does not know (docs/product.md §2): says so, with a way home. */
import { Link } from 'react-router-dom';
import { paths } from '../paths';

export function NotFound() {
  return <Missing title="Page not found" text="There is no page at this address. It may have moved, or the link may be mistyped." />;
}

/** An id in a route that names nothing (`#/user/999`): which kind of thing is missing, and a way on. */
export function Missing({
  title,
  text,
  back = { to: paths.appList, label: 'Go to your apps' },
}: {
  title: string;
  text: string;
  back?: { to: string; label: string };
}) {
  return (
    <div className="py-4">
      <h1 className="h3">{title}</h1>
      <p className="text-secondary">{text}</p>
      <Link to={back.to} className="btn btn-primary">
        {back.label}
      </Link>
    </div>
  );
}
