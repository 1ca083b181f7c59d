import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community, Gate, NewCommunity, Role } from '#src/db/types.ts';
import { AUTH_COOKIE, startSession } from '#src/features/auth/sessions.ts';

const unique = () => randomBytes(4).toString('hex');

export async function createCommunity(db: Db, overrides: Partial<NewCommunity> & { code: string; hosts?: string[] }): Promise<Community> {
  const { hosts = [], ...values } = overrides;
  const community = await db
    .insertInto('communities')
    .values({
      name: `${values.code} Council`,
      app_name: `${values.code} App`,
      familiar_name: values.code,
      concierge_email: `concierge@${values.code}.example.com`,
      concierge_phone: '+1 (555) 010-0000',
      copyright_holder: `${values.code} Inc`,
      nav_more: JSON.stringify([]),
      ...values,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (hosts.length) await db.insertInto('community_hosts').values(hosts.map((host) => ({ host, community_id: community.id }))).execute();
  return community;
}

export type TestUser = { id: number; email: string; firstName: string; lastName: string };

export async function createMember(
  db: Db,
  community: Community,
  options: { roles?: Role[]; gate?: Gate; firstName?: string; lastName?: string; companyName?: string; active?: boolean } = {},
): Promise<TestUser> {
  const id = unique();
  const firstName = options.firstName ?? 'Test';
  const lastName = options.lastName ?? `Member ${id}`;
  const user = await db
    .insertInto('users')
    .values({ email: `member-${id}@example.com`, username: `member-${id}`, first_name: firstName, last_name: lastName, password_hash: null })
    .returning(['id', 'email'])
    .executeTakeFirstOrThrow();
  await addMembership(db, community, user.id, options);
  return { id: user.id, email: user.email, firstName, lastName };
}

export async function addMembership(
  db: Db,
  community: Community,
  userId: number,
  options: { roles?: Role[]; gate?: Gate; companyName?: string; active?: boolean } = {},
) {
  await db
    .insertInto('memberships')
    .values({
      community_id: community.id,
      user_id: userId,
      roles: options.roles ?? ['MEMBER'],
      gate: options.gate ?? 'app',
      company_name: options.companyName ?? 'Acme Corp',
      job_title: 'Chief Executive Officer',
      location_name: 'Austin, TX',
      location_familiar_name: 'Austin',
      is_active: options.active ?? true,
    })
    .execute();
}

/** Signs a user in the way the sign-in flow will: a server-side session and the signed cookie. */
export async function signIn(app: FastifyInstance, user: { id: number }, community: Community, roles: Role[] = ['MEMBER'], gate: Gate = 'app') {
  const { token, sessionId } = await startSession(app.db, app.sessionTokens, app.clock, {
    userId: user.id,
    community,
    roles,
    gate,
    basePath: app.config.basePath,
  });
  return { cookie: `${AUTH_COOKIE}=${token}`, token, sessionId };
}

/** Reads a page's CSRF token and the `_csrf` cookie that goes with it. */
export async function csrfFor(app: FastifyInstance, cookie = '', url = '/') {
  const res = await app.inject({ method: 'GET', url, headers: { cookie, accept: 'text/html' } });
  const token = /<meta name="csrf-token" content="([^"]+)"/.exec(res.body)?.[1];
  if (!token) throw new Error(`No CSRF token on ${url} (status ${res.statusCode})`);
  const setCookie = res.cookies.find((c) => c.name === '_csrf');
  const csrfCookie = setCookie ? `_csrf=${setCookie.value}` : (/_csrf=[^;]+/.exec(cookie)?.[0] ?? '');
  const jar = [cookie, csrfCookie].filter(Boolean).join('; ');
  return { token, cookie: jar };
}

/**
 * The demo's two ads for a community: the masthead (whose long text must stay clear of its button at
 * every width) and the medium square of the side rail.
 */
export async function createAds(db: Db, community: Community) {
  await db
    .insertInto('ads')
    .values([
      { community_id: community.id, shape: 'MASTHEAD', image_url: 'img/ads/masthead-partner.svg', link: 'https://example.com/ad', alt_text: 'Ledgerly: bookkeeping for growing companies. Members save 20%.' },
      { community_id: community.id, shape: 'MEDIUM_SQUARE', image_url: 'img/ads/square-retreat.svg', link: 'https://example.com/retreat', alt_text: 'Spring retreat' },
    ])
    .execute();
}
