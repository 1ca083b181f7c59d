import { sql, type RawBuilder } from 'kysely';
import type { RawDb } from '#src/db/index.ts';
import type { DemoContext } from '#src/features/area.ts';
import { cleanRichText, textToHtml } from '#src/lib/rich-text.ts';

/**
 * The demo's members' feed, posted by admin@example.com. Summit: four announcements (a pinned one with
 * an image, live for everyone; one for the Founders Peer Group, which Amara Okafor chairs; one
 * scheduled for next week; one expired two days ago) and five featured items (the newest published
 * article, the published roundup, a live offer, a forum post and an event link). Harbor: one
 * announcement. Nobody has marked anything seen: Amara's home shows three new announcements.
 */

type A = { title: string; text: string; startedDaysAgo: number; endsInDays?: number; pinned?: boolean; group?: string; link?: [string, string]; image?: [string, string] };

const SUMMIT: A[] = [
  {
    title: 'Annual summit: save the date',
    text: 'Our annual summit is on the first week of June in Denver.\n\nThe programme committee is looking for three members to shape the sessions: reply through the concierge if you would like to join.',
    startedDaysAgo: 3,
    pinned: true,
    link: ['/groups', 'Meet your peers in the groups'],
    image: ['img/feeds/summit-annual.svg', 'Annual Summit, first week of June, Denver'],
  },
  {
    title: 'Founders Peer Group: hiring plans session',
    text: 'Our next session compares hiring plans for next year.\n\n- Bring your headcount plan\n- One slide is enough',
    startedDaysAgo: 1,
    group: 'founders-peer-group',
    link: ['/groups/founders-peer-group', 'Open the group'],
  },
  { title: 'Expert panels: the spring batch opens', text: 'The spring batch of expert-panel questions opens next week. Check your panels under **Expert Panels**.', startedDaysAgo: -7 },
  { title: 'Dinner series: last seats in Austin', text: 'The last seats of the Austin dinner are open until Friday.', startedDaysAgo: 20, endsInDays: -2 },
];

const HARBOR: A[] = [{ title: 'Welcome to the Harbor feed', text: 'News from the Harbor team will show here, on your home page.\n\nMark each one seen once you have read it.', startedDaysAgo: 2, pinned: true }];

const DAY_MS = 86_400_000;

async function seedAnnouncements(trx: RawDb, demo: DemoContext, communityId: number, list: A[]): Promise<void> {
  const now = Date.now();
  for (const a of list) {
    const starts = new Date(now - a.startedDaysAgo * DAY_MS);
    const created = new Date(Math.min(starts.getTime(), now) - DAY_MS);
    const group = a.group ? await trx.selectFrom('groups').select('id').where('community_id', '=', communityId).where('slug', '=', a.group).executeTakeFirst() : undefined;
    const { id } = await trx
      .insertInto('feed_announcements')
      .values({
        community_id: communityId,
        title: a.title,
        body_html: cleanRichText(textToHtml(a.text)),
        image: a.image?.[0] ?? null,
        image_alt: a.image?.[1] ?? '',
        link_url: a.link?.[0] ?? null,
        link_label: a.link?.[1] ?? null,
        audience: group ? 'group' : 'everyone',
        group_id: group?.id ?? null,
        pinned: a.pinned ?? false,
        published_at: created,
        starts_at: starts,
        ends_at: a.endsInDays !== undefined ? new Date(now + a.endsInDays * DAY_MS) : null,
        created_by: demo.adminId,
        created_at: created,
        updated_at: created,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const actions = ['created', 'published', ...(a.pinned ? ['pinned'] : [])];
    await trx.insertInto('feed_events').values(actions.map((action) => ({ community_id: communityId, subject: 'announcement' as const, subject_id: id, title: a.title, action, actor_id: demo.adminId, created_at: created }))).execute();
  }
}

/** The first row of a query, or undefined. */
async function first<T>(trx: RawDb, query: RawBuilder<T>): Promise<T | undefined> {
  return (await query.execute(trx)).rows[0];
}

async function seedFeatured(trx: RawDb, demo: DemoContext, communityId: number): Promise<void> {
  const now = Date.now();
  const items = [
    await first<{ id: number; title: string }>(trx, sql`select a.id, r.title from articles a join article_revisions r on r.id = a.current_revision_id
      where a.community_id = ${communityId} and a.status in ('PUBLISHED', 'MANUALLY_PUBLISHED') order by a.published_date desc nulls last, a.id desc limit 1`).then((r) => (r ? { kind: 'article' as const, ...r } : null)),
    await first<{ id: number; title: string }>(trx, sql`select id, title from ep_roundups where community_id = ${communityId} and status = 'FINAL' and slug is not null order by id limit 1`).then((r) => (r ? { kind: 'roundup' as const, ...r } : null)),
    await first<{ id: number; title: string }>(trx, sql`select id, title from offers where community_id = ${communityId} and status = 'published' and tier = 'everyone'
      and (starts_at is null or starts_at <= now()) and (ends_at is null or ends_at > now()) order by featured desc, position, id limit 1`).then((r) => (r ? { kind: 'offer' as const, ...r } : null)),
    await first<{ id: number; title: string }>(trx, sql`select id, title from forum_posts where community_id = ${communityId} and status = 'published' and deleted_at is null and group_id is null
      order by reply_count desc, id limit 1`).then((r) => (r ? { kind: 'forum_post' as const, ...r } : null)),
  ].filter((x) => x !== null);
  let minutes = items.length + 1;
  for (const item of items) {
    const at = new Date(now - 2 * DAY_MS - minutes-- * 3_600_000);
    const { id } = await trx
      .insertInto('feed_featured')
      .values({ community_id: communityId, kind: item.kind, item_id: item.id, title: item.title.trim(), created_by: demo.adminId, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('feed_events').values({ community_id: communityId, subject: 'featured', subject_id: id, title: item.title.trim(), action: 'featured', actor_id: demo.adminId, created_at: at }).execute();
  }
  const eventDay = new Date(Math.floor((now + 12 * DAY_MS) / DAY_MS) * DAY_MS);
  const title = 'Leadership dinner in Denver';
  const at = new Date(now - DAY_MS);
  const { id } = await trx
    .insertInto('feed_featured')
    .values({ community_id: communityId, kind: 'event', title, url: 'https://example.com/events/denver-leadership-dinner', event_at: eventDay, place: 'The Brown Palace, Denver', ends_at: new Date(eventDay.getTime() + DAY_MS), created_by: demo.adminId, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.insertInto('feed_events').values({ community_id: communityId, subject: 'featured', subject_id: id, title, action: 'featured', actor_id: demo.adminId, created_at: at }).execute();
}

export async function seedFeeds(trx: RawDb, demo: DemoContext): Promise<void> {
  const summit = demo.byCode.summit;
  if (summit) {
    await seedAnnouncements(trx, demo, summit, SUMMIT);
    await seedFeatured(trx, demo, summit);
  }
  const harbor = demo.byCode.harbor;
  if (harbor) await seedAnnouncements(trx, demo, harbor, HARBOR);
}
