/** A complete, valid site form (every field of the spec's Community), as the browser posts it. */
export function siteFields(code: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    code,
    name: `${code} Network`,
    appName: `${code} App`,
    familiarName: code,
    hosts: `${code}.example.test\nwww.${code}.example.test`,
    colorPrimary: '#1f4e79',
    colorAccent: '#8a3b12',
    icon: 'img/summit-logo.svg',
    authLogo: 'https://cdn.example.com/logo.png',
    'nav.0.label': 'Events',
    'nav.0.link': 'https://example.com/events',
    'nav.1.label': 'Articles',
    'nav.1.link': '/articles',
    forumEnabled: 'on',
    conciergeEmail: 'Concierge@Example.com',
    conciergePhone: '+1 512 555 0142',
    copyrightHolder: `${code} Inc.`,
    execLink: 'https://example.com/exec',
    linkTerms: 'https://example.com/terms',
    linkPrivacy: 'https://example.com/privacy',
    linkMembershipInfo: 'https://example.com/join',
    googleAnalytics: 'G-ABC1234',
    googleTagManager: 'GTM-XYZ123',
    authSlug: code,
    authBackgroundImage: 'img/summit-background.svg',
    authPlayStoreLink: 'https://play.google.com/store/apps/details?id=com.example',
    authAppStoreLink: 'https://apps.apple.com/app/id123456',
    authTextColor: '#FFFFFF',
    ...overrides,
  };
}

/** The same site as the GraphQL SiteInput (hosts and navMore as lists). */
export function siteInput(code: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const { code: _code, hosts, forumEnabled, ...rest } = siteFields(code);
  const input: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([k]) => !k.startsWith('nav.')));
  return {
    ...input,
    hosts: hosts!.split('\n'),
    forumEnabled: forumEnabled === 'on',
    navMore: [
      { label: 'Events', link: 'https://example.com/events' },
      { label: 'Articles', link: '/articles' },
    ],
    ...overrides,
  };
}

export const SITE_UPDATE = /* GraphQL */ `
  mutation ($code: String!, $input: SiteInput!) {
    siteUpdate(code: $code, input: $input) { code name appName hosts forumEnabled navMore { label link } memberCount }
  }
`;
