import { EmptyState } from '#views/kit/empty-state.tsx';
import { CsrfField, Hidden } from '#views/kit/form.tsx';
import { useHref, usePage, showsRelativeTimes } from '#views/layout/page-context.tsx';

/** One notification as the list shows it: the route has already put its time into words. */
export type NotificationListItem = { id: number; message: string; when: string; isoTime: string; unread: boolean };

/** Where the list is (narrowed to one option, or a page of it): the forms send it back to return there. */
export type ListPlace = { option?: string; after?: string; before?: string };

export type NotificationsPageProps = {
  items: NotificationListItem[];
  /** The option the list is narrowed to (`?option=`), with its name. */
  option: { id: string; name: string } | null;
  place: ListPlace;
  newerHref: string | null;
  olderHref: string | null;
  hasUnread: boolean;
};

function PlaceFields({ place }: { place: ListPlace }) {
  return (
    <>
      <CsrfField />
      <Hidden name="option" value={place.option} />
      <Hidden name="after" value={place.after} />
      <Hidden name="before" value={place.before} />
    </>
  );
}

/** The notifications list (spec section 2, /notifications; "Other UI"): mark one or all read, no-data message, footer link. */
export function NotificationsPage({ items, option, place, newerHref, olderHref, hasUnread }: NotificationsPageProps) {
  const page = usePage();
  const { t } = page;
  if (items.length > 0) showsRelativeTimes(page);
  const href = useHref();
  return (
    <section className="notif-page" aria-labelledby="notif-heading">
      <div className="notif-head">
        <h1 id="notif-heading">{option ? t('notifications.list.headingOption', { name: option.name }) : t('notifications.list.heading')}</h1>
        {hasUnread ? (
          <form method="post" action={href('/notifications/read-all')}>
            <PlaceFields place={place} />
            <button type="submit" className="button button-secondary">
              {t('notifications.list.markAll')}
            </button>
          </form>
        ) : null}
      </div>
      {option ? (
        <p className="button-row notif-option">
          <a className="button" href={href(`/settings/notifications#${option.id}`)}>
            {t('notifications.list.manageSettings')}
          </a>
          <a className="notif-back" href={href('/notifications')}>
            {t('notifications.list.backToAll')}
          </a>
        </p>
      ) : null}
      {items.length === 0 ? (
        <EmptyState title={option ? t('notifications.list.emptyOption', { name: option.name }) : t('notifications.list.empty')} />
      ) : (
        <ul className="notif-list">
          {items.map((n) => (
            <li key={n.id} className={n.unread ? 'notif-item is-unread' : 'notif-item'}>
              {n.unread ? <span className="notif-badge">{t('notifications.list.unread')}</span> : null}
              <a className="notif-link" href={href(`/notifications/${n.id}/open`)}>
                {n.message}
              </a>
              <time className="notif-time muted" dateTime={n.isoTime} data-rel="">
                {n.when}
              </time>
              {n.unread ? (
                <form className="notif-mark" method="post" action={href(`/notifications/${n.id}/read`)}>
                  <PlaceFields place={place} />
                  <button type="submit" className="link-button notif-mark-button">
                    {t('notifications.list.markRead')}
                    <span className="visually-hidden">{t('notifications.list.markReadSuffix', { message: n.message })}</span>
                  </button>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {newerHref || olderHref ? (
        <nav className="notif-pager" aria-label={t('notifications.list.pages')}>
          {newerHref ? <a href={href(newerHref)}>{t('notifications.list.newer')}</a> : <span />}
          {olderHref ? <a href={href(olderHref)}>{t('notifications.list.older')}</a> : null}
        </nav>
      ) : null}
      <footer className="notif-footer">
        <a href={href('/settings/notifications')}>{t('notifications.list.footer')}</a>
      </footer>
    </section>
  );
}
