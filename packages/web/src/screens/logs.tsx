/**
 * /logs (docs/product.md §2): the last 1000 log entries, 20 a page, a failed fetch showing an empty
 * page. Above the table: filters (user, client, type, dates) and Export CSV, which downloads every
 * matching entry (the pager stops at 1000; the export has the rest). A row's event opens its
 * details: who did it, the type, the address and the user agent.
 */
import { Fragment, useState, type FormEvent, type ReactNode } from 'react';
import type { LogEntry } from '@tools-portal/core/entities';
import { eventTypes } from '@tools-portal/core/events';
import type { LogFilter } from '@tools-portal/core/log-filter';
import { api, logFailure } from '../api';
import { EmptyRow } from '../components/empty-row';
import { ListTable } from '../components/list-page';
import { useLoad } from '../components/use-load';
import { Email } from '../components/email';
import { PageHeader } from '../components/page-header';
import { Time } from '../components/time';
import { dateRangeInverted, eventTextParts } from '../logic/event-text';
import { areaName } from '../i18n/event-areas';
import { eventWordsKey } from '../i18n/events.en';
import { useT } from '../i18n/use-t';
import { LOG_PAGE_SIZE, LOG_TOTAL_ROWS, clampPage, pageCount, pageWindow } from '../logic/pagination';

// The type filter: the catalogue grouped by area, each area first as a whole (`login.`).
const TYPE_GROUPS = [...new Set(eventTypes.map((type) => type.split('.')[0]))].map((area) => ({
  area,
  types: eventTypes.filter((type) => type.startsWith(`${area}.`)),
}));

const EMPTY: LogFilter = { user: '', client: '', type: '', from: '', to: '' };

interface Loaded {
  entries: LogEntry[];
  total: number;
}

