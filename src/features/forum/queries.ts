import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Database, ForumStatus, ForumTargetKind } from '#src/db/types.ts';
import { SNAPSHOT_COLUMNS, snapshotJsonObject, toSnapshot, unknownMember, type MemberSnapshot, type SnapshotRow } from '#src/features/members/index.ts';
import { jsonValue } from '#src/lib/json-value.ts';
import { EDIT_WINDOW_MS, REACTIONS } from './rules.ts';
import type { PostSummary, Reaction, ReactionCount, TopicView } from './types.ts';

/**
 * The forum's shared reads. Each page costs a fixed number of statements, whatever its length: the
 * rows with their authors in one, the topics of all its posts in one, the reactions of all its items
 * in one; the viewer's own flags (liked, followed, reported) ride along as `exists` columns of the row
 * query. Nothing here queries inside a loop.
 */

// ---------------------------------------------------------------------------------------------------
// Cursors: the shared keyset cursors (src/lib/cursor.ts), re-exported for the forum's modules and face.

export { decodeActivityCursor, decodeIdCursor, encodeCursor, pageSize } from '#src/lib/cursor.ts';

/** last_activity_at in UTC with microseconds, for the list's cursor. */
export const activityKeyColumn = () => sql<string>`to_char(forum_posts.last_activity_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('activity_key');

// ---------------------------------------------------------------------------------------------------
// Posts with their authors.

type Eb = ExpressionBuilder<Database, 'forum_posts' | 'users' | 'memberships'>;

/**
 * forum_posts joined to the author's user and membership in the same community (tenant-scoped). The
 * membership is a left join: a post whose author's membership row is gone stays listed, its author
 * read as a former member (authorSnapshot).
 */
export function postsWithAuthors(db: Db, community: Tenant) {
  return selectInCommunity(db, 'forum_posts', community)
    .innerJoin('users', 'users.id', 'forum_posts.author_id')
    .leftJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'forum_posts.author_id').onRef('memberships.community_id', '=', 'forum_posts.community_id'));
}

/**
 * postsWithAuthors with the viewer's read state of each post (decision 0065): a left join on
 * forum_reads' key (community, post, viewer), so reading it costs no statement of its own.
 */
export function postsWithReads(db: Db, community: Tenant, userId: number) {
  return postsWithAuthors(db, community).leftJoin('forum_reads', (j) =>
    j.onRef('forum_reads.post_id', '=', 'forum_posts.id').onRef('forum_reads.community_id', '=', 'forum_posts.community_id').on('forum_reads.user_id', '=', userId),
  );
}

/** How many repliers' faces a row shows beside its author's. */
export const REPLIERS_SHOWN = 3;
/** The repliers are found among a post's latest replies, this many at most (a bounded index scan per row). */
const REPLIERS_SCAN = 50;

/**
 * The read state of a row of postsWithReads, as columns of its statement (decision 0065): `unread`
 * (never opened, not the viewer's own post, and written since the community's read tracking began:
 * communities.forum_reads_since, set when the migration ran on a community that already existed);
 * `new_reply_count`, the published, undeleted replies by
 * others after the highest reply the viewer was shown (counted on the thread index, only for the rows
 * the LIMIT keeps and only where the viewer has been); `repliers_json`, the faces of up to three who
 * replied most recently, besides the author, among the latest published replies.
 */
export function readColumns(community: Tenant, userId: number) {
  return [
    sql<boolean>`(forum_reads.post_id is null and forum_posts.author_id <> ${userId}
      and forum_posts.created_at >= coalesce((select c.forum_reads_since from communities c where c.id = ${community.id}), '-infinity'))`.as('unread'),
    sql<number>`case when forum_reads.last_reply_id is null then 0 else
      (select count(*)::int from forum_replies nr
        where nr.community_id = ${community.id} and nr.post_id = forum_posts.id and nr.id > forum_reads.last_reply_id
          and nr.status = 'published' and nr.deleted_at is null and nr.author_id <> ${userId}) end`.as('new_reply_count'),
    sql<SnapshotJson[] | string | null>`(select coalesce(json_agg(${snapshotJsonObject('ru', 'rm')} order by rx.last_id desc), '[]'::json)
      from (select lr.author_id, max(lr.id) as last_id
            from (select r.author_id, r.id from forum_replies r
                  where r.community_id = ${community.id} and r.post_id = forum_posts.id and r.status = 'published' and r.deleted_at is null
                  order by r.id desc limit ${REPLIERS_SCAN}) lr
            where lr.author_id <> forum_posts.author_id
            group by lr.author_id order by max(lr.id) desc limit ${REPLIERS_SHOWN}) rx
      join users ru on ru.id = rx.author_id
      left join memberships rm on rm.user_id = rx.author_id and rm.community_id = ${community.id})`.as('repliers_json'),
  ] as const;
}

type SnapshotJson = AuthorRow;

/** readColumns' `repliers_json`, read back as faces. */
export function repliersOf(value: SnapshotJson[] | string | null | undefined, formerMember: string): MemberSnapshot[] {
  return fromJson(value).map((r) => authorSnapshot(r, formerMember));
}

/** The columns of a list row: no HTML, an excerpt of the text. */
export const SUMMARY_COLUMNS = [
  'forum_posts.id',
  'forum_posts.title',
  'forum_posts.author_id',
  'forum_posts.status',
  'forum_posts.reply_count',
  'forum_posts.like_count',
  'forum_posts.last_activity_at',
  'forum_posts.created_at',
  'forum_posts.pinned_at',
  'forum_posts.locked_at',
  ...SNAPSHOT_COLUMNS,
] as const;

export const excerptColumn = (eb: Eb) => sql<string>`left(${eb.ref('forum_posts.body_text')}, 400)`.as('excerpt_text');

/** About 200 characters of plain text, cut at a word, with an ellipsis when cut. */
export function excerptOf(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The snapshot columns of an author whose membership is left-joined: its columns may all be null. */
export type AuthorRow = Omit<SnapshotRow, 'is_active' | 'is_moderator' | 'display_pronouns'> & {
  is_active: boolean | null;
  is_moderator: boolean | null;
  display_pronouns: boolean | null;
};

/**
 * An author as the forum shows them: their snapshot, or, where their membership row is gone, a
 * neutral former member (`formerMember`, the locale's 'forum.formerMember'): no name, company or face.
 */
export function authorSnapshot(row: AuthorRow, formerMember: string): MemberSnapshot {
  if (row.is_active === null) return unknownMember(row.user_id, formerMember);
  return toSnapshot(row as SnapshotRow);
}

export type SummaryRow = {
  id: number;
  title: string;
  author_id: number;
  status: ForumStatus;
  reply_count: number;
  like_count: number;
  last_activity_at: Date;
  created_at: Date;
  pinned_at: Date | null;
  locked_at: Date | null;
  excerpt_text: string;
  /** readColumns (absent where a query reads no read state: never unread, nothing new, no faces). */
  unread?: boolean | null;
  new_reply_count?: number | string | null;
  repliers_json?: SnapshotJson[] | string | null;
} & AuthorRow;

/** A list row; `formerMember`: the text for an author whose membership row is gone (authorSnapshot). */
export function toSummary(row: SummaryRow, topics: TopicView[], formerMember: string): PostSummary {
  return {
    id: row.id,
    title: row.title,
    excerpt: excerptOf(row.excerpt_text),
    author: authorSnapshot(row, formerMember),
    topics,
    replyCount: row.reply_count,
    likeCount: row.like_count,
    lastActivityAt: new Date(row.last_activity_at),
    createdAt: new Date(row.created_at),
    pinned: row.pinned_at != null,
    locked: row.locked_at != null,
    status: row.status,
    unread: row.unread === true,
    newReplyCount: Number(row.new_reply_count ?? 0),
    repliers: repliersOf(row.repliers_json, formerMember),
  };
}

// ---------------------------------------------------------------------------------------------------
// Per-page lookups: one statement each.

export const toTopicView = (r: { id: number; name: string; position: number; archived_at: Date | null }): TopicView => ({
  id: r.id,
  name: r.name,
  position: r.position,
  archived: r.archived_at != null,
});

/** The topics of many posts in one query, each post's in topic order. */
export async function topicsOfPosts(db: Db, community: Tenant, postIds: readonly number[]): Promise<Map<number, TopicView[]>> {
  const out = new Map<number, TopicView[]>();
  if (postIds.length === 0) return out;
  const rows = await selectInCommunity(db, 'forum_post_topics', community)
    .innerJoin('forum_topics', 'forum_topics.id', 'forum_post_topics.topic_id')
    .select(['forum_post_topics.post_id', 'forum_topics.id', 'forum_topics.name', 'forum_topics.position', 'forum_topics.archived_at'])
    .where('forum_topics.community_id', '=', community.id)
    .where('forum_post_topics.post_id', 'in', [...new Set(postIds)])
    .orderBy('forum_topics.position')
    .orderBy('forum_topics.name')
    .execute();
  for (const r of rows) out.set(r.post_id, [...(out.get(r.post_id) ?? []), toTopicView(r)]);
  return out;
}

/** The reactions of a page of posts or replies in one query: per item, each reaction's count and whether the viewer gave it. */
export async function reactionsOf(db: Db, community: Tenant, kind: ForumTargetKind, ids: readonly number[], userId: number): Promise<Map<number, ReactionCount[]>> {
  const out = new Map<number, ReactionCount[]>();
  if (ids.length === 0) return out;
  const rows = await selectInCommunity(db, 'forum_reactions', community)
    .select((eb) => [
      'target_id',
      'reaction',
      eb.fn.countAll<string>().as('n'),
      sql<boolean>`bool_or(${eb.ref('user_id')} = ${userId})`.as('mine'),
    ])
    .where('target_kind', '=', kind)
    .where('target_id', 'in', [...new Set(ids)])
    .groupBy(['target_id', 'reaction'])
    .execute();
  const order = (r: string) => (REACTIONS as readonly string[]).indexOf(r);
  for (const r of rows.filter((r) => order(r.reaction) >= 0).sort((a, b) => order(a.reaction) - order(b.reaction))) {
    out.set(r.target_id, [...(out.get(r.target_id) ?? []), { reaction: r.reaction as Reaction, count: Number(r.n), mine: Boolean(r.mine) }]);
  }
  return out;
}

/** Which of these items the viewer liked (one query). */
export async function likedByMe(db: Db, community: Tenant, kind: ForumTargetKind, ids: readonly number[], userId: number): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await selectInCommunity(db, 'forum_likes', community)
    .select('target_id')
    .where('target_kind', '=', kind)
    .where('user_id', '=', userId)
    .where('target_id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.target_id));
}

/** Which of these items the viewer reported (one query). */
export async function reportedByMe(db: Db, community: Tenant, kind: ForumTargetKind, ids: readonly number[], userId: number): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await selectInCommunity(db, 'forum_reports', community)
    .select('target_id')
    .where('target_kind', '=', kind)
    .where('reporter_id', '=', userId)
    .where('target_id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((r) => r.target_id));
}

/** Which of these posts the viewer follows (one query). */
export async function followedByMe(db: Db, community: Tenant, postIds: readonly number[], userId: number): Promise<Set<number>> {
  if (postIds.length === 0) return new Set();
  const rows = await selectInCommunity(db, 'forum_follows', community)
    .select('post_id')
    .where('user_id', '=', userId)
    .where('post_id', 'in', [...new Set(postIds)])
    .execute();
  return new Set(rows.map((r) => r.post_id));
}

/** Whether the viewer moderates, as a column of another query (read from the membership, never the session). */
export function moderatorColumn(db: Db, community: Tenant, userId: number) {
  return selectInCommunityAs(db, 'memberships', 'viewer_membership', community)
    .select('viewer_membership.is_moderator')
    .where('viewer_membership.user_id', '=', userId)
    .where('viewer_membership.is_active', '=', true);
}

/**
 * Who may see a post or reply (not deleted) on its own page: everyone when it is published;
 * moderators and staff whatever its state; its author whatever its state too (waiting, rejected or
 * removed: read-only, with the moderator's note), so that the link of the moderation notice leads
 * somewhere.
 */
export const mayView = (status: ForumStatus, who: { mine: boolean; moderator: boolean }) => status === 'published' || who.moderator || who.mine;

/** Whether the author may still change what they wrote at `createdAt`. */
export const withinEditWindow = (createdAt: Date, now: Date) => now.getTime() - new Date(createdAt).getTime() <= EDIT_WINDOW_MS;

/**
 * Sets a post's reply_count to the number of its published, not deleted replies. For moderation
 * (remove, restore, approve) where counting is simpler than tracking each step; call it in the
 * transaction that changed the replies, after locking the post row.
 */
export async function recountReplies(trx: Db, community: Tenant, postId: number): Promise<number> {
  const row = await updateInCommunity(trx, 'forum_posts', community)
    .set((eb) => ({
      reply_count: eb
        .selectFrom('forum_replies')
        .select(eb.fn.countAll<number>().as('n'))
        .where('forum_replies.community_id', '=', community.id)
        .where('forum_replies.post_id', '=', postId)
        .where('forum_replies.status', '=', 'published')
        .where('forum_replies.deleted_at', 'is', null),
    }))
    .where('id', '=', postId)
    .returning('reply_count')
    .executeTakeFirst();
  return row?.reply_count ?? 0;
}

// ---------------------------------------------------------------------------------------------------
// The same lookups as columns of the row query (a page in fewer statements: the bench's budget is five
// per page, the session and the bell's dot included). Each is a correlated subquery on an index,
// evaluated only for the rows the LIMIT keeps.

type TopicJson = { id: number; name: string; position: number; archived: boolean };
type ReactionJson = { reaction: string; n: number; mine: boolean };

/** A post's topics (topic order) as a JSON column; read with `topicsFromJson`. */
export function topicsJsonColumn(community: Tenant, postIdColumn: string) {
  return sql<TopicJson[] | string | null>`(select coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'position', t.position, 'archived', t.archived_at is not null) order by t.position, t.name), '[]'::json)
    from forum_post_topics pt join forum_topics t on t.id = pt.topic_id
    where pt.post_id = ${sql.ref(postIdColumn)} and pt.community_id = ${community.id} and t.community_id = ${community.id})`;
}

/** An item's reactions (count per reaction, and whether the viewer gave it) as a JSON column; read with `reactionsFromJson`. */
export function reactionsJsonColumn(community: Tenant, kind: ForumTargetKind, idColumn: string, userId: number) {
  return sql<ReactionJson[] | string | null>`(select coalesce(json_agg(json_build_object('reaction', r.reaction, 'n', r.n, 'mine', r.mine)), '[]'::json)
    from (select reaction, count(*) as n, bool_or(user_id = ${userId}) as mine from forum_reactions
          where community_id = ${community.id} and target_kind = ${kind} and target_id = ${sql.ref(idColumn)} group by reaction) r)`;
}

const fromJson = <T>(v: T[] | string | null | undefined): T[] => (v == null ? [] : jsonValue<T[]>(v));

export const topicsFromJson = (v: TopicJson[] | string | null | undefined): TopicView[] =>
  fromJson(v).map((t) => ({ id: t.id, name: t.name, position: t.position, archived: t.archived }));

export function reactionsFromJson(v: ReactionJson[] | string | null | undefined): ReactionCount[] {
  const order = (r: string) => (REACTIONS as readonly string[]).indexOf(r);
  return fromJson(v)
    .filter((r) => order(r.reaction) >= 0)
    .sort((a, b) => order(a.reaction) - order(b.reaction))
    .map((r) => ({ reaction: r.reaction as Reaction, count: Number(r.n), mine: Boolean(r.mine) }));
}
