import { useId, useState } from 'react';
import { Link } from 'react-router';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useBookActivity } from '../api/activity.ts';
import { useBookMembers } from '../api/members.ts';
import { describeActivity } from './activity-texts.ts';

/**
 * The book's activity for its owners (issue 59): who did what, newest first, one person's or
 * everyone's, a page at a time.
 */
export function ActivityPage() {
  const texts = useI18n();
  const { t, format } = texts;
  const filterId = useId();
  const [person, setPerson] = useState<string | null>(null);
  const members = useBookMembers();
  const activity = useBookActivity(person);
  const events = activity.data?.pages.flatMap((page) => page.events) ?? [];
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-9 col-xl-8">
        <h1 className="mb-1">{t('books.activity.title')}</h1>
        <p className="text-body-secondary">{t('books.activity.help')}</p>
        <div className="d-flex flex-wrap align-items-end gap-3 mb-3">
          <div>
            <label htmlFor={filterId} className="form-label">
              {t('books.activity.person')}
            </label>
            <select
              id={filterId}
              className="form-select"
              value={person ?? ''}
              onChange={(event) => setPerson(event.target.value === '' ? null : event.target.value)}
            >
              <option value="">{t('books.activity.everyone')}</option>
              {members.data?.members.map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.email}
                </option>
              ))}
            </select>
          </div>
          <Link className="btn btn-link px-0" to="/setting">
            {t('books.activity.back')}
          </Link>
        </div>
        {activity.isPending && <PageLoading />}
        {activity.isError && (
          <PageLoadError error={activity.error} onRetry={() => void activity.refetch()} />
        )}
        {activity.isSuccess && events.length === 0 && (
          <p className="text-body-secondary">{t('books.activity.empty')}</p>
        )}
        {events.length > 0 && (
          <ol className="list-group mb-3" aria-label={t('books.activity.label')}>
            {events.map((event) => (
              <li key={event.id} className="list-group-item" data-testid="activity-event">
                {/* When and who on the left, what on the right; stacked on a phone. */}
                <div className="row gx-3 gy-1">
                  <div className="col-12 col-md-5 small">
                    <time dateTime={event.at} className="d-block text-body-secondary">
                      {format.moment(event.at)}
                    </time>
                    <span className="d-block fw-semibold text-break">
                      {event.by ?? t('books.activity.by-nobody')}
                    </span>
                  </div>
                  <div className="col-12 col-md-7 text-break">{describeActivity(event, texts)}</div>
                </div>
              </li>
            ))}
          </ol>
        )}
        {activity.hasNextPage && (
          <button
            type="button"
            className="btn btn-outline-secondary btn-sm"
            disabled={activity.isFetchingNextPage}
            onClick={() => void activity.fetchNextPage()}
          >
            {t('books.activity.load-more')}
          </button>
        )}
      </div>
    </div>
  );
}