export function Logs() {
  const t = useT();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<LogFilter>(EMPTY);
  const [filter, setFilter] = useState<LogFilter>(EMPTY);
  const [open, setOpen] = useState<number | null>(null);
  const loaded = useLoad(
    async (): Promise<Loaded> => {
      const [entries, total] = await Promise.all([
        api.logs.page(page, LOG_PAGE_SIZE, filter).catch((error: unknown) => {
          logFailure('load log', error);
          return [] as LogEntry[];
        }),
        // Counting stops at the 1,000 entries the pager can show: a full count walks every match.
        api.logs.count(filter, LOG_TOTAL_ROWS).then(
          (answer) => answer.total,
          (error: unknown) => {
            logFailure('count log', error);
            return LOG_TOTAL_ROWS;
          },
        ),
      ]);
      return { entries, total };
    },
    undefined,
    JSON.stringify([page, filter]),
  );
  const count = pageCount(Math.min(loaded.data?.total ?? LOG_TOTAL_ROWS, LOG_TOTAL_ROWS));
  const go = (target: number) => setPage(clampPage(target, count));
  const rows = loaded.data?.entries ?? [];

  const rangeProblem = dateRangeInverted(draft.from, draft.to) ? t('logs.rangeProblem') : null;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (rangeProblem) return;
    setFilter({ ...draft });
    setPage(1);
    setOpen(null);
  };
  const clear = () => {
    setDraft(EMPTY);
    setFilter(EMPTY);
    setPage(1);
    setOpen(null);
  };
  const field = (name: keyof LogFilter) => ({
    value: draft[name] ?? '',
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
  });

  return (
    <>
      <PageHeader title={t('logs.title')} lead={t('logs.lead')} />
      <form className="row g-2 align-items-end mb-3" aria-label={t('logs.filters')} onSubmit={apply}>
        <div className="col-12 col-md-3">
          <label className="form-label small mb-1" htmlFor="log-user">
            {t('logs.user')}
          </label>
          <input id="log-user" type="search" className="form-control form-control-sm" placeholder={t('logs.userPlaceholder')} {...field('user')} />
        </div>
        <div className="col-6 col-md-2">
          <label className="form-label small mb-1" htmlFor="log-client">
            {t('people.client')}
          </label>
          <input id="log-client" type="search" className="form-control form-control-sm" {...field('client')} />
        </div>
        <div className="col-6 col-md-2">
          <label className="form-label small mb-1" htmlFor="log-type">
            {t('logs.type')}
          </label>
          <select id="log-type" className="form-select form-select-sm" {...field('type')}>
            <option value="">{t('logs.anyType')}</option>
            {TYPE_GROUPS.map(({ area, types }) => (
              <optgroup key={area} label={areaName(area, t)}>
                <option value={`${area}.`}>{t('logs.everyInArea', { pattern: `${area}.*`, area: areaName(area, t) })}</option>
                {types.map((type) => (
                  <option key={type} value={type} title={t(eventWordsKey(type))}>
                    {type}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-2">
          <label className="form-label small mb-1" htmlFor="log-from">
            {t('logs.from')}
          </label>
          <input id="log-from" type="date" className="form-control form-control-sm" max={draft.to || undefined} {...field('from')} />
        </div>
        <div className="col-6 col-md-2">
          <label className="form-label small mb-1" htmlFor="log-to">
            {t('logs.to')}
          </label>
          <input
            id="log-to"
            type="date"
            className={`form-control form-control-sm${rangeProblem ? ' is-invalid' : ''}`}
            min={draft.from || undefined}
            aria-invalid={rangeProblem ? true : undefined}
            aria-describedby={rangeProblem ? 'log-to-feedback' : undefined}
            {...field('to')}
          />
          {rangeProblem && (
            <div className="invalid-feedback" id="log-to-feedback">
              {rangeProblem}
            </div>
          )}
        </div>
        <div className="col-12 col-md-auto d-flex gap-2">
          <button type="submit" className="btn btn-primary btn-sm" disabled={Boolean(rangeProblem)}>
            {t('common.filter')}
          </button>
          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={clear}>
            {t('common.clear')}
          </button>
          <a className="btn btn-outline-primary btn-sm text-nowrap" href={api.url(api.logs.exportPath('csv', filter))} download>
            {t('logs.export')}
          </a>
        </div>
      </form>
      {loaded.error === undefined && loaded.data && loaded.data.total > 0 && (
        <p className="small text-secondary mb-2" aria-live="polite">
          {t(loaded.data.total > LOG_TOTAL_ROWS ? 'logs.entriesMore' : 'logs.entries', { count: loaded.data.total })}
        </p>
      )}
      <ListTable
        label={t('logs.table')}
        className="table table-sm table-striped align-middle log-table"
        head={
          <>
            <th scope="col">{t('logs.column.timestamp')}</th>
            <th scope="col">{t('logs.column.client')}</th>
            <th scope="col">{t('logs.column.user')}</th>
            <th scope="col">{t('logs.column.event')}</th>
            <th scope="col">{t('logs.column.actor')}</th>
            <th scope="col" className="d-md-none">
              {t('logs.column.entry')}
            </th>
          </>
        }
      >
        {rows.map((entry) => {
          const expanded = open === entry.id;
          const toggle = (
            <button
              type="button"
              className="btn btn-link p-0 text-start text-reset text-decoration-none log-event"
              aria-expanded={expanded}
              aria-controls={`log-details-${entry.id}`}
              onClick={() => setOpen(expanded ? null : entry.id)}
            >
              <EventText text={entry.event} />
              {entry.count > 1 ? <span className="badge text-bg-secondary ms-2">×{entry.count}</span> : null}
            </button>
          );
          return (
            <Fragment key={entry.id}>
              <tr>
                <td className="text-nowrap">
                  <Time iso={entry.timestamp} />
                </td>
                <td>{entry.client}</td>
                <td>
                  <Email value={entry.user} />
                </td>
                <td>{toggle}</td>
                <td>{entry.actor ? <Email value={entry.actor} /> : <span className="text-secondary">{t('logs.anonymous')}</span>}</td>
                <td className="d-md-none">
                  <div className="fw-semibold">{toggle}</div>
                  <div className="small">
                    <Dotted
                      parts={[
                        entry.user && <Email value={entry.user} />,
                        entry.client,
                        entry.actor && entry.actor !== entry.user && (
                          <>
                            {`${t('logs.by')} `}
                            <Email value={entry.actor} />
                          </>
                        ),
                      ]}
                    />
                  </div>
                  <div className="small text-secondary">
                    <Time iso={entry.timestamp} />
                  </div>
                </td>
              </tr>
              {expanded && (
                <tr id={`log-details-${entry.id}`}>
                  <td colSpan={6}>
                    <dl className="row small mb-0" aria-label={t('logs.details')}>
                      <dt className="col-4 col-md-2">{t('logs.detail.actor')}</dt>
                      <dd className="col-8 col-md-10 text-break">{entry.actor || t('logs.anonymous')}</dd>
                      <dt className="col-4 col-md-2">{t('logs.detail.type')}</dt>
                      <dd className="col-8 col-md-10">{entry.type || '-'}</dd>
                      <dt className="col-4 col-md-2">{t('logs.detail.address')}</dt>
                      <dd className="col-8 col-md-10">{entry.ip || '-'}</dd>
                      <dt className="col-4 col-md-2">{t('logs.detail.userAgent')}</dt>
                      <dd className="col-8 col-md-10 text-break">{entry.userAgent || '-'}</dd>
                      {entry.count > 1 && (
                        <>
                          <dt className="col-4 col-md-2">{t('logs.detail.count')}</dt>
                          <dd className="col-8 col-md-10">{entry.count}</dd>
                        </>
                      )}
                    </dl>
                  </td>
                </tr>
              )}
            </Fragment>
          );
        })}
        <EmptyRow columns={6} shown={rows.length} loading={loaded.loading} text={t('logs.none')} />
      </ListTable>
      <nav aria-label={t('logs.pages')}>
        <ul className="pagination pagination-sm flex-wrap">
          <PageItem label={t('logs.previous')} disabled={page <= 1} onClick={() => go(page - 1)} />
          {pageWindow(page, count).map((number, index) =>
            number === null ? (
              <li className="page-item disabled" key={`gap-${index}`}>
                <span className="page-link">…</span>
              </li>
            ) : (
              <PageItem key={number} label={String(number)} active={number === page} onClick={() => go(number)} />
            ),
          )}
          <PageItem label={t('logs.next')} disabled={page >= count || rows.length < LOG_PAGE_SIZE} onClick={() => go(page + 1)} />
        </ul>
      </nav>
    </>
  );
}

function PageItem({ label, onClick, active = false, disabled = false }: { label: string; onClick: () => void; active?: boolean; disabled?: boolean }) {
  return (
    <li className={`page-item${active ? ' active' : ''}${disabled ? ' disabled' : ''}`}>
      <button type="button" className="page-link" onClick={onClick} disabled={disabled} aria-current={active ? 'page' : undefined}>
        {label}
      </button>
    </li>
  );
}

/** The event's text, its ISO times shown as local times (the exact time on hover). */
function EventText({ text }: { text: string }) {
  return (
    <>
      {eventTextParts(text).map((part, index) => (part.kind === 'text' ? <Fragment key={index}>{part.text}</Fragment> : <Time key={index} iso={part.iso} />))}
    </>
  );
}

/** The parts that are there, between dots: an entry without a client or user shows no empty place. */
function Dotted({ parts }: { parts: (ReactNode | false | '')[] }) {
  return parts
    .filter((part) => part !== false && part !== '' && part !== null && part !== undefined)
    .map((part, index) => (
      <Fragment key={index}>
        {index > 0 && ' · '}
        {part}
      </Fragment>
    ));
}
