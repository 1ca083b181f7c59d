import { sql, type RawBuilder } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity } from '#src/db/tenancy.ts';
import type { Community, FeaturedKind } from '#src/db/types.ts';
import { groupsOfMember } from '#src/features/groups/index.ts';
import { imagePathOf } from './announcements.ts';
import { feedIdOf } from './deps.ts';
import { liveItemOf } from './items.ts';
import type { FeedAnnouncement, FeedFeatured, FeedItem, MemberFeed } from './types.ts';
import { jsonValue } from '#src/lib/json-value.ts';

/**
 * The member's feed (the signed-in home page, GraphQL's `memberFeed`): the live announcements whose
 * audience they belong to (everyone, or a group they are in) and the live featured items, pinned first,
 * then newest first; the announcements they marked seen fold away below; how many live ones they have
 * not seen. All of it is ONE statement (a JSON value: `memberFeedJson`), so the home page folds it into
 * a statement it makes anyway and stays within its budget of SQL statements.
 */

export type MemberFeedDeps = { db: Db; clock: Clock; community: Community };

/** Items shown, seen announcements listed below, announcements read (pinned and newest first). */
export const FEED_ITEMS = 10;
export const FEED_SEEN = 10;
const ANNOUNCEMENTS_READ = FEED_ITEMS + FEED_SEEN;
/** Unseen announcements are counted up to this (beyond, "more than 99"): the count costs what it costs at 100. */
export const UNSEEN_CAP = 100;

/** Live at `now` and for this member: the `a` alias. */
function liveFor(community: Community, userId: number, now: Date) {
  return sql`a.community_id = ${community.id} and a.published_at is not null and a.shown_from <= ${now} and (a.ends_at is null or a.ends_at > ${now})
    and (a.audience = 'everyone' or a.group_id in (${groupsOfMember(community, userId)}))`;
}

/**
 * The member's feed as one SQL value (json): `{ announcements, featured, unseen }`. A caller selects it
 * alongside its own columns (the home page) or alone (`feedFor`), then reads it with `memberFeedOf`.
 */
export function memberFeedJson(deps: MemberFeedDeps, userId: number): RawBuilder<unknown> {
  const { community } = deps;
  const now = deps.clock.now();
  const announcements = sql`select a.id, a.title, a.body_html, a.image, a.image_alt, a.link_url, a.link_label, a.pinned, a.shown_from as at, (s.user_id is not null) as seen
    from feed_announcements a
    left join feed_seen s on s.announcement_id = a.id and s.user_id = ${userId}
    where ${liveFor(community, userId, now)}
    order by a.pinned desc, a.shown_from desc, a.id desc limit ${ANNOUNCEMENTS_READ}`;
  const featured = sql`select f.id, f.kind, coalesce(live.title, f.title) as title, coalesce(live.path, f.url) as url, f.pinned, f.created_at as at, f.event_at, f.place
    from feed_featured f
    left join lateral ${liveItemOf(deps, now)} live on true
    where f.community_id = ${community.id} and (f.ends_at is null or f.ends_at > ${now}) and (f.kind = 'event' or live.path is not null)
    order by f.pinned desc, f.created_at desc, f.id desc limit ${FEED_ITEMS}`;
  const unseen = sql`select count(*)::int from (select 1 from feed_announcements a
    where ${liveFor(community, userId, now)} and not exists (select 1 from feed_seen s where s.announcement_id = a.id and s.user_id = ${userId})
    limit ${UNSEEN_CAP}) u`;
  return sql`json_build_object(
    'announcements', coalesce((select json_agg(x) from (${announcements}) x), '[]'::json),
    'featured', coalesce((select json_agg(y) from (${featured}) y), '[]'::json),
    'unseen', (${unseen}))`;
}

type AnnouncementJson = { id: number; title: string; body_html: string; image: string | null; image_alt: string; link_url: string | null; link_label: string | null; pinned: boolean; at: string; seen: boolean };
type FeaturedJson = { id: number; kind: FeaturedKind; title: string; url: string; pinned: boolean; at: string; event_at: string | null; place: string | null };

/** Pinned first, then newest first (then the newer id). */
const byPinThenTime = (a: FeedItem, b: FeedItem) => Number(b.pinned) - Number(a.pinned) || b.at.getTime() - a.at.getTime() || b.id - a.id;

/** The member's feed from its SQL value (a JSON object, or its text). */
export function memberFeedOf(value: unknown): MemberFeed {
  const json = jsonValue<{ announcements: AnnouncementJson[]; featured: FeaturedJson[]; unseen: number }>(value);
  const announcements: FeedAnnouncement[] = json.announcements.map((a) => ({
    kind: 'announcement',
    id: a.id,
    title: a.title,
    bodyHtml: a.body_html,
    imagePath: imagePathOf(a.image),
    imageAlt: a.image_alt,
    link: a.link_url ? { url: a.link_url, label: a.link_label ?? a.link_url } : null,
    pinned: a.pinned,
    at: new Date(a.at),
    seen: a.seen,
  }));
  const featured: FeedFeatured[] = json.featured.map((f) => ({
    kind: 'featured',
    id: f.id,
    itemKind: f.kind,
    title: f.title,
    url: f.url,
    external: f.kind === 'event',
    pinned: f.pinned,
    at: new Date(f.at),
    eventAt: f.event_at ? new Date(f.event_at) : null,
    place: f.place,
  }));
  const items = [...announcements.filter((a) => !a.seen), ...featured].sort(byPinThenTime).slice(0, FEED_ITEMS);
  const seen = announcements.filter((a) => a.seen).sort(byPinThenTime).slice(0, FEED_SEEN);
  return { items, seen, unseen: Number(json.unseen ?? 0) };
}

/** The member's feed: one statement. */
export async function feedFor(deps: MemberFeedDeps, userId: number): Promise<MemberFeed> {
  const { rows } = await sql<{ feed: unknown }>`select ${memberFeedJson(deps, userId)} as feed`.execute(deps.db);
  return memberFeedOf(rows[0]!.feed);
}

/**
 * Marks an announcement seen by the member (the first time stays): only one live for them (in their
 * audience, published, started, not expired) in this community, else 'Feeds.NotFound'.
 */
export async function markAnnouncementSeen(deps: MemberFeedDeps, userId: number, announcementId: unknown): Promise<void> {
  const id = feedIdOf(announcementId);
  const now = deps.clock.now();
  const { rows } = await sql<{ id: number }>`select a.id from feed_announcements a where a.id = ${id} and ${liveFor(deps.community, userId, now)}`.execute(deps.db);
  if (rows.length === 0) throw new AppError('Feeds.NotFound');
  await insertInCommunity(deps.db, 'feed_seen', deps.community, { announcement_id: id, user_id: userId, seen_at: now })
    .onConflict((oc) => oc.columns(['announcement_id', 'user_id']).doNothing())
    .execute();
}
