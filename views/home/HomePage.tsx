import { displayName } from '#src/core/identity.ts';
import { useHref, usePage } from '#views/layout/page-context.tsx';

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

function SignedInHome() {
  const { t, community, identity, guardian } = usePage();
  const href = useHref();
  if (!identity.loggedIn) return null;
  const links = [
    { path: '/members', label: t('home.signedIn.members') },
    { path: '/articles', label: t('home.signedIn.articles') },
    { path: '/expert-panels', label: t('home.signedIn.expertPanels') },
    ...(guardian.canSeeForum() ? [{ path: '/forum', label: t('home.signedIn.forum') }] : []),
    { path: community.exec_link ? '/offers/exec' : '/offers', label: t('home.signedIn.offers') },
  ];
  return (
    <section>
      <h1>{t('home.signedIn.heading', { name: displayName(identity.user) })}</h1>
      <p className="lead">{t('home.signedIn.intro', { appName: community.app_name })}</p>
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

export function HomePage() {
  const { identity } = usePage();
  return identity.loggedIn ? <SignedInHome /> : <SignedOutHome />;
}
