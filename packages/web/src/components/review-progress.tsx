/** A review's progress (docs/reviews.md): on the console's Reviews and a review's page, and in the portal's Reviews waiting for you. */
import type { Review } from '@tools-portal/core/reviews';
import { useT } from '../i18n/use-t';

/** How far a review is: decided of all items, as a bar with its numbers. */
export function ReviewProgress({ review }: { review: Review }) {
  const t = useT();
  const { items, decided } = review.progress;
  const percent = items === 0 ? 100 : Math.round((decided / items) * 100);
  return (
    <div className="d-flex align-items-center gap-2">
      <div
        className="progress flex-grow-1"
        role="progressbar"
        aria-label={t('reviews.progressLabel', { name: review.name, decided, items })}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        style={{ minWidth: '6rem' }}
      >
        <div className="progress-bar" style={{ width: `${percent}%` }} />
      </div>
      <span className="text-nowrap small">
        {decided} / {items}
      </span>
    </div>
  );
}
