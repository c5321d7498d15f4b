/** /user/{id} (SPEC section 2): email, client, apps; Manage Apps saves one change at a time. */
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { byName } from '@tools-portal/core/apps';
import type { App } from '@tools-portal/core/entities';
import { api, logFailure } from '../api';
import { useAlerts } from '../components/alerts';
import { EmptyRow } from '../components/empty-row';
import { HeadingBar, ListTable } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { toggled, userAppChanges } from '../logic/user-apps';
import { paths } from '../paths';

export function UserDetail() {
  const id = Number(useParams().id);
  const [managing, setManaging] = useState(false);
  const user = useLoad(() => api.users.get(id), (error) => logFailure('load user', error), id);
  const apps = useLoad(async () => (await api.users.apps(id)).sort(byName), (error) => logFailure('load user apps', error), id);

  return (
    <>
      <h1 className="h3 text-break">{user.data?.email ?? '\u00a0'}</h1>
      {user.data && (
        <p>
          Client: <Link to={paths.client(user.data.client.id)}>{user.data.client.name}</Link>
        </p>
      )}
      <HeadingBar level={2} title="Apps" action={{ label: 'Manage Apps', onClick: () => setManaging(true), disabled: !apps.data }} />
      <ListTable
        label="User apps"
        className="table table-hover"
        head={
          <>
            <th scope="col">App Name</th>
            <th scope="col">URL</th>
          </>
        }
      >
        {(apps.data ?? []).map((app) => (
          <tr key={app.id}>
            <td>
              <Link to={paths.app(app.id)}>{app.name}</Link>
            </td>
            <td className="text-secondary text-break">{app.url}</td>
          </tr>
        ))}
        <EmptyRow columns={2} shown={apps.data?.length ?? 0} loading={apps.loading} text="No apps." />
      </ListTable>
      {managing && apps.data && (
        <ManageUserApps
          userId={id}
          had={apps.data}
          onChanged={async () => {
            await user.reload();
            await apps.reload();
          }}
          onClose={() => setManaging(false)}
        />
      )}
    </>
  );
}

interface ManageProps {
  userId: number;
  had: App[];
  onChanged: () => Promise<void>;
  onClose: () => void;
}

function ManageUserApps({ userId, had, onChanged, onClose }: ManageProps) {
  const alerts = useAlerts();
  const run = useAction();
  const all = useLoad(async () => (await api.apps.all()).sort(byName), () => alerts.danger('failed to fetch all apps'));
  const [checked, setChecked] = useState(() => new Set(had.map((app) => app.id)));
  const [busy, setBusy] = useState(false);

  const save = async () => {
    setBusy(true);
    const { remove, add } = userAppChanges(
      had.map((app) => app.id),
      checked,
    );
    let failed = false;
    for (const appId of remove) {
      const ok = await run({ call: () => api.users.revoke(userId, appId), danger: 'failed to delete app', what: 'remove app from user', onSuccess: onChanged });
      if (!ok) failed = true;
    }
    for (const appId of add) {
      const ok = await run({ call: () => api.users.grant(userId, appId), danger: 'failed to add app', what: 'add app to user', onSuccess: onChanged });
      if (!ok) failed = true;
    }
    setBusy(false);
    if (!failed) onClose();
  };

  return (
    <Modal
      title="Manage User Apps"
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<FormFooter onCancel={onClose} disabled={busy || !all.data} />}
    >
      {(all.data ?? []).map((app) => (
        <div className="form-check" key={app.id}>
          <input
            className="form-check-input"
            type="checkbox"
            id={`user-app-${app.id}`}
            checked={checked.has(app.id)}
            onChange={() => setChecked(toggled(checked, app.id))}
          />
          <label className="form-check-label" htmlFor={`user-app-${app.id}`}>
            {app.name}
          </label>
        </div>
      ))}
      {all.data?.length === 0 && <p className="text-secondary mb-0">There are no apps yet.</p>}
    </Modal>
  );
}
