/** When a grant ends: no expiry, 1, 7 or 30 days from now, or a date (the end of that day, local time). */
import { daysFrom } from '@tools-portal/core/expiry';
import { useId } from 'react';
import { useT } from '../i18n/use-t';

export type ExpiryChoiceValue = { kind: 'none' } | { kind: 'days'; days: number } | { kind: 'date'; date: string };

const EXPIRY_DAYS = [1, 7, 30] as const;

/** The ISO time a choice stands for (undefined: none; null: a date not chosen yet). */
export function expiryOf(choice: ExpiryChoiceValue, now = Date.now()): string | undefined | null {
  if (choice.kind === 'none') return undefined;
  if (choice.kind === 'days') return daysFrom(now, choice.days);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(choice.date)) return null;
  const end = new Date(`${choice.date}T23:59:59`);
  return Number.isFinite(end.getTime()) ? end.toISOString() : null;
}

export function ExpiryChoice({ value, onChange, label: given }: { value: ExpiryChoiceValue; onChange: (value: ExpiryChoiceValue) => void; label?: string }) {
  const id = useId();
  const t = useT();
  const label = given ?? t('expiry.label');
  const selected = value.kind === 'none' ? 'none' : value.kind === 'days' ? String(value.days) : 'date';
  return (
    <div className="d-flex flex-wrap gap-2">
      <select
        id={id}
        className="form-select w-auto"
        aria-label={label}
        value={selected}
        onChange={(event) => {
          const next = event.target.value;
          onChange(next === 'none' ? { kind: 'none' } : next === 'date' ? { kind: 'date', date: '' } : { kind: 'days', days: Number(next) });
        }}
      >
        <option value="none">{t('expiry.none')}</option>
        {EXPIRY_DAYS.map((days) => (
          <option key={days} value={days}>
            {t('expiry.days', { count: days })}
          </option>
        ))}
        <option value="date">{t('expiry.date')}</option>
      </select>
      {value.kind === 'date' && (
        <input
          type="date"
          className="form-control w-auto"
          aria-label={t('expiry.dateLabel', { label })}
          min={new Date().toISOString().slice(0, 10)}
          value={value.date}
          required
          onChange={(event) => onChange({ kind: 'date', date: event.target.value })}
        />
      )}
    </div>
  );
}
