import { formatDate } from '#shared/format.ts';
import type { BadgeView } from '#src/features/badges/index.ts';
import type { AVATAR_SIZES as AvatarSizes, MemberProfile, ProfileArticle, SOCIAL_NETWORKS as SocialNetworks } from '#src/features/members/index.ts';
import { useHref, usePage } from '#views/layout/page-context.tsx';
import { avatarAt, initialsOf } from '#views/kit/avatar.ts';
import { IntroduceLink } from '#src/features/members/views/Introductions.tsx';

/** The service's presets and networks (their types hold these values to the service's). */
const AVATAR_SIZES: typeof AvatarSizes = { xs: 24, mini: 35, tiny: 80, small: 150, default: 200, medium: 300, large: 450 };
export const SOCIAL_NETWORKS: typeof SocialNetworks = ['linkedin', 'twitter', 'facebook', 'instagram', 'crunchbase', 'angellist', 'website'];
const AVATAR_PIXELS = [...new Set(Object.values(AVATAR_SIZES))].sort((a, b) => a - b);

/** A member's photo at a size, or their initials; decorative (the name is next to it). */
export function ProfileAvatar({ name, url, size }: { name: string; url: string | null; size: number }) {
  const href = useHref();
  if (url) {
    // Stored avatars are ours (through the path prefix): the preset of the size shown, and twice it
    // (or the largest) for dense screens.
    if (url.startsWith('/avatars/')) {
      const at = (px: number) => href(avatarAt(url, px));
      const one = AVATAR_PIXELS.find((px) => px >= size) ?? 450;
      const two = AVATAR_PIXELS.find((px) => px >= size * 2) ?? 450;
      return <img className="profile-avatar" src={at(one)} srcSet={`${at(one)} 1x, ${at(two)} 2x`} alt="" width={size} height={size} />;
    }
    return <img className="profile-avatar" src={url} alt="" width={size} height={size} />;
  }
  return (
    <span className="profile-avatar profile-initials" aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}

/** The network's address as a short label: the host and path without the scheme. */
const shortAddress = (url: string) => url.replace(/^https?:\/\/(www\.)?/i, '').replace(/\/$/, '');

/** /profile/{userId}: spec section 3's member snapshot, the company profile, links and published articles. */
export function ProfilePage({
  profile,
  articles,
  badges = [],
  isSelf,
  messageHref,
}: {
  profile: MemberProfile;
  articles: ProfileArticle[];
  badges?: BadgeView[];
  isSelf: boolean;
  /** Where the viewer writes to this member, when the two were introduced (the conversations' page). */
  messageHref?: string;
}) {
  const { t } = usePage();
  const href = useHref();
  const c = profile.company;
  const links = SOCIAL_NETWORKS.filter((n) => profile.links[n]);
  const companyFacts: Array<[string, string]> = [
    [t('profile.company.name'), c.name ?? ''],
    [t('profile.company.industry'), c.industry ?? ''],
    [t('profile.company.areaOfFocus'), c.areaOfFocus ?? ''],
    [t('profile.company.employeeCount'), c.employeeCount == null ? '' : c.employeeCount.toLocaleString('en-US')],
  ].filter(([, v]) => v !== '') as Array<[string, string]>;
  // The member's badges (the badges area's), and the flags a badge does not show yet (its check is queued).
  const pills: { key: string; name: string }[] = badges.map((b) => ({ key: `${b.key}:${b.level}`, name: b.name }));
  if (profile.isModerator && !badges.some((b) => b.key === 'moderator')) pills.unshift({ key: 'moderator', name: t('profile.moderator') });
  if (profile.isFounding && !badges.some((b) => b.key === 'founding_member')) pills.unshift({ key: 'founding', name: t('profile.founding') });
  return (
    <article className="profile" aria-labelledby="profile-name">
      <header className="profile-head">
        <ProfileAvatar name={profile.name} url={profile.avatar} size={150} />
        <div className="profile-ident">
          <h1 id="profile-name">
            {profile.name}
            {profile.displayPronouns && profile.pronouns ? (
              <span className="profile-pronouns">
                {' '}
                <span className="visually-hidden">{t('profile.pronouns')}: </span>({profile.pronouns})
              </span>
            ) : null}
          </h1>
          {pills.length ? (
            <ul className="profile-badges plain" aria-label={t('badges.profile.heading')}>
              {pills.map((p) => (
                <li key={p.key} className="badge">
                  {p.name}
                </li>
              ))}
            </ul>
          ) : null}
          {isSelf ? (
            <p className="profile-line">
              <a href={href('/badges')}>{t('badges.profile.yours')}</a>
            </p>
          ) : null}
          <p className="profile-line">
            {[profile.jobTitle, profile.companyName].filter(Boolean).join(', ')}
          </p>
          {profile.location ? <p className="profile-line muted">{profile.location}</p> : null}
          <p className="profile-line muted">{t('profile.memberSince', { date: formatDate(profile.joinedAt) })}</p>
          <p className="button-row">
            {isSelf ? (
              <a className="button" href={href(`/profile/${profile.id}/self`)}>
                {t('profile.edit')}
              </a>
            ) : (
              <>
                {messageHref ? (
                  <a className="button" href={href(messageHref)}>
                    {t('profile.message')}
                    <span className="visually-hidden">{t('profile.messageSuffix', { name: profile.name })}</span>
                  </a>
                ) : null}
                <IntroduceLink userId={profile.id} name={profile.name} />
              </>
            )}
          </p>
        </div>
      </header>

      <section aria-labelledby="profile-company">
        <h2 id="profile-company">{t('profile.company.heading')}</h2>
        {companyFacts.length ? (
          <dl className="profile-facts">
            {companyFacts.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        ) : null}
        {c.description ? (
          <div className="profile-description">
            {c.description.split(/\n{2,}/).map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
        ) : null}
        {!companyFacts.length && !c.description ? <p className="muted">{t('profile.company.empty')}</p> : null}
      </section>

      <section aria-labelledby="profile-links">
        <h2 id="profile-links">{t('profile.links.heading')}</h2>
        {links.length ? (
          <ul className="profile-links plain">
            {links.map((n) => (
              <li key={n}>
                <span className="profile-link-label">{t(`profile.links.${n}`)}: </span>
                <a href={profile.links[n]!} rel="noopener noreferrer ugc">
                  {shortAddress(profile.links[n]!)}
                </a>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t('profile.links.empty')}</p>
        )}
      </section>

      <section aria-labelledby="profile-articles">
        <h2 id="profile-articles">{t('profile.articles.heading')}</h2>
        {articles.length ? (
          <ul className="profile-articles plain">
            {articles.map((a) => (
              <li key={a.id}>
                {a.articleUrl ? (
                  <a href={a.articleUrl} rel="noopener noreferrer">
                    {a.title}
                  </a>
                ) : (
                  <span>{a.title}</span>
                )}
                {a.publishedDate ? <span className="muted"> · {t('profile.articles.publishedOn', { date: formatDate(a.publishedDate) })}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">{t('profile.articles.empty')}</p>
        )}
      </section>
    </article>
  );
}
