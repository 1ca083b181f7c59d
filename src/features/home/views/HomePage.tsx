import type { ReactNode } from 'react';
import { displayName, formatDate, formatRelative } from '#shared/format.ts';
import type { HomeMember, OpenItem, WhatsNew } from '#src/features/home/index.ts';
import { useHref, usePage, showsRelativeTimes } from '#views/layout/page-context.tsx';
import { avatarAt, initialsOf } from '#views/kit/avatar.ts';
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

function OpenItemLine({ item }: { item: OpenItem }) {
  const { t } = usePage();
  const href = useHref();
  if (item.kind === 'article') {
    const title = item.title || t('home.open.untitled');
    return (
      <li>
        <a href={href(item.path)}>{title}</a> <span className="muted">· {t(`home.open.article.${item.stage}`)}</span>
      </li>
    );
  }
  if (item.kind === 'introduction') {
    return (
      <li>
        <a href={href(item.path)}>{t('home.open.introduction', { name: item.targetName })}</a> <span className="muted">· {t('home.open.introductionWaits', { date: formatDate(item.createdAt) })}</span>
      </li>
    );
  }
  return (
    <li>
      <a href={href(item.path)}>{item.title}</a> <span className="muted">· {t('home.open.forumPostWaits')}</span>
    </li>
  );
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

function SignedInHome({ news }: { news: WhatsNew }) {
  const page = usePage();
  const { t, community, identity, now } = page;
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

      <FeedSection feed={news.feed} />

      <Feed id="home-open" heading={t('home.open.heading')} empty={news.openItems.length ? null : t('home.open.empty')}>
        <ul className="home-list">
          {news.openItems.map((item) => (
            <OpenItemLine key={`${item.kind}-${item.id}`} item={item} />
          ))}
        </ul>
      </Feed>

      <div className="home-grid">
        {news.forumPosts ? (
          <Feed id="home-forum" heading={t('home.forum.heading')} empty={news.forumPosts.length ? null : t('home.forum.empty')} more={{ path: '/forum', label: t('home.forum.more') }}>
            <ul className="home-list">
              {news.forumPosts.map((p) => (
                <li key={p.id}>
                  <a href={href(`/forum/post/${p.id}`)}>{p.title}</a>
                  <span
                    className="home-line muted"
                    data-rel={t('home.forum.byline', { name: p.authorName, when: '{when}', replies: p.replyCount })}
                    data-rel-at={new Date(p.createdAt).toISOString()}
                  >
                    {t('home.forum.byline', { name: p.authorName, when: formatRelative(p.createdAt, now, t).text, replies: p.replyCount })}
                  </span>
                </li>
              ))}
            </ul>
          </Feed>
        ) : null}

        <Feed id="home-articles" heading={t('home.articles.heading')} empty={news.articles.length ? null : t('home.articles.empty')}>
          <ul className="home-list">
            {news.articles.map((a) => (
              <li key={a.id}>
                <a href={href(`${a.path}#profile-articles`)}>{a.title || t('home.open.untitled')}</a>
                <span className="home-line muted">
                  {a.publishedDate ? t('home.articles.byline', { name: a.authorName, date: formatDate(a.publishedDate) }) : t('home.articles.by', { name: a.authorName })}
                </span>
              </li>
            ))}
          </ul>
        </Feed>
      </div>

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
