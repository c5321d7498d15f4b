/** /failedlogin (docs/product.md §2). */
import { Link } from 'react-router-dom';
import { Centered } from '../components/layout';
import { paths } from '../paths';

export function FailedLogin() {
  return (
    <Centered>
      <div className="card shadow-sm border-danger">
        <div className="card-body p-4">
          <h2 className="h4 text-danger">Failed Login</h2>
          <p>You are not allowed to login.</p>
          <Link to={paths.login} className="btn btn-outline-primary">
            Back to login
          </Link>
        </div>
      </div>
    </Centered>
  );
}
