/** /docs (docs/product.md §1 and §2): the admin help page; other users see no content. */
import { useCurrentUser } from '../session';

export function Docs() {
  const user = useCurrentUser();
  if (!user.admin) return <p className="text-secondary">This help page is for admins.</p>;
  return (
    <div className="row g-4">
      <article className="col-12 col-lg-8">
        <h1 className="h3">Help</h1>
        <p>The portal decides who may log in and which apps each user may open.</p>
        <h2 className="h5 mt-4">Clients</h2>
        <p>
          A client is a group of users with a unique name. Deleting a client deletes its users, but not the data those users have in the apps. Users of the
          client named <strong>Admin</strong> are admins.
        </p>
        <h2 className="h5 mt-4">Apps</h2>
        <p>
          The name identifies the app to the authentication system; the URL is where users open it. Deleting an app removes every user's access to it, but not
          the app's data. Apps whose URL ends with <code>-dev</code> are development apps (the dev view of the app list); apps whose name starts with{' '}
          <code>extern:</code> are listed under Other Tools.
        </p>
        <h2 className="h5 mt-4">Users</h2>
        <p>
          A user belongs to exactly one client, is identified by an email address, and may use many apps. Deleting a user removes their credentials only. New
          users are invited: an invite creates a registration link, with which they set their initial password.
        </p>
        <h2 className="h5 mt-4">Staff</h2>
        <p>Staff who sign in with their company Google address are created automatically, as admins.</p>
        <h2 className="h5 mt-4">API keys</h2>
        <p>Every user can create API keys on the Access Tokens page for scripts and the command line. A key is shown once, when it is made.</p>
      </article>
      <aside className="col-12 col-lg-4">
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
