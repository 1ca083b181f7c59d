import { hashPassword } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity } from '#src/db/tenancy.ts';
import type { NewCommunity, Role } from '#src/db/types.ts';
import { AREAS } from './areas.ts';

/** Demo credentials, documented in the README. The seed refuses to run in production. */
export const DEMO_ADMIN = { email: 'admin@example.com', password: 'Demo-Admin-2026!' };
export const DEMO_MEMBER_PASSWORD = 'Demo-Member-2026!';

type DemoMember = {
  first: string;
  last: string;
  company: string;
  title: string;
  city: string;
  region: string;
  pronouns?: string;
  moderator?: boolean;
  founding?: boolean;
};

const SUMMIT_MEMBERS: DemoMember[] = [
  { first: 'Amara', last: 'Okafor', company: 'Lumen Analytics', title: 'Chief Executive Officer', city: 'Austin', region: 'TX', pronouns: 'she/her', founding: true },
  { first: 'Daniel', last: 'Reyes', company: 'Northfield Logistics', title: 'Founder & CEO', city: 'Chicago', region: 'IL', moderator: true },
  { first: 'Priya', last: 'Raman', company: 'Cobalt Health', title: 'Chief Operating Officer', city: 'Boston', region: 'MA', pronouns: 'she/her' },
  { first: 'Marcus', last: 'Lindqvist', company: 'Fjord Capital Partners', title: 'Managing Partner', city: 'New York', region: 'NY' },
  { first: 'Sofia', last: 'Marchetti', company: 'Verde Hospitality Group', title: 'President', city: 'Miami', region: 'FL', founding: true },
  { first: 'Kwame', last: 'Mensah', company: 'Brightline Energy', title: 'Chief Technology Officer', city: 'Denver', region: 'CO', pronouns: 'he/him' },
  { first: 'Hannah', last: 'Feldman', company: 'Quarry Legal LLP', title: 'Managing Director', city: 'Philadelphia', region: 'PA' },
  { first: 'Ethan', last: 'Nakamura', company: 'Tidewater Robotics', title: 'Co-Founder', city: 'Seattle', region: 'WA' },
  { first: 'Isabel', last: 'Duarte', company: 'Alta Vista Realty', title: 'Chief Executive Officer', city: 'San Diego', region: 'CA', pronouns: 'she/her' },
  { first: 'Jonah', last: 'Whitaker', company: 'Ironbridge Manufacturing', title: 'President & CEO', city: 'Pittsburgh', region: 'PA' },
  { first: 'Leila', last: 'Haddad', company: 'Cedar & Stone Design', title: 'Founder', city: 'Detroit', region: 'MI' },
  { first: 'Owen', last: 'Gallagher', company: 'Summit Ridge Advisors', title: 'Chief Financial Officer', city: 'Nashville', region: 'TN' },
  { first: 'Mei', last: 'Chen', company: 'Harborlight Software', title: 'VP of Engineering', city: 'San Francisco', region: 'CA', pronouns: 'she/her' },
  { first: 'Tobias', last: 'Brandt', company: 'Keystone Mobility', title: 'Chief Executive Officer', city: 'Atlanta', region: 'GA' },
];

const HARBOR_MEMBERS: DemoMember[] = [
  { first: 'Rosa', last: 'Delgado', company: 'Saltmarsh Foods', title: 'Founder', city: 'Portland', region: 'ME', founding: true },
  { first: 'Liam', last: "O'Sullivan", company: 'Pier Nine Studios', title: 'Creative Director', city: 'Providence', region: 'RI' },
  { first: 'Aisha', last: 'Bello', company: 'Anchor Pay', title: 'Co-Founder & CEO', city: 'Baltimore', region: 'MD', pronouns: 'she/her' },
  { first: 'Noah', last: 'Fischer', company: 'Lighthouse Learning', title: 'Founder', city: 'Charleston', region: 'SC' },
  { first: 'Grace', last: 'Kim', company: 'Driftwood Apparel', title: 'Chief Executive Officer', city: 'Savannah', region: 'GA' },
];

