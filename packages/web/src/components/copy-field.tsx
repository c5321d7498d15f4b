/** A read-only value with a Copy button (the registration link, a new API key). */
import { useRef, useState } from 'react';
import { useT } from '../i18n/use-t';

/** `solid` on a coloured background (a warning), where an outlined button lacks contrast. */
export function CopyField({ value, label, solid = false }: { value: string; label: string; solid?: boolean }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // Without clipboard access the text stays selected for Ctrl+C.
      setCopied(false);
    }
  };

  return (
    <div className="input-group">
      <input
        ref={input}
        type="text"
        className="form-control font-monospace"
        aria-label={label}
        value={value}
        readOnly
        onFocus={(event) => event.target.select()}
      />
      <button type="button" className={`btn ${solid ? 'btn-primary' : 'btn-outline-primary'}`} onClick={() => void copy()}>
        {copied ? t('copy.copied') : t('copy.copy')}
      </button>
    </div>
  );
}
