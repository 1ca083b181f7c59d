import type { ReactNode } from 'react';
import { displayName, relativeTimeLabels } from '#shared/format.ts';
import type { Ad } from '#src/db/types.ts';
import { assetUrl } from '#shared/asset-url.ts';
import { avatarAt, initialsOf } from '#views/kit/avatar.ts';
import { ConsentBanner } from './consent.tsx';
import { ContactDialog, ContactLink } from './contact.tsx';
import { Island } from './Island.tsx';
import { useHref, usePage } from './page-context.tsx';

type NavItem = { key: string; label: string; path: string };

function useNavItems(): NavItem[] {
  const { t, community, guardian } = usePage();
  const items: NavItem[] = [];
  if (guardian.canSeeForum()) items.push({ key: 'forum', label: t('shell.nav.forum'), path: '/forum' });
  items.push({ key: 'members', label: t('shell.nav.members'), path: '/members' });
  items.push({ key: 'expert-panels', label: t('shell.nav.expertPanels'), path: '/expert-panels' });
  items.push({ key: 'articles', label: t('shell.nav.articles'), path: '/articles' });
  items.push(
    community.exec_link
      ? { key: 'offers', label: t('shell.nav.offersExec'), path: '/offers/exec' }
      : { key: 'offers', label: t('shell.nav.offers'), path: '/offers' },
  );
  return items;
}

function isCurrent(currentPath: string, path: string) {
  return currentPath === path || currentPath.startsWith(`${path}/`);
}

