/** /myreviews (docs/reviews.md): the open reviews with items the user may decide, in the portal. App owners and admins. */
import { useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { api, logFailure } from '../api';
import { PageHeader } from '../components/page-header';
import { ReviewProgress } from '../components/review-progress';
import { Time } from '../components/time';
import { useLoad } from '../components/use-load';
import type { MessageKey } from '../i18n/en';
import { useT } from '../i18n/use-t';
import { paths } from '../paths';

export function ReviewsWaiting() {
  const t = useT();
  const intl = useIntl();
  const reviews = useLoad(
    async () => (await api.reviews.list()).filter((review) => review.status === 'open' && review.waiting > 0),
    (error) => logFailure('load reviews', error),
  );
  const rows = reviews.data ?? [];
  return (
    <>
      <PageHeader title={t('nav.reviewsWaiting')} lead={t('reviews.waitingLead')} />
      {!reviews.loading && rows.length === 0 && <p className="text-secondary">{t('reviews.nothingWaiting')}</p>}
      <ul className="list-group">
        {rows.map((review) => (
          <li key={review.id} className="list-group-item">
            <div className="d-flex flex-wrap justify-content-between gap-2">
              <Link to={paths.review(review.id)} className="fw-semibold">
                {review.name}
              </Link>
              <span className="badge rounded-pill text-bg-warning align-self-center">{t('reviews.waiting', { count: review.waiting })}</span>
            </div>
            <div className="small text-secondary mb-2">
              {intl.formatMessage(
                { id: 'reviews.appsDue' satisfies MessageKey },
                { apps: review.apps.map((app) => app.name).join(', '), due: <Time key="due" iso={review.due} /> },
              )}
            </div>
            <ReviewProgress review={review} />
          </li>
        ))}
      </ul>
    </>
  );
}
