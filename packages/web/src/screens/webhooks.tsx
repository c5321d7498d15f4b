/**
 * /webhooks (docs/webhooks.md): the admins' webhooks: event-log entries sent to receivers as
 * signed Standard Webhooks. New Webhook picks the events from the catalogue; the signing secret
 * is shown once, at creation and at Rotate secret; each hook's deliveries show below the list.
 */
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { eventArea, eventTypes, WEBHOOK_TEST_EVENT, type EventType } from '@tools-portal/core/events';
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
import { useLanguage } from '../i18n/language';
import type { MessageKey } from '../i18n/en';
import { eventWordsKey } from '../i18n/events.en';
import { useT, type Translate } from '../i18n/use-t';

// Ids and durations go in as text: ICU would group their digits (`1,234`), which ids never have.
export function Webhooks() {
  const run = useAction();
  const alerts = useAlerts();
  const t = useT();
  const warning = useWarning();
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
      success: t('webhooks.deleted', { id: String(hook.id) }),
      danger: t('webhooks.deleteFailed', { id: String(hook.id) }),
      what: 'delete webhook',
      onSuccess: async () => {
        if (shown === hook.id) setShown(null);
        await hooks.reload();
      },
    });

  const toggle = (hook: Webhook) =>
    run({
      call: () => api.webhooks.update(hook.id, { enabled: !hook.enabled }),
      success: t(hook.enabled ? 'webhooks.turnedOff' : 'webhooks.turnedOn', { id: String(hook.id) }),
      danger: t(hook.enabled ? 'webhooks.turnOffFailed' : 'webhooks.turnOnFailed', { id: String(hook.id) }),
      what: 'change webhook',
      onSuccess: hooks.reload,
    });

  const rotate = (hook: Webhook) =>
    run({
      call: () => api.webhooks.rotateSecret(hook.id),
      success: t('webhooks.rotated', { id: String(hook.id) }),
      danger: t('webhooks.rotateFailed', { id: String(hook.id) }),
      what: 'rotate webhook secret',
      onSuccess: setSecret,
    });

  const test = async (hook: Webhook) => {
    try {
      const delivery = await api.webhooks.test(hook.id);
      if (delivery.status === 'delivered')
        alerts.success(t('webhooks.testDelivered', { id: String(hook.id), code: String(delivery.lastCode), ms: String(delivery.durationMs) }));
      else alerts.danger(t('webhooks.testNotDelivered', { id: String(hook.id), error: delivery.error ?? t('webhooks.noAnswer') }));
    } catch (error) {
      logFailure('test webhook', error);
      alerts.danger(t('webhooks.testFailed', { id: String(hook.id) }));
    }
    if (shown === hook.id) await deliveries.reload();
    else setShown(hook.id);
  };

  return (
    <>
      <ListPage
        title={t('nav.webhooks')}
        lead={t('webhooks.lead')}
        filter={filter}
        onFilter={setFilter}
        action={{ label: t('webhooks.new'), onClick: () => setCreating(true) }}
        head={
          <>
            <th scope="col">{t('people.url')}</th>
            <th scope="col">{t('webhooks.events')}</th>
            <th scope="col">{t('webhooks.description')}</th>
            <th scope="col">{t('webhooks.status')}</th>
            <th scope="col">{t('people.actions')}</th>
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
                  {warning(hook.warning)}
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
              <span className={`badge ${hook.enabled ? 'text-bg-success' : 'text-bg-secondary'}`}>
                {hook.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
              </span>
            </td>
            <td>
              <div className="d-flex flex-wrap gap-1">
                <button
                  type="button"
                  className="btn btn-sm btn-outline-primary"
                  aria-label={t('webhooks.deliveriesOf', { id: String(hook.id) })}
                  onClick={() => setShown(hook.id)}
                >
                  {t('webhooks.deliveries')}
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-primary"
                  aria-label={t('webhooks.sendTestTo', { id: String(hook.id) })}
                  onClick={() => void test(hook)}
                >
                  {t('webhooks.sendTest')}
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  aria-label={t('webhooks.rotateOf', { id: String(hook.id) })}
                  onClick={() => void rotate(hook)}
                >
                  {t('webhooks.rotate')}
                </button>
                <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void toggle(hook)}>
                  {hook.enabled ? t('webhooks.disable') : t('webhooks.enable')}
                </button>
              </div>
            </td>
            <DeleteCell onConfirm={() => remove(hook)} />
          </tr>
        ))}
        <EmptyRow columns={6} shown={rows.length} loading={hooks.loading} text={t('webhooks.none')} />
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
const STATUS_WORDS = {
  pending: 'webhooks.delivery.pending',
  delivered: 'webhooks.delivery.delivered',
  failed: 'webhooks.delivery.failed',
} as const satisfies Record<WebhookDeliveryStatus, MessageKey>;

/** The server's plain-http warning (it warns of nothing else) in the reader's words; English keeps the server's text. */
function useWarning(): (warning: string) => string {
  const t = useT();
  const { language } = useLanguage();
  return (warning) => (language === 'en' ? warning : t('webhooks.plainHttp'));
}

