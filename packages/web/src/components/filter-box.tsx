/** The filter box with its Clear button, above every list. */
import { useT } from '../i18n/use-t';

interface FilterBoxProps {
  value: string;
  onChange: (value: string) => void;
  label?: string;
}

export function FilterBox({ value, onChange, label }: FilterBoxProps) {
  const t = useT();
  const words = label ?? t('common.filter');
  return (
    <div className="input-group">
      <input type="search" className="form-control" placeholder={words} aria-label={words} value={value} onChange={(event) => onChange(event.target.value)} />
      <button type="button" className="btn btn-outline-secondary" onClick={() => onChange('')}>
        {t('common.clear')}
      </button>
    </div>
  );
}
