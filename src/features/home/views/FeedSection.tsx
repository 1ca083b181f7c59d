import { formatDate } from '#shared/format.ts';
import type { FeedAnnouncement, FeedFeatured, MemberFeed } from '#src/features/feeds/index.ts';
import { CsrfField } from '#views/kit/form.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/**
 * The member's feed from the team (the feeds area's announcements and featured items) on the home
 * page, below what is new in the forum and the articles (its unseen count is in the strip at the top):
 * pinned first, then newest first; each announcement has a plain form to mark it seen (no
 * script), and those seen fold away below, in a <details> that opens without one.
 */

/** An address as a link's href: a path of this site under the prefix, a web address as it is. */
function useLinkTo(): (url: string) => string {
  const href = useHref();
  return (url) => (url.startsWith('/') ? href(url) : url);
}

function Announcement({ item, folded }: { item: FeedAnnouncement; folded?: boolean }) {
  const { t } = usePage();
  const href = useHref();
  const linkTo = useLinkTo();
  const headingId = `feed-announcement-${item.id}`;
  return (
    <article className="feed-item" aria-labelledby={headingId}>
      {item.pinned && !folded ? <p className="feed-kind">{t('feeds.feed.pinned')}</p> : null}
      <h3 id={headingId}>{item.title}</h3>
      {item.imagePath && !folded ? <img className="feed-image" src={href(item.imagePath)} alt={item.imageAlt} width={640} height={360} loading="lazy" decoding="async" /> : null}
      {item.bodyHtml ? <div className="rich-text" dangerouslySetInnerHTML={{ __html: item.bodyHtml }} /> : null}
      {item.link ? (
        <p>
          <a href={linkTo(item.link.url)}>{item.link.label}</a>
        </p>
      ) : null}
      <p className="home-line muted">{t('feeds.feed.posted', { date: formatDate(item.at) })}</p>
      {item.seen ? null : (
        <form method="post" action={href(`/feeds/announcements/${item.id}/seen`)} className="inline-form">
          <CsrfField />
          <button type="submit" className="button button-secondary" aria-label={t('feeds.feed.markSeenLabel', { title: item.title })}>
            {t('feeds.feed.markSeen')}
          </button>
        </form>
      )}
    </article>
  );
}

function Featured({ item }: { item: FeedFeatured }) {
  const { t } = usePage();
  const linkTo = useLinkTo();
  const kind = t(`feeds.feed.kind.${item.itemKind}`);
  const when =
    item.itemKind === 'event' && item.eventAt
      ? item.place
        ? t('feeds.feed.eventAt', { date: formatDate(item.eventAt), place: item.place })
        : t('feeds.feed.event', { date: formatDate(item.eventAt) })
      : t('feeds.feed.featuredOn', { date: formatDate(item.at) });
  return (
    <article className="feed-item" aria-labelledby={`feed-featured-${item.id}`}>
      <p className="feed-kind">{item.pinned ? `${t('feeds.feed.pinned')} · ${kind}` : kind}</p>
      <h3 id={`feed-featured-${item.id}`}>
        <a href={linkTo(item.url)}>{item.title}</a>
      </h3>
      <p className="home-line muted">{when}</p>
    </article>
  );
}

export function FeedSection({ feed }: { feed: MemberFeed }) {
  const { t } = usePage();
  return (
    <section className="home-feed feed" id="feed" aria-labelledby="home-feed-heading">
      <h2 id="home-feed-heading">
        {t('feeds.feed.heading')} <span className="feed-count">({t('feeds.feed.unseen', { count: feed.unseen })})</span>
      </h2>
      {feed.items.length === 0 ? (
        <p className="muted">{t('feeds.feed.empty')}</p>
      ) : (
        <ul className="feed-list">
          {feed.items.map((item) => (
            <li key={`${item.kind}-${item.id}`} className={item.pinned ? 'feed-pinned' : undefined}>
              {item.kind === 'announcement' ? <Announcement item={item} /> : <Featured item={item} />}
            </li>
          ))}
        </ul>
      )}
      {feed.seen.length ? (
        <details className="feed-seen">
          <summary>{t('feeds.feed.seenHeading', { count: feed.seen.length })}</summary>
          <ul className="feed-list">
            {feed.seen.map((item) => (
              <li key={item.id}>
                <Announcement item={item} folded />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