export const DEMO_COMMUNITIES: NewCommunity[] = [
  {
    code: 'summit',
    name: 'Summit Leaders Council',
    app_name: 'Summit Council',
    // What members call it, and what the header shows on a phone (the full name would be cut there).
    familiar_name: 'Summit',
    icon: 'img/summit-logo.svg',
    nav_more: JSON.stringify([
      { label: 'Events', link: 'https://example.com/summit/events' },
      { label: 'Podcast', link: 'https://example.com/summit/podcast' },
    ]),
    forum_enabled: true,
    concierge_email: 'concierge@summit.example.com',
    concierge_phone: '+1 (512) 555-0142',
    exec_link: 'https://example.com/summit/exec',
    copyright_holder: 'Summit Leaders Council, Inc.',
    link_terms: 'https://example.com/summit/terms',
    link_privacy: 'https://example.com/summit/privacy',
    link_membership_info: 'https://example.com/summit/membership',
    auth_slug: 'summit',
    auth_background_image: 'img/summit-background.svg',
    auth_logo: 'img/summit-logo.svg',
    auth_text_color: '#ffffff',
    article_terms:
      'By contributing to the Summit Council publishing program you confirm the article is your original work, that you hold the rights to publish it, and that you allow Summit Council and its partner publications to edit, publish and promote it with your name and byline. Articles must not promote products or services. Published articles stay online and cannot be removed.',
    article_guidelines:
      'Write 500 to 1000 words from your own experience as a leader. Lead with one clear idea, support it with concrete examples, and end with advice a peer can act on. No promotion of your company or products; links only where they help the reader.',
    color_primary: '#1f4e79',
    color_accent: '#a64b00',
  },
  {
    code: 'harbor',
    name: 'Harbor Founders Network',
    app_name: 'Harbor Network',
    familiar_name: 'Harbor',
    icon: 'img/harbor-logo.svg',
    nav_more: JSON.stringify([]),
    forum_enabled: false,
    concierge_email: 'hello@harbor.example.com',
    concierge_phone: '+1 (401) 555-0199',
    exec_link: null,
    copyright_holder: 'Harbor Founders Network LLC',
    link_terms: 'https://example.com/harbor/terms',
    link_privacy: 'https://example.com/harbor/privacy',
    link_membership_info: 'https://example.com/harbor/join',
    auth_slug: 'harbor',
    auth_logo: 'img/harbor-logo.svg',
    auth_text_color: '#0b2b26',
    article_terms:
      'By contributing to the Harbor Network publishing program you confirm the article is your original work, that you hold the rights to publish it, and that you allow Harbor Network and its partner publications to edit, publish and promote it with your name and byline. Articles must not promote products or services. Published articles stay online and cannot be removed.',
    article_guidelines:
      'Write 500 to 1000 words from your own experience as a leader. Lead with one clear idea, support it with concrete examples, and end with advice a peer can act on. No promotion of your company or products; links only where they help the reader.',
    color_primary: '#0f5e54',
    color_accent: '#8a3b12',
  },
];

const slug = (s: string) => s.toLowerCase().replace(/[^a-z]+/g, '');

export class SeedRefusedError extends Error {
  override name = 'SeedRefusedError';
}

/**
 * Seeds the demo communities, an admin of both, and their members, when the database has no
 * community yet. Returns false (and changes nothing) when it already has one.
 */
export async function seedDemo(db: Db, { production }: { production: boolean }): Promise<boolean> {
  if (production) throw new SeedRefusedError('The demo seed is refused in production: its credentials are public.');
  const existing = await db.selectFrom('communities').select('id').limit(1).executeTakeFirst();
  if (existing) return false;

  const [adminHash, memberHash] = await Promise.all([hashPassword(DEMO_ADMIN.password), hashPassword(DEMO_MEMBER_PASSWORD)]);

  // The demo writes several communities at once: one of the named cross-community queries.
  await crossCommunity(db).transaction().execute(async (trx) => {
    const communities = await trx.insertInto('communities').values(DEMO_COMMUNITIES).returning(['id', 'code']).execute();
    const byCode = Object.fromEntries(communities.map((c) => [c.code, c.id])) as Record<string, number>;
    await trx
      .insertInto('community_hosts')
      .values([
        { host: 'summit.localhost', community_id: byCode.summit! },
        { host: 'harbor.localhost', community_id: byCode.harbor! },
      ])
      .execute();

    const admin = await trx
      .insertInto('users')
      .values({ email: DEMO_ADMIN.email, username: 'admin', password_hash: adminHash, first_name: 'Alex', last_name: 'Morgan' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const adminRoles: Role[] = ['ADMIN', 'MEMBER'];
    await trx
      .insertInto('memberships')
      .values(
        communities.map((c) => ({
          community_id: c.id,
          user_id: admin.id,
          roles: adminRoles,
          company_name: 'Community Staff',
          job_title: 'Community Manager',
          location_name: 'Austin, TX',
          location_familiar_name: 'Austin',
        })),
      )
      .execute();

    const addMembers = async (code: string, domain: string, members: DemoMember[], since: Date) => {
      const users = await trx
        .insertInto('users')
        .values(
          members.map((m) => ({
            email: `${slug(m.first)}.${slug(m.last)}@${domain}`,
            username: `${slug(m.first)}.${slug(m.last)}`,
            password_hash: memberHash,
            first_name: m.first,
            last_name: m.last,
            mobile_country_code: 'US',
            mobile_number: '2025550' + String(100 + members.indexOf(m)).padStart(3, '0'),
          })),
        )
        .returning('id')
        .execute();
      await trx
        .insertInto('memberships')
        .values(
          members.map((m, i) => ({
            community_id: byCode[code]!,
            user_id: users[i]!.id,
            company_name: m.company,
            job_title: m.title,
            location_name: `${m.city}, ${m.region}`,
            location_familiar_name: m.city,
            pronouns: m.pronouns ?? null,
            display_pronouns: Boolean(m.pronouns),
            is_moderator: m.moderator ?? false,
            is_founding: m.founding ?? false,
            membership_tier: 'Standard',
            standing: 'Good',
            joined_at: new Date(since.getTime() + i * 17 * 86_400_000),
          })),
        )
        .execute();
    };
    await addMembers('summit', 'summit-demo.example.com', SUMMIT_MEMBERS, new Date('2024-03-01T00:00:00Z'));
    await addMembers('harbor', 'harbor-demo.example.com', HARBOR_MEMBERS, new Date('2025-01-15T00:00:00Z'));
    // Each area's part of the demo, in the list's order (src/features/areas.ts): an area's demo may
    // use the people and places of those before it.
    const demo = { byCode, adminId: admin.id, passwordHash: memberHash };
    for (const area of AREAS) if (area.seed) await area.seed(trx, demo);
  });
  return true;
}
