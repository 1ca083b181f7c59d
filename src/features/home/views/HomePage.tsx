import type { ReactNode } from 'react';
import { displayName, formatDate, formatRelative } from '#shared/format.ts';
import type { HomeArticle, HomeMember, HomePost, NewsTile, OpenItem, WhatsNew } from '#src/features/home/index.ts';
import { useHref, usePage, showsRelativeTimes } from '#views/layout/page-context.tsx';
import { avatarAt, initialsOf } from '#views/kit/avatar.ts';
import { ReadStateBadge } from '#views/kit/badge.tsx';
import { List, ListRow } from '#views/kit/list-row.tsx';
import { FaceStack, MemberAvatar } from '#views/kit/member-avatar.tsx';
import { FeedSection } from './FeedSection.tsx';

function SignedOutHome() {
  const { t, community } = usePage();
  const href = useHref();
  return (
    <section className="hero">
      <h1>{t('home.signedOut.heading', { name: community.name })}</h1>
      <p className="lead">{t('home.signedOut.intro', { familiarName: community.familiar_name })}</p>
      <p className="actions">
        <a className="button" href={href('/login')}>
          {t('home.signedOut.signIn')}
        </a>
        {community.link_membership_info ? (
          <a className="button button-secondary" href={community.link_membership_info} rel="noopener">
            {t('home.signedOut.membershipInfo')}
          </a>
        ) : null}
      </p>
    </section>
  );
}

/** A section of the home page: its heading, its items or its empty state, and where to see more. */
function Feed({ id, heading, empty, more, children }: { id: string; heading: string; empty: string | null; more?: { path: string; label: string }; children?: ReactNode }) {
  const href = useHref();
  return (
    <section className="home-feed" aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {empty === null ? children : <p className="muted">{empty}</p>}
      {more ? (
        <p className="home-more">
          <a href={href(more.path)}>{more.label}</a>
        </p>
      ) : null}
    </section>
  );
}

/** One of the member's own open items: where it is dealt with, and what it waits for. */
function OpenItemLine({ item }: { item: OpenItem }) {
  const { t } = usePage();
  const href = useHref();
  const [title, meta] =
    item.kind === 'article'
      ? [item.title || t('home.open.untitled'), t(`home.open.article.${item.stage}`)]
      : item.kind === 'introduction'
        ? [t('home.open.introduction', { name: item.targetName }), t('home.open.introductionWaits', { date: formatDate(item.createdAt) })]
        : [item.title, t('home.open.forumPostWaits')];
  return <ListRow title={title} href={href(item.path)} meta={meta} className="home-open-item" />;
}

function MemberTile({ member }: { member: HomeMember }) {
  const { t } = usePage();
  const href = useHref();
  const photo = member.avatar ? (member.avatar.startsWith('/') ? href(avatarAt(member.avatar, 80)) : member.avatar) : null;
  return (
    <li className="home-member">
      {photo ? (
        <img className="home-avatar" src={photo} alt="" width={48} height={48} loading="lazy" decoding="async" />
      ) : (
        <span className="home-avatar member-initials" aria-hidden="true">
          {initialsOf(member.name)}
        </span>
      )}
      <span className="home-member-body">
        <a href={href(`/profile/${member.id}`)}>{member.name}</a>
        {member.jobTitle || member.companyName ? <span className="home-line">{[member.jobTitle, member.companyName].filter(Boolean).join(', ')}</span> : null}
        <span className="home-line muted">{t('home.members.joined', { date: formatDate(member.joinedAt) })}</span>
      </span>
    </li>
  );
}

/**
 * What is new for this member, first: a tile per kind of news that has any (unread posts, new replies
 * in threads they read, the team's unseen announcements, new members), each a count in words, the
 * faces behind it, and a link to where it is. With nothing new, one line says so.
 */