function NavLinks({ items }: { items: NavItem[] }) {
  const { currentPath } = usePage();
  const href = useHref();
  return (
    <ul className="nav-list">
      {items.map((item) => (
        <li key={item.key}>
          <a href={href(item.path)} aria-current={isCurrent(currentPath, item.path) ? 'page' : undefined}>
            {item.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The community's extra links (navMore), in the More menu and the mobile sidebar alike. */
function NavMoreLinks({ className }: { className: string }) {
  const { community } = usePage();
  return (
    <ul className={className}>
      {community.nav_more.map((item) => (
        <li key={item.link}>
          <a href={item.link} rel="noopener">
            {item.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

function MoreMenu() {
  const { t, community } = usePage();
  if (community.nav_more.length === 0) return null;
  return (
    <details className="menu more-menu">
      <summary>{t('shell.nav.more')}</summary>
      <NavMoreLinks className="menu-list" />
    </details>
  );
}

function SignOutForm({ className }: { className?: string }) {
  const { t, csrfToken } = usePage();
  const href = useHref();
  return (
    <form method="post" action={href('/logout')} className={className}>
      <input type="hidden" name="_csrf" value={csrfToken} />
      <button type="submit" className="link-button">
        {t('shell.userMenu.signOut')}
      </button>
    </form>
  );
}

function Avatar({ name, url }: { name: string; url: string | null }) {
  const href = useHref();
  if (url?.startsWith('/avatars/')) {
    // 32 px on screen: the 35 px preset, the 80 px one on dense screens (not the 200 px default).
    return <img className="avatar" src={href(avatarAt(url, 35))} srcSet={`${href(avatarAt(url, 80))} 2x`} alt="" width={32} height={32} />;
  }
  if (url) return <img className="avatar" src={url} alt="" width={32} height={32} />;
  const initials = initialsOf(name);
  // The initials are drawn by CSS (::before), so they are a picture of the member rather than text:
  // as text they would be part of the menu's visible label without being in its accessible name
  // (WCAG 2.5.3 Label in Name).
  return <span className="avatar avatar-initials" aria-hidden="true" data-initials={initials} />;
}

/** A signed-in member's own places, in the account menu and the mobile menu alike: profile, messages, groups. */
function MemberLinks({ userId }: { userId: number }) {
  const { t } = usePage();
  const href = useHref();
  return (
    <>
      <li>
        <a href={href(`/profile/${userId}/self`)}>{t('shell.userMenu.manageProfile')}</a>
      </li>
      <li>
        <a href={href('/messages')}>{t('shell.userMenu.messages')}</a>
      </li>
      <li>
        <a href={href('/groups')}>{t('shell.userMenu.groups')}</a>
      </li>
    </>
  );
}

function UserMenu() {
  const { t, identity } = usePage();
  const href = useHref();
  if (!identity.loggedIn) return null;
  const name = displayName(identity.user);
  return (
    <details className="menu user-menu">
      <summary aria-label={t('shell.userMenu.label', { name })}>
        <Avatar name={name} url={identity.user.avatarUrl} />
        <span className="user-name">{identity.user.firstName}</span>
      </summary>
      <ul className="menu-list menu-list-end">
        <MemberLinks userId={identity.user.id} />
        <li>
          <a href={href('/settings')}>{t('shell.userMenu.settings')}</a>
        </li>
        <li>
          <ContactLink />
        </li>
        <li>
          <SignOutForm />
        </li>
      </ul>
    </details>
  );
}

/** The alert after an action (src/lib/alerts.ts), above the page's content. */
function PageAlert() {
  const { alert, t } = usePage();
  if (!alert) return null;
  return <Island name="AlertBanner" props={{ displayType: alert.displayType, title: alert.title, message: alert.message, ttl: alert.ttl, dismissLabel: t('shell.alerts.dismiss') }} />;
}

function Tracker() {
  const href = useHref();
  return <Island name="Tracker" props={{ endpoint: href('/rest/events') }} />;
}

function Bell() {
  const { t, hasUnviewed } = usePage();
  const href = useHref();
  return (
    <Island
      name="NotificationBell"
      props={{
        href: href('/notifications'),
        graphqlUrl: href('/graphql'),
        unread: hasUnviewed,
        labels: {
          label: t('notifications.bell.label'),
          labelUnread: t('notifications.bell.labelUnread'),
          heading: t('notifications.bell.heading'),
          empty: t('notifications.bell.empty'),
          seeAll: t('notifications.bell.seeAll'),
          unread: t('notifications.bell.unread'),
          loading: t('notifications.bell.loading'),
          failed: t('notifications.bell.failed'),
          justNow: t('format.justNow'),
        },
      }}
    />
  );
}

function MobileNav({ items }: { items: NavItem[] }) {
  const { t, community, identity } = usePage();
  const href = useHref();
  return (
    <details className="mobile-nav">
      <summary>
        <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M3 6h18M3 12h18M3 18h18" />
        </svg>
        <span>{t('shell.nav.menu')}</span>
      </summary>
      <nav aria-label={t('shell.nav.mobileLabel')} className="mobile-nav-panel">
        <NavLinks items={items} />
        {community.nav_more.length > 0 ? (
          <>
            <h2 className="mobile-nav-heading">{t('shell.nav.more')}</h2>
            <NavMoreLinks className="nav-list" />
          </>
        ) : null}
        <ul className="nav-list">
          <li>
            <a href={href('/notifications')}>{t('shell.bell.label')}</a>
          </li>
          {identity.loggedIn ? <MemberLinks userId={identity.user.id} /> : null}
          <li>
            <a href={href('/settings')}>{t('shell.userMenu.settings')}</a>
          </li>
          <li>
            <ContactLink />
          </li>
        </ul>
        <SignOutForm className="mobile-signout" />
      </nav>
    </details>
  );
}

/**
 * The logo and the community's name. On a phone the full name would be cut ("Summit…"): its
 * familiar name is shown there instead, when it is the shorter (CSS picks one). The link's name is
 * the full one either way, and holds the short one (WCAG 2.5.3 Label in Name).
 */
function Brand() {
  const { t, community, basePath } = usePage();
  const href = useHref();
  const familiar = community.familiar_name.trim();
  const short = familiar && familiar.length < community.app_name.length ? familiar : null;
  return (
    <a className="brand" href={href('/')} aria-label={t('shell.homeLink', { appName: community.app_name })}>
      {community.icon ? <img src={assetUrl(basePath, community.icon)} alt="" className="brand-logo" width={32} height={32} /> : null}
      {short ? (
        <>
          <span className="brand-name brand-name-full">{community.app_name}</span>
          <span className="brand-name brand-name-short">{short}</span>
        </>
      ) : (
        <span className="brand-name">{community.app_name}</span>
      )}
    </a>
  );
}

export function SiteHeader() {
  const { t, guardian, signInHref } = usePage();
  const href = useHref();
  const items = useNavItems();
  return (
    <header className="site-header">
      <div className="header-inner">
        {guardian.isSignedIn ? <MobileNav items={items} /> : null}
        <Brand />
        {guardian.isSignedIn ? (
          <>
            <nav aria-label={t('shell.nav.label')} className="main-nav">
              <NavLinks items={items} />
              <MoreMenu />
            </nav>
            <div className="header-actions">
              <Bell />
              <UserMenu />
            </div>
          </>
        ) : (
          <div className="header-actions">
            <a className="button button-small" href={signInHref}>
              {t('shell.nav.signIn')}
            </a>
          </div>
        )}
      </div>
    </header>
  );
}

/**
 * One ad, a complementary landmark of its own: the masthead and the side rail are on the same page,
 * so each has its own label (axe landmark-unique). The masthead's "Learn more" is real text inside
 * the ad's link, not words painted on its art.
 */
export function AdSlot({ ad, shape }: { ad: Ad | null; shape: 'masthead' | 'medium-square' }) {
  const { t, guardian, basePath } = usePage();
  const href = useHref();
  if (!ad || !guardian.isSignedIn) return null;
  const masthead = shape === 'masthead';
  const [width, height] = masthead ? [700, 50] : [240, 240];
  return (
    <aside className={`ad ad-${shape}`} aria-label={t(masthead ? 'shell.ads.mastheadLabel' : 'shell.ads.railLabel')}>
      {/* Through the click route (counted, then redirected to the ad's own link). */}
      <a href={href(`/ads/${ad.id}/click`)} rel="noopener sponsored">
        <img src={ad.image_url.startsWith('/') ? href(ad.image_url) : assetUrl(basePath, ad.image_url)} alt={ad.alt_text} width={width} height={height} loading="lazy" />
        {/* On a phone the 700x50 art would shrink to unreadable text: its words are shown instead (CSS picks one). */}
        {masthead ? <span className="ad-text">{ad.alt_text}</span> : null}
        {masthead ? <span className="ad-cta">{t('shell.ads.learnMore')}</span> : null}
      </a>
    </aside>
  );
}

export function SiteFooter() {
  const { t, community, now, islands, analytics } = usePage();
  const href = useHref();
  const links = [
    { key: 'terms', url: community.link_terms, label: t('shell.footer.terms') },
    { key: 'privacy', url: community.link_privacy, label: t('shell.footer.privacy') },
    { key: 'membership', url: community.link_membership_info, label: t('shell.footer.membershipInfo') },
  ].filter((l) => l.url);
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <nav aria-label={t('shell.footer.label')}>
          <ul className="footer-links">
            {links.map((l) => (
              <li key={l.key}>
                <a href={l.url!} rel="noopener">
                  {l.label}
                </a>
              </li>
            ))}
            <li>
              <ContactLink />
            </li>
            {analytics?.offered ? (
              <li>
                <a href={href('/analytics')}>{t('insights.consent.footerLink')}</a>
              </li>
            ) : null}
          </ul>
        </nav>
        <p className="copyright">{t('shell.footer.copyright', { year: now.getUTCFullYear(), holder: community.copyright_holder })}</p>
        {/* Rendered after the page's content, so it knows whether the page showed a relative time. */}
        {islands.has('RelativeTimes') ? <Island name="RelativeTimes" props={relativeTimeLabels(t)} /> : null}
      </div>
    </footer>
  );
}

/**
 * The page shell: skip link, header, masthead ad, the page, the medium-square ad rail, footer.
 * `rail={false}` leaves the rail off for pages that need the width (the article editor).
 */
export function Shell({ children, wide, rail = true }: { children: ReactNode; wide?: boolean; rail?: boolean }) {
  const { t, ads, guardian } = usePage();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <ConsentBanner />
      <SiteHeader />
      <div className={wide ? 'page page-wide' : 'page'}>
        <AdSlot ad={ads.masthead} shape="masthead" />
        <div className="page-columns">
          <main id="main" tabIndex={-1}>
            <PageAlert />
            {children}
          </main>
          {rail ? <AdSlot ad={ads.mediumSquare} shape="medium-square" /> : null}
        </div>
      </div>
      <SiteFooter />
      {/* Member pages load the bell's script, which opens this instead of following a Contact us link. */}
      {guardian.isSignedIn ? <ContactDialog /> : null}
      {/* The first-party page views and trackEvent (insights): a member's pages only, no third party. */}
      {guardian.isSignedIn ? <Tracker /> : null}
    </>
  );
}

/** The admin area's navigation: its home and every area that is built. */
function AdminNav() {
  const { t, adminAreas, currentPath } = usePage();
  const href = useHref();
  const items = [{ key: 'home', path: '/admin', label: t('admin.nav.home') }, ...(adminAreas ?? []).filter((a) => a.built).map((a) => ({ key: a.key, path: a.path, label: t(`admin.home.areas.${a.key}`) }))];
  return (
    <nav aria-label={t('admin.nav.label')} className="admin-nav">
      <ul className="nav-list">
        {items.map((item) => (
          <li key={item.key}>
            <a href={href(item.path)} aria-current={currentPath === item.path || (item.path !== '/admin' && isCurrent(currentPath, item.path)) ? 'page' : undefined}>
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The admin area's shell: its own header and navigation, no ads; the content in the header's container. */
export function AdminShell({ children }: { children: ReactNode }) {
  const { t, community } = usePage();
  const href = useHref();
  return (
    <>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header className="site-header admin-header">
        <div className="header-inner">
          <a className="brand" href={href('/admin')}>
            <span className="brand-name">{t('admin.nav.brand', { name: community.name })}</span>
          </a>
          <div className="header-actions">
            <a href={href('/')}>{t('admin.nav.toApp')}</a>
            <SignOutForm />
          </div>
        </div>
        <div className="header-inner admin-nav-row">
          <AdminNav />
        </div>
      </header>
      <div className="page page-admin">
        <main id="main" tabIndex={-1}>
          <PageAlert />
          {children}
        </main>
      </div>
      <SiteFooter />
    </>
  );
}
