/** The filter box with its Clear button, above every list. */
interface FilterBoxProps {
  value: string;
  onChange: (value: string) => void;
  label?: string;
}

export function FilterBox({ value, onChange, label = 'Filter' }: FilterBoxProps) {
  return (
    <div className="input-group">
      <input type="search" className="form-control" placeholder={label} aria-label={label} value={value} onChange={(event) => onChange(event.target.value)} />
      <button type="button" className="btn btn-outline-secondary" onClick={() => onChange('')}>
        Clear
      </button>
    </div>
  );
}
