/**
 * /webhooks (docs/webhooks.md): the admins' webhooks: event-log entries sent to receivers as
 * signed Standard Webhooks. New Webhook picks the events from the catalogue; the signing secret
 * is shown once, at creation and at Rotate secret; each hook's deliveries show below the list.
 */
import { useState } from 'react';
import { EVENT_TYPES, eventArea, eventTypes, WEBHOOK_TEST_EVENT } from '@tools-portal/core/events';
import type { Webhook, WebhookDelivery, WebhookDeliveryStatus, WebhookWithSecret } from '@tools-portal/core/webhooks';
import { ApiError } from '@tools-portal/core/errors';
import { api, logFailure } from '../api';
import { useAlerts } from '../components/alerts';
import { CopyField } from '../components/copy-field';
import { DeleteCell, DeleteHeader } from '../components/delete-button';
import { EmptyRow } from '../components/empty-row';
import { ListPage } from '../components/list-page';
import { FormFooter, Modal } from '../components/modal';
import { useAction } from '../components/use-action';
import { useLoad } from '../components/use-load';
import { filterRows } from '../logic/filter';
import { formatTimestamp } from '../logic/format';

export function Webhooks() {
  const run = useAction();
  const alerts = useAlerts();
  const [filter, setFilter] = useState('');
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const hooks = useLoad(
    () => api.webhooks.list(),
    (error) => logFailure('load webhooks', error),
  );
  const deliveries = useLoad(
    () => (shown === null ? Promise.resolve([]) : api.webhooks.deliveries(shown)),
    (error) => logFailure('load deliveries', error),
    shown,
  );

  const rows = filterRows(hooks.data ?? [], filter, (hook) => [hook.url, hook.description, ...hook.events]);

  const remove = (hook: Webhook) =>
    run({
      call: () => api.webhooks.delete(hook.id),
      success: `deleted webhook ${hook.id}`,
      danger: `failed to delete webhook ${hook.id}`,
      what: 'delete webhook',
      onSuccess: async () => {
        if (shown === hook.id) setShown(null);
        await hooks.reload();
      },
    });

  const toggle = (hook: Webhook) =>
    run({
      call: () => api.webhooks.update(hook.id, { enabled: !hook.enabled }),
      success: `turned webhook ${hook.id} ${hook.enabled ? 'off' : 'on'}`,
      danger: `failed to turn webhook ${hook.id} ${hook.enabled ? 'off' : 'on'}`,
      what: 'change webhook',
      onSuccess: hooks.reload,
    });

  const rotate = (hook: Webhook) =>
    run({
      call: () => api.webhooks.rotateSecret(hook.id),
      success: `rotated the signing secret of webhook ${hook.id}`,
      danger: `failed to rotate the signing secret of webhook ${hook.id}`,
      what: 'rotate webhook secret',
      onSuccess: setSecret,
    });

  const test = async (hook: Webhook) => {
    try {
      const delivery = await api.webhooks.test(hook.id);
      if (delivery.status === 'delivered') alerts.success(`test delivered to webhook ${hook.id}: answered ${delivery.lastCode} in ${delivery.durationMs} ms`);
      else alerts.danger(`test not delivered to webhook ${hook.id}: ${delivery.error ?? 'no answer'}`);
    } catch (error) {
      logFailure('test webhook', error);
      alerts.danger(`failed to send a test to webhook ${hook.id}`);
    }
    if (shown === hook.id) await deliveries.reload();
    else setShown(hook.id);
  };

  return (
    <>
      <ListPage
        title="Webhooks"
        filter={filter}
        onFilter={setFilter}
        action={{ label: 'New Webhook', onClick: () => setCreating(true) }}
        head={
          <>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Description</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
            <DeleteHeader />
          </>
        }
      >
        {rows.map((hook) => (
          <tr key={hook.id}>
            <td className="text-break" style={{ minWidth: '14rem' }}>
              <span className="font-monospace">{hook.url}</span>
              {hook.warning && (
                <div className="small text-danger-emphasis mt-1" role="note">
                  <span className="badge text-bg-warning me-1">http</span>
                  {hook.warning}
                </div>
              )}
            </td>
            <td className="font-monospace small">
              {hook.events.map((event, index) => (
                <span key={event} className="text-nowrap">
                  {event}
                  {index < hook.events.length - 1 ? ', ' : ''}
                </span>
              ))}
            </td>
            <td className="text-break">{hook.description}</td>
            <td>
              <span className={`badge ${hook.enabled ? 'text-bg-success' : 'text-bg-secondary'}`}>{hook.enabled ? 'enabled' : 'disabled'}</span>
            </td>
            <td>
              <div className="d-flex flex-wrap gap-1">
                <button
                  type="button"
                  className="btn btn-sm btn-outline-primary"
                  aria-label={`Deliveries of webhook ${hook.id}`}
                  onClick={() => setShown(hook.id)}
                >
                  Deliveries
                </button>
                <button type="button" className="btn btn-sm btn-outline-primary" aria-label={`Send test to webhook ${hook.id}`} onClick={() => void test(hook)}>
                  Send test
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  aria-label={`Rotate secret of webhook ${hook.id}`}
                  onClick={() => void rotate(hook)}
                >
                  Rotate secret
                </button>
                <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void toggle(hook)}>
                  {hook.enabled ? 'Disable' : 'Enable'}
                </button>
              </div>
            </td>
            <DeleteCell onConfirm={() => remove(hook)} />
          </tr>
        ))}
        <EmptyRow columns={6} shown={rows.length} loading={hooks.loading} text="No webhooks yet." />
      </ListPage>
      {shown !== null && <Deliveries id={shown} rows={deliveries.data ?? []} loading={deliveries.loading} onRefresh={() => void deliveries.reload()} />}
      {creating && (
        <NewWebhookModal
          onClose={() => setCreating(false)}
          onCreated={async (created) => {
            setCreating(false);
            setSecret(created);
            await hooks.reload();
          }}
        />
      )}
      {secret && <SecretModal hook={secret} onClose={() => setSecret(null)} />}
    </>
  );
}

