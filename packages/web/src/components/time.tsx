/** A time in the reader's locale, the exact time (ISO 8601, UTC) on hover and for machines. */
import { formatTimestamp } from '../logic/format';

export function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={iso}>
      {formatTimestamp(iso)}
    </time>
  );
}
