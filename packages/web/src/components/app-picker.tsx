/** Apps to pick as a searchable checkbox list (docs/web.md), in place of a Ctrl-click multi-select. */
import { useId, useState } from 'react';
import type { App } from '@tools-portal/core/entities';
import { useT } from '../i18n/use-t';
import { filterRows } from '../logic/filter';

interface AppPickerProps {
  apps: readonly App[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
}

export function AppPicker({ apps, value, onChange }: AppPickerProps) {
  const id = useId();
  const t = useT();
  const [query, setQuery] = useState('');
  const shown = filterRows([...apps], query, (app) => [app.name, app.description, app.category]);
  const chosen = new Set(value);
  const toggle = (appId: number, on: boolean) => onChange(on ? [...value, appId] : value.filter((each) => each !== appId));

  return (
    <div role="group" aria-labelledby={`${id}-label`}>
      <div className="d-flex align-items-baseline justify-content-between">
        <span className="form-label" id={`${id}-label`}>
          {t('nav.apps')}
        </span>
        <span className="small text-secondary" aria-live="polite">
          {t('appPicker.chosen', { count: chosen.size })}
        </span>
      </div>
      <input
        type="search"
        className="form-control form-control-sm mb-1"
        placeholder={t('launcher.search')}
        aria-label={t('launcher.search')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <div className="picker-list">
        {shown.map((app) => (
          <div className="form-check" key={app.id}>
            <input
              className="form-check-input"
              type="checkbox"
              id={`${id}-${app.id}`}
              checked={chosen.has(app.id)}
              onChange={(event) => toggle(app.id, event.target.checked)}
            />
            <label className="form-check-label" htmlFor={`${id}-${app.id}`}>
              {app.name}
            </label>
          </div>
        ))}
        {shown.length === 0 && <p className="text-secondary fst-italic small mb-0">{query ? t('launcher.noMatch') : t('appPicker.none')}</p>}
      </div>
    </div>
  );
}