const STATUS_STYLE: Record<WebhookDeliveryStatus, string> = { pending: 'text-bg-warning', delivered: 'text-bg-success', failed: 'text-bg-danger' };

function Deliveries({ id, rows, loading, onRefresh }: { id: number; rows: WebhookDelivery[]; loading: boolean; onRefresh: () => void }) {
  const title = `Deliveries of webhook ${id}`;
  return (
    <section className="row mt-4" aria-label={title}>
      <div className="col-12 offset-md-3 col-md-9">
        <div className="d-flex align-items-center mb-2">
          <h2 className="h5 me-auto mb-0">{title}</h2>
          <button type="button" className="btn btn-sm btn-outline-primary" onClick={onRefresh}>
            Refresh
          </button>
        </div>
        <p className="form-text">The last 100, newest first. Failed deliveries are retried with backoff for 24 hours.</p>
        {/* Eight columns scroll sideways on a phone: the region takes focus, so keys scroll it too. */}
        <div className="table-responsive" tabIndex={0} role="region" aria-label="Deliveries, scrollable">
          <table className="table table-hover align-middle" aria-label="Deliveries">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Code</th>
                <th scope="col">Duration</th>
                <th scope="col">Error</th>
                <th scope="col">Created</th>
                <th scope="col">Delivered</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((delivery) => (
                <tr key={delivery.id}>
                  <td className="font-monospace small">{delivery.eventType}</td>
                  <td>
                    <span className={`badge ${STATUS_STYLE[delivery.status]}`}>{delivery.status}</span>
                  </td>
                  <td>{delivery.attempts}</td>
                  <td>{delivery.lastCode ?? '–'}</td>
                  <td className="text-nowrap">{delivery.durationMs === null ? '–' : `${delivery.durationMs} ms`}</td>
                  <td className="text-break small">{delivery.error ?? ''}</td>
                  <td className="text-nowrap">{formatTimestamp(delivery.createdAt)}</td>
                  <td className="text-nowrap">{formatTimestamp(delivery.deliveredAt)}</td>
                </tr>
              ))}
              <EmptyRow columns={8} shown={rows.length} loading={loading} text="No deliveries yet." />
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

/** The catalogue by area (`login`, `mfa`, …), without the test event, which only Send test sends. */
const AREAS: [string, string[]][] = [];
for (const type of eventTypes.filter((one) => one !== WEBHOOK_TEST_EVENT)) {
  const area = AREAS.find(([name]) => name === eventArea(type));
  if (area) area[1].push(type);
  else AREAS.push([eventArea(type), [type]]);
}

type Field = 'url' | 'events' | 'description';

function NewWebhookModal({ onClose, onCreated }: { onClose: () => void; onCreated: (hook: WebhookWithSecret) => Promise<void> }) {
  const alerts = useAlerts();
  const [url, setUrl] = useState('https://');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [problem, setProblem] = useState<{ field: Field; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const flip = (pattern: string) => {
    const next = new Set(events);
    if (next.has(pattern)) next.delete(pattern);
    else next.add(pattern);
    setEvents(next);
  };

  const create = async () => {
    setBusy(true);
    setProblem(null);
    // A whole area covers its types.
    const chosen = [...events].filter((pattern) => pattern.endsWith('.') || !events.has(`${eventArea(pattern)}.`));
    try {
      const created = await api.webhooks.create({ url: url.trim(), events: chosen, ...(description.trim() ? { description: description.trim() } : {}) });
      alerts.success(`created new webhook ${created.id}`);
      await onCreated(created);
    } catch (error) {
      logFailure('create webhook', error);
      alerts.danger('failed to create new webhook');
      const field = error instanceof ApiError && error.code === 'invalid_input' ? error.details.field?.split('.')[0] : undefined;
      if (field === 'url' || field === 'events' || field === 'description') setProblem({ field, message: (error as ApiError).message });
      setBusy(false);
    }
  };

  const feedback = (field: Field) =>
    problem?.field === field ? (
      <div id={`webhook-${field}-problem`} className="invalid-feedback d-block">
        {problem.message}
      </div>
    ) : null;

  return (
    <Modal
      title="New Webhook"
      size="lg"
      onClose={onClose}
      onSubmit={() => void create()}
      footer={<FormFooter onCancel={onClose} submitLabel="Create Webhook" disabled={busy} />}
    >
      <div className="mb-3">
        <label className="form-label" htmlFor="webhook-url">
          URL
        </label>
        <input
          id="webhook-url"
          type="url"
          required
          className={`form-control ${problem?.field === 'url' ? 'is-invalid' : ''}`.trim()}
          value={url}
          aria-describedby={problem?.field === 'url' ? 'webhook-url-problem' : 'webhook-url-help'}
          onChange={(event) => setUrl(event.target.value)}
        />
        {feedback('url')}
        <p id="webhook-url-help" className="form-text mb-0">
          Where the events are sent, signed. Use https: plain http is allowed, but the events travel unencrypted.
        </p>
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="webhook-description">
          Description (optional)
        </label>
        <input
          id="webhook-description"
          type="text"
          className={`form-control ${problem?.field === 'description' ? 'is-invalid' : ''}`.trim()}
          placeholder="what the hook is for, e.g. SIEM"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        {feedback('description')}
      </div>
      <fieldset aria-describedby={problem?.field === 'events' ? 'webhook-events-problem' : undefined}>
        <legend className="form-label fs-6">Events</legend>
        {feedback('events')}
        {AREAS.map(([area, types]) => {
          const all = events.has(`${area}.`);
          return (
            <div key={area} className="mb-2">
              <div className="form-check">
                <input id={`webhook-area-${area}`} type="checkbox" className="form-check-input" checked={all} onChange={() => flip(`${area}.`)} />
                <label className="form-check-label fw-semibold" htmlFor={`webhook-area-${area}`}>
                  every <span className="font-monospace">{area}.</span> event
                </label>
              </div>
              <div className="d-flex flex-wrap column-gap-3 ms-4">
                {types.map((type) => (
                  <div key={type} className="form-check">
                    <input
                      id={`webhook-type-${type}`}
                      type="checkbox"
                      className="form-check-input"
                      checked={all || events.has(type)}
                      disabled={all}
                      onChange={() => flip(type)}
                    />
                    <label
                      className="form-check-label font-monospace small"
                      htmlFor={`webhook-type-${type}`}
                      title={EVENT_TYPES[type as keyof typeof EVENT_TYPES]}
                    >
                      {type}
                    </label>
                  </div>
                ))}
              </div>
            </div>
          );
        })}
      </fieldset>
    </Modal>
  );
}

function SecretModal({ hook, onClose }: { hook: WebhookWithSecret; onClose: () => void }) {
  return (
    <Modal
      title="Signing secret"
      size="lg"
      staticBackdrop
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          Done
        </button>
      }
    >
      <p>Copy the signing secret of webhook {hook.id} now and keep it safe: it is shown only once. Receivers verify each request's signature with it.</p>
      <CopyField value={hook.secret} label="Signing secret" />
      {hook.warning && (
        <p className="alert alert-warning mt-3 mb-0" role="note">
          {hook.warning}
        </p>
      )}
    </Modal>
  );
}
