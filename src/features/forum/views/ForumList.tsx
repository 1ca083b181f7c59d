import type { PostSummary, TopicView } from '#src/features/forum/index.ts';
import { Alert } from '#views/kit/alert.tsx';
import { Badge } from '#views/kit/badge.tsx';
import { Button } from '#views/kit/button.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { ForumAvatar, StatusBadges, TopicLinks, When } from '#src/features/forum/views/parts.tsx';

export type ForumListProps = {
  pinned: PostSummary[];
  posts: PostSummary[];
  topics: TopicView[];
  topicId: number | null;
  q: string;
  /** The next page's address, or null on the last. */
  olderHref: string | null;
  canModerate: boolean;
  /** An error beside the search box (hostile input). */
  qError?: string;
  notice?: string;
};

/**
 * A row of the list: the author's face, the title (a link
 * that covers the row, so the whole row answers to hover and press), whether the viewer never opened
 * it or how many replies came since their visit (decision 0065), its badges, topics in their colours,
 * the faces of up to three who replied last, counts and last activity.
 */
function PostRow({ post }: { post: PostSummary }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <li className={post.unread ? 'forum-row forum-row-unread' : 'forum-row'}>
      <ForumAvatar member={post.author} />
      <div className="forum-row-body">
        <h3 className="forum-row-title">
          {post.unread ? (
            <span className="forum-unread">
              <span className="visually-hidden">{t('forumPages.list.unread')}: </span>
            </span>
          ) : null}
          <a className="forum-row-link" href={href(`/forum/post/${post.id}`)}>
            {post.title}
          </a>{' '}
          {post.newReplyCount > 0 ? <Badge tone="strong">{t('forumPages.list.newShort', { n: post.newReplyCount })}</Badge> : null}
          <StatusBadges status={post.status} pinned={post.pinned} locked={post.locked} />
        </h3>
        <p className="forum-meta">
          <span>{t('forumPages.post.byAuthor', { name: post.author.name })}</span>
          {post.author.companyName ? <span className="muted"> · {post.author.companyName}</span> : null}
        </p>
        <div className="forum-row-foot">
          <TopicLinks topics={post.topics} />
          <p className="forum-meta muted">
            {post.repliers.length > 0 ? (
              <span className="forum-repliers">
                {post.repliers.map((m) => (
                  <ForumAvatar key={m.id} member={m} />
                ))}
                <span className="visually-hidden">{t('forumPages.list.repliedBy', { names: post.repliers.map((m) => m.name).join(', ') })}. </span>
              </span>
            ) : null}
            {t('forumPages.list.replies', { n: post.replyCount })} · {t('forumPages.list.likes', { n: post.likeCount })} · <When at={post.lastActivityAt} template="forumPages.list.lastActivity" />
          </p>
        </div>
      </div>
    </li>
  );
}

/** The forum's list: search, topic filter, pinned posts, then the newest activity, a keyset page at a time. */
export function ForumList({ pinned, posts, topics, topicId, q, olderHref, canModerate, qError, notice }: ForumListProps) {
  const { t } = usePage();
  const href = useHref();
  const filtered = Boolean(q) || topicId !== null;
  const topic = topicId !== null ? topics.find((x) => x.id === topicId) : undefined;
  const heading = q ? t('forumPages.list.resultsFor', { q }) : topic ? t('forumPages.list.inTopic', { topic: topic.name }) : t('forumPages.list.postsHeading');
  return (
    <section className="forum">
      <div className="forum-head">
        <h1>{t('forumPages.list.heading')}</h1>
        <p className="button-row">
          <a className="button" href={href('/forum/new')}>
            {t('forumPages.list.newPost')}
          </a>
          {canModerate ? (
            <a className="button button-secondary" href={href('/forum/moderation')}>
              {t('forumPages.list.moderation')}
            </a>
          ) : null}
        </p>
      </div>
      {notice ? <Alert kind="success">{notice}</Alert> : null}
      <form method="get" action={href('/forum')} className="filters forum-search" role="search">
        <div className={qError ? 'field field-invalid' : 'field'}>
          <label htmlFor="forum-q">{t('forumPages.list.search')}</label>
          <input id="forum-q" name="q" type="search" defaultValue={q} maxLength={200} aria-invalid={qError ? true : undefined} aria-describedby={qError ? 'forum-q-error' : undefined} />
          {qError ? (
            <p className="field-error" id="forum-q-error">
              {qError}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="forum-topic">{t('forumPages.list.topic')}</label>
          <select id="forum-topic" name="topic" defaultValue={topicId !== null ? String(topicId) : ''}>
            <option value="">{t('forumPages.list.allTopics')}</option>
            {topics.map((x) => (
              <option key={x.id} value={String(x.id)}>
                {x.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t('forumPages.list.searchButton')}
        </button>
        {filtered ? <a href={href('/forum')}>{t('forumPages.list.clear')}</a> : null}
      </form>
      {pinned.length > 0 ? (
        <>
          <h2>{t('forumPages.list.pinnedHeading')}</h2>
          <ul className="plain forum-rows">
            {pinned.map((p) => (
              <PostRow key={p.id} post={p} />
            ))}
          </ul>
        </>
      ) : null}
      <h2>{heading}</h2>
      {posts.length === 0 && pinned.length === 0 ? (
        filtered ? (
          <EmptyState title={t('forumPages.list.emptyFiltered')} />
        ) : (
          <EmptyState title={t('forumPages.list.empty')} action={<Button href={href('/forum/new')}>{t('forumPages.list.newPost')}</Button>} />
        )
      ) : null}
      <ul className="plain forum-rows">
        {posts.map((p) => (
          <PostRow key={p.id} post={p} />
        ))}
      </ul>
      {olderHref ? (
        <nav className="notif-pager" aria-label={t('forumPages.list.pages')}>
          <a href={href(olderHref)}>{t('forumPages.list.older')}</a>
        </nav>
      ) : null}
    </section>
  );
}