function Deliveries({ id, rows, loading, onRefresh }: { id: number; rows: WebhookDelivery[]; loading: boolean; onRefresh: () => void }) {
  const t = useT();
  const title = t('webhooks.deliveriesOf', { id: String(id) });
  return (
    <section className="row mt-4" aria-label={title}>
      <div className="col-12 offset-md-3 col-md-9">
        <div className="d-flex align-items-center mb-2">
          <h2 className="h5 me-auto mb-0">{title}</h2>
          <button type="button" className="btn btn-sm btn-outline-primary" onClick={onRefresh}>
            {t('webhooks.refresh')}
          </button>
        </div>
        <p className="form-text">{t('webhooks.deliveriesLead')}</p>
        {/* Eight columns scroll sideways on a phone: the region takes focus, so keys scroll it too. */}
        <div className="table-responsive" tabIndex={0} role="region" aria-label={t('webhooks.deliveriesScroll')}>
          <table className="table table-hover align-middle" aria-label={t('webhooks.deliveries')}>
            <thead>
              <tr>
                <th scope="col">{t('webhooks.column.event')}</th>
                <th scope="col">{t('webhooks.status')}</th>
                <th scope="col">{t('webhooks.column.attempts')}</th>
                <th scope="col">{t('webhooks.column.code')}</th>
                <th scope="col">{t('webhooks.column.duration')}</th>
                <th scope="col">{t('webhooks.column.error')}</th>
                <th scope="col">{t('webhooks.column.created')}</th>
                <th scope="col">{t('webhooks.column.delivered')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((delivery) => (
                <tr key={delivery.id}>
                  <td className="font-monospace small">{delivery.eventType}</td>
                  <td>
                    <span className={`badge ${STATUS_STYLE[delivery.status]}`}>{t(STATUS_WORDS[delivery.status])}</span>
                  </td>
                  <td>{delivery.attempts}</td>
                  <td>{delivery.lastCode ?? '–'}</td>
                  <td className="text-nowrap">{delivery.durationMs === null ? '–' : t('webhooks.ms', { ms: String(delivery.durationMs) })}</td>
                  <td className="text-break small">{delivery.error ?? ''}</td>
                  <td className="text-nowrap">{formatTimestamp(delivery.createdAt)}</td>
                  <td className="text-nowrap">{formatTimestamp(delivery.deliveredAt)}</td>
                </tr>
              ))}
              <EmptyRow columns={8} shown={rows.length} loading={loading} text={t('webhooks.noDeliveries')} />
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

/** The catalogue by area (`login`, `mfa`, …), without the test event, which only Send test sends. */
const AREAS: [string, EventType[]][] = [];
for (const type of eventTypes.filter((one) => one !== WEBHOOK_TEST_EVENT)) {
  const area = AREAS.find(([name]) => name === eventArea(type));
  if (area) area[1].push(type);
  else AREAS.push([eventArea(type), [type]]);
}

type Field = 'url' | 'events' | 'description';

/** A field of New Webhook as its label names it. */
function fieldName(field: Field, t: Translate): string {
  if (field === 'url') return t('people.url');
  return field === 'events' ? t('webhooks.events') : t('webhooks.description');
}

function NewWebhookModal({ onClose, onCreated }: { onClose: () => void; onCreated: (hook: WebhookWithSecret) => Promise<void> }) {
  const alerts = useAlerts();
  const t = useT();
  const intl = useIntl();
  const { language } = useLanguage();
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
      alerts.success(t('webhooks.created', { id: String(created.id) }));
      await onCreated(created);
    } catch (error) {
      logFailure('create webhook', error);
      alerts.danger(t('webhooks.createFailed'));
      const field = error instanceof ApiError && error.code === 'invalid_input' ? error.details.field?.split('.')[0] : undefined;
      if (field === 'url' || field === 'events' || field === 'description')
        setProblem({ field, message: language === 'en' ? (error as ApiError).message : t('error.invalidField', { field: fieldName(field, t) }) });
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
      title={t('webhooks.new')}
      size="lg"
      onClose={onClose}
      onSubmit={() => void create()}
      footer={<FormFooter onCancel={onClose} submitLabel={t('webhooks.create')} disabled={busy} />}
    >
      <div className="mb-3">
        <label className="form-label" htmlFor="webhook-url">
          {t('people.url')}
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
          {t('webhooks.urlHelp')}
        </p>
      </div>
      <div className="mb-3">
        <label className="form-label" htmlFor="webhook-description">
          {t('webhooks.descriptionOptional')}
        </label>
        <input
          id="webhook-description"
          type="text"
          className={`form-control ${problem?.field === 'description' ? 'is-invalid' : ''}`.trim()}
          placeholder={t('webhooks.descriptionPlaceholder')}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        {feedback('description')}
      </div>
      <fieldset aria-describedby={problem?.field === 'events' ? 'webhook-events-problem' : undefined}>
        <legend className="form-label fs-6">{t('webhooks.events')}</legend>
        {feedback('events')}
        {AREAS.map(([area, types]) => {
          const all = events.has(`${area}.`);
          return (
            <div key={area} className="mb-2">
              <div className="form-check">
                <input id={`webhook-area-${area}`} type="checkbox" className="form-check-input" checked={all} onChange={() => flip(`${area}.`)} />
                <label className="form-check-label fw-semibold" htmlFor={`webhook-area-${area}`}>
                  {intl.formatMessage(
                    { id: 'webhooks.everyInArea' },
                    {
                      area: (
                        <span key="area" className="font-monospace">
                          {area}.
                        </span>
                      ),
                    },
                  )}
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
                    <label className="form-check-label font-monospace small" htmlFor={`webhook-type-${type}`} title={t(eventWordsKey(type))}>
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
  const t = useT();
  const warning = useWarning();
  return (
    <Modal
      title={t('webhooks.secretTitle')}
      size="lg"
      staticBackdrop
      onClose={onClose}
      footer={
        <button type="button" className="btn btn-primary" onClick={onClose}>
          {t('account.codes.done')}
        </button>
      }
    >
      <p>{t('webhooks.secretOnce', { id: String(hook.id) })}</p>
      <CopyField value={hook.secret} label={t('webhooks.secretTitle')} />
      {hook.warning && (
        <p className="alert alert-warning mt-3 mb-0" role="note">
          {warning(hook.warning)}
        </p>
      )}
    </Modal>
  );
}