function NewsStrip({ tiles }: { tiles: NewsTile[] }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <section className="home-news" aria-labelledby="home-news">
      <h2 id="home-news" className="visually-hidden">
        {t('home.news.heading')}
      </h2>
      {tiles.length === 0 ? (
        <p className="muted">{t('home.news.none')}</p>
      ) : (
        <ul className="home-stats">
          {tiles.map((tile) => (
            <li key={tile.kind}>
              <a className="home-stat" href={tile.to.startsWith('#') ? tile.to : href(tile.to)}>
                <span className="home-stat-n">{tile.over ? `${tile.count}+` : tile.count}</span>{' '}
                <span className="home-stat-label">{t(`home.news.${tile.kind}`, { n: tile.count })}</span>
                <FaceStack members={tile.faces} />
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * A new forum post: its author's face, the title (bold while unread) with what is new in it (a "New"
 * badge, or how many replies came since the member's visit), then the faces of those who replied last
 * and the byline.
 */
function PostLine({ post }: { post: HomePost }) {
  const { t, now } = usePage();
  const href = useHref();
  return (
    <ListRow
      unread={post.unread}
      lead={<MemberAvatar member={post.author} />}
      title={
        <>
          <a href={href(`/forum/post/${post.id}`)}>{post.title}</a>
          <ReadStateBadge unread={post.unread} newCount={post.newReplyCount} />
        </>
      }
      meta={
        <>
          <FaceStack members={post.repliers} />
          <span
            className="home-line"
            data-rel={t('home.forum.byline', { name: post.authorName, when: '{when}', replies: post.replyCount })}
            data-rel-at={new Date(post.createdAt).toISOString()}
          >
            {t('home.forum.byline', { name: post.authorName, when: formatRelative(post.createdAt, now, t).text, replies: post.replyCount })}
          </span>
        </>
      }
    />
  );
}

/** A newly published article: its author's face, the title, who and when. */
function ArticleLine({ article }: { article: HomeArticle }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <ListRow
      lead={<MemberAvatar member={article.author} />}
      title={article.title || t('home.open.untitled')}
      href={href(`${article.path}#profile-articles`)}
      meta={article.publishedDate ? t('home.articles.byline', { name: article.authorName, date: formatDate(article.publishedDate) }) : t('home.articles.by', { name: article.authorName })}
    />
  );
}

function SignedInHome({ news }: { news: WhatsNew }) {
  const page = usePage();
  const { t, community, identity } = page;
  if (news.forumPosts?.length) showsRelativeTimes(page);
  const href = useHref();
  if (!identity.loggedIn) return null;
  // Only pages that exist: the directory, the articles, and the forum where the community has one.
  const links = [
    { path: '/members', label: t('home.signedIn.members') },
    { path: '/articles', label: t('home.signedIn.articles') },
    ...(news.forumPosts ? [{ path: '/forum', label: t('home.signedIn.forum') }] : []),
  ];
  return (
    <section className="home">
      <h1>{t('home.signedIn.heading', { name: displayName(identity.user) })}</h1>
      <p className="lead">{t('home.signedIn.intro', { appName: community.app_name })}</p>

      <NewsStrip tiles={news.news} />

      <Feed id="home-open" heading={t('home.open.heading')} empty={news.openItems.length ? null : t('home.open.empty')}>
        <List>
          {news.openItems.map((item) => (
            <OpenItemLine key={`${item.kind}-${item.id}`} item={item} />
          ))}
        </List>
      </Feed>

      <div className="home-grid">
        {news.forumPosts ? (
          <Feed id="home-forum" heading={t('home.forum.heading')} empty={news.forumPosts.length ? null : t('home.forum.empty')} more={{ path: '/forum', label: t('home.forum.more') }}>
            <List>
              {news.forumPosts.map((p) => (
                <PostLine key={p.id} post={p} />
              ))}
            </List>
          </Feed>
        ) : null}

        <Feed id="home-articles" heading={t('home.articles.heading')} empty={news.articles.length ? null : t('home.articles.empty')}>
          <List>
            {news.articles.map((a) => (
              <ArticleLine key={a.id} article={a} />
            ))}
          </List>
        </Feed>
      </div>

      <FeedSection feed={news.feed} />

      <Feed id="home-members" heading={t('home.members.heading')} empty={news.newMembers.length ? null : t('home.members.empty')} more={{ path: '/members', label: t('home.members.more') }}>
        <ul className="home-members">
          {news.newMembers.map((m) => (
            <MemberTile key={m.id} member={m} />
          ))}
        </ul>
      </Feed>

      <h2>{t('home.signedIn.explore')}</h2>
      <ul className="card-links">
        {links.map((l) => (
          <li key={l.path}>
            <a href={href(l.path)}>{l.label}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function HomePage({ news }: { news: WhatsNew | null }) {
  const { identity } = usePage();
  return identity.loggedIn && news ? <SignedInHome news={news} /> : <SignedOutHome />;
}
