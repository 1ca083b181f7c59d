import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { ensureForumOn, forumTransaction, type ForumDeps, type ForumViewer } from './deps.ts';
import { checkAll, checkRichText, checkTitle, checkTopics, ensureClean } from './content.ts';
import { authorOf, follow, postPath, publishEffects, replyPath } from './effects.ts';
import { linkMentions, notifyNewMentions, resolveMentions } from './mentions.ts';
import {
  activityKeyColumn,
  decodeActivityCursor,
  encodeCursor,
  excerptColumn,
  mayView,
  moderatorColumn,
  pageSize,
  postsWithReads,
  reactionsFromJson,
  readColumns,
  reactionsJsonColumn,
  SUMMARY_COLUMNS,
  toSummary,
  topicsFromJson,
  topicsJsonColumn,
  withinEditWindow,
  type SummaryRow,
} from './queries.ts';
import { LIST_PAGE_SIZE, POST_MAX } from './rules.ts';
import type { ForumListPage, ForumListQuery, ForumScope, PostView } from './types.ts';
import { ensureMayPost, inScope, moderatesIn } from './scope.ts';

/**
 * Forum posts (issue 14): the list (newest activity first, topic filter, full-text search, keyset
 * pages), one post, and writing, editing and deleting one's own. A page of the list costs one
 * statement (the page with its authors and topics, and on the first unfiltered page the pinned posts
 * beside it; the viewer's read state of each row and its repliers' faces ride along: decision 0065); a
 * post costs one (the post with its author, the viewer's flags, its topics and its reactions). All
 * scoped to deps.community.
 */

const SEARCH_MAX = 200;

/** At most this many pinned posts stand apart above the list; more (rare) stay in the list itself. */
export const PINNED_MAX = 50;

/** The list: published, not deleted posts, newest activity first; keyset on (last_activity_at, id). */
export async function listPosts(deps: ForumDeps, viewer: ForumViewer, q: ForumListQuery): Promise<ForumListPage> {
  ensureForumOn(deps.community);
  const first = pageSize(q.first, LIST_PAGE_SIZE);
  const after = decodeActivityCursor(q.after);
  if (q.q != null && typeof q.q !== 'string') throw new AppError('BadRequest.Validation');
  ensureClean({ q: q.q }, []);
  const search = (q.q ?? '').trim().slice(0, SEARCH_MAX);
  const topicId = q.topicId ?? null;
  if (topicId !== null && (!Number.isSafeInteger(topicId) || topicId < 1 || topicId > 2_147_483_647)) throw new AppError('Forum.TopicNotFound');
  const unfiltered = !search && topicId === null;

  const base = () =>
    postsWithReads(deps.db, deps.community, viewer.userId)
      .select((eb) => [...SUMMARY_COLUMNS, excerptColumn(eb), activityKeyColumn(), topicsJsonColumn(deps.community, 'forum_posts.id').as('topics_json'), ...readColumns(deps.community, viewer.userId)])
      .where('forum_posts.status', '=', 'published')
      .where('forum_posts.deleted_at', 'is', null)
      // A group's posts are its discussion's, never the forum's list or search (decision 0056).
      .where('forum_posts.group_id', 'is', null);

  // The pinned posts shown apart: the PINNED_MAX most recently pinned, published and not deleted.
  const shownPinned = () =>
    selectInCommunityAs(deps.db, 'forum_posts', 'pp', deps.community)
      .select('pp.id')
      .where('pp.pinned_at', 'is not', null)
      .where('pp.status', '=', 'published')
      .where('pp.deleted_at', 'is', null)
      .where('pp.group_id', 'is', null)
      .orderBy('pp.pinned_at', 'desc')
      .orderBy('pp.id', 'desc')
      .limit(PINNED_MAX);

  let page = base();
  // Pinned posts are shown apart, above the first page of the unfiltered list, and not again below;
  // any pinned beyond PINNED_MAX stay in the list, so that none is lost.
  if (unfiltered) page = page.where((eb) => eb.or([eb('forum_posts.pinned_at', 'is', null), eb('forum_posts.id', 'not in', shownPinned())]));
  if (topicId !== null) {
    page = page.where((eb) =>
      eb.exists(
        eb
          .selectFrom('forum_post_topics')
          .select(sql`1`.as('one'))
          .whereRef('forum_post_topics.post_id', '=', 'forum_posts.id')
          .where('forum_post_topics.community_id', '=', deps.community.id)
          .where('forum_post_topics.topic_id', '=', topicId),
      ),
    );
  }
  if (search) page = page.where(sql<boolean>`forum_posts.search @@ websearch_to_tsquery('english', ${search})`);
  if (after) {
    // A row comparison: the index (community_id, last_activity_at desc, id desc) serves it as one range.
    page = page.where(sql<boolean>`(forum_posts.last_activity_at, forum_posts.id) < (cast(${after.at} as timestamptz), ${after.id})`);
  }
  type Row = SummaryRow & { activity_key: string; topics_json: Parameters<typeof topicsFromJson>[0]; part: number };
  const pageQuery = page.select(sql<number>`2`.as('part')).orderBy('forum_posts.last_activity_at', 'desc').orderBy('forum_posts.id', 'desc').limit(first + 1);
  // The first unfiltered page reads its pinned posts (the PINNED_MAX most recently pinned) in the same
  // statement (one round trip).
  const pinnedQuery = () =>
    base().select(sql<number>`1`.as('part')).where('forum_posts.pinned_at', 'is not', null).orderBy('forum_posts.pinned_at', 'desc').orderBy('forum_posts.id', 'desc').limit(PINNED_MAX);
  const rows: Row[] = unfiltered && !after ? (await sql<Row>`${pinnedQuery()} union all ${pageQuery}`.execute(deps.db)).rows : ((await pageQuery.execute()) as Row[]);
  // Each part in its own order (a union keeps no order of its own); activity_key keeps the microseconds.
  const byActivity = (a: Row, b: Row) => (a.activity_key === b.activity_key ? b.id - a.id : a.activity_key < b.activity_key ? 1 : -1);
  const byPinned = (a: Row, b: Row) => new Date(b.pinned_at!).getTime() - new Date(a.pinned_at!).getTime() || b.id - a.id;
  const listed = rows.filter((r) => Number(r.part) === 2).sort(byActivity);
  const pinnedRows = rows.filter((r) => Number(r.part) === 1).sort(byPinned);
  const more = listed.length > first;
  const pageRows = listed.slice(0, first);
  const last = pageRows[pageRows.length - 1];
  const formerMember = deps.t('forum.formerMember');
  return {
    pinned: pinnedRows.map((r) => toSummary(r, topicsFromJson(r.topics_json), formerMember)),
    posts: pageRows.map((r) => toSummary(r, topicsFromJson(r.topics_json), formerMember)),
    next: more && last ? encodeCursor([last.activity_key, last.id]) : null,
  };
}

/** The post row with its author, its text, and the viewer's flags (liked, followed, reported, moderator) in one statement. */
function postQuery(deps: ForumDeps, viewer: ForumViewer, postId: number) {
  const me = viewer.userId;
  return postsWithReads(deps.db, deps.community, me)
    .select((eb) => [
      ...SUMMARY_COLUMNS,
      ...readColumns(deps.community, me),
      excerptColumn(eb),
      'forum_posts.body_html',
      'forum_posts.edited_at',
      'forum_posts.moderation_note',
      'forum_posts.group_id',
      eb
        .exists(eb.selectFrom('forum_likes').select(sql`1`.as('one')).where('forum_likes.community_id', '=', deps.community.id).where('forum_likes.target_kind', '=', 'post').whereRef('forum_likes.target_id', '=', 'forum_posts.id').where('forum_likes.user_id', '=', me))
        .as('liked'),
      eb.exists(eb.selectFrom('forum_follows').select(sql`1`.as('one')).where('forum_follows.community_id', '=', deps.community.id).whereRef('forum_follows.post_id', '=', 'forum_posts.id').where('forum_follows.user_id', '=', me)).as('followed'),
      eb
        .exists(eb.selectFrom('forum_reports').select(sql`1`.as('one')).where('forum_reports.community_id', '=', deps.community.id).where('forum_reports.target_kind', '=', 'post').whereRef('forum_reports.target_id', '=', 'forum_posts.id').where('forum_reports.reporter_id', '=', me))
        .as('reported'),
      moderatorColumn(deps.db, deps.community, me).as('viewer_is_moderator'),
      topicsJsonColumn(deps.community, 'forum_posts.id').as('topics_json'),
      reactionsJsonColumn(deps.community, 'post', 'forum_posts.id', me).as('reactions_json'),
    ])
    .where('forum_posts.id', '=', postId)
    .where('forum_posts.deleted_at', 'is', null);
}

/**
 * One post as the viewer may see it, else 'Forum.PostNotFound' (missing, deleted, another community's;
 * removed or rejected or pending unless the viewer wrote it or moderates).
 */
export async function getPost(deps: ForumDeps, viewer: ForumViewer, postId: number, scope?: ForumScope): Promise<PostView> {
  ensureForumOn(deps.community);
  const row = await postQuery(deps, viewer, postId).executeTakeFirst();
  if (!row || !inScope(row.group_id, scope)) throw new AppError('Forum.PostNotFound');
  const moderator = moderatesIn(viewer, scope, row.viewer_is_moderator === true);
  const mine = row.author_id === viewer.userId;
  if (!mayView(row.status, { mine, moderator })) throw new AppError('Forum.PostNotFound');
  const summary = toSummary(row as SummaryRow, topicsFromJson(row.topics_json), deps.t('forum.formerMember'));
  const inWindow = withinEditWindow(row.created_at, deps.clock.now());
  const published = row.status === 'published';
  return {
    ...summary,
    bodyHtml: row.body_html,
    editedAt: row.edited_at ? new Date(row.edited_at) : null,
    moderationNote: mine || moderator ? row.moderation_note : null,
    likedByMe: Boolean(row.liked),
    followedByMe: Boolean(row.followed),
    reportedByMe: Boolean(row.reported),
    reactions: reactionsFromJson(row.reactions_json),
    abilities: {
      // In a group, only while the viewer may still post there (a member who left keeps nothing to change).
      canEdit: mine && inWindow && row.status !== 'removed' && (!scope || scope.canPost),
      canDelete: mine && inWindow && row.status !== 'removed' && (!scope || scope.canPost),
      canRemove: moderator && !mine && (published || row.status === 'pending'),
      // Reports, likes and reactions are the forum's own (its moderators'): not in a group's discussion.
      canReport: !mine && published && !scope,
      canModerate: moderator,
      canReply: published && row.locked_at == null && (!scope || scope.canPost),
      canLock: moderator,
      canPin: viewer.isStaff && !scope,
    },
  };
}

type PostInput = { title: unknown; body: unknown; topicIds: unknown };

/** Checks a post's fields together (every field's message at once), or throws 'Forum.Invalid' / code 150. */
async function checkPost(deps: ForumDeps, input: PostInput, topicsRequired: boolean) {
  ensureClean({ title: input.title, body: input.body }, ['body']);
  const [title, body, topicIds] = await checkAll(
    () => checkTitle(input.title),
    () => checkRichText(input.body, POST_MAX, { required: 'forum.errors.bodyRequired', tooLong: 'forum.errors.bodyTooLong' }),
    () => (topicsRequired || input.topicIds !== undefined ? checkTopics(deps.db, deps.community, input.topicIds) : null),
  );
  return { title, body, topicIds };
}

/**
 * A new post. Published at once, or 'pending' when the author must wait (a new member, or every post
 * waits in this community; staff and moderators never wait). The author follows it. @mentions become
 * profile links and, once published, notify the mentioned members.
 */
export async function createPost(deps: ForumDeps, viewer: ForumViewer, input: PostInput, scope?: ForumScope): Promise<PostView> {
  ensureForumOn(deps.community);
  ensureMayPost(scope);
  const author = await authorOf(deps, viewer, 'post', scope);
  // A group's posts need no topic (topics are the forum's); one given is kept.
  const { title, body, topicIds } = await checkPost(deps, input, !scope);
  const mentioned = await resolveMentions(deps.db, deps.community, `${title}\n${body.text}`, scope?.groupId ?? null);
  const now = deps.clock.now();
  const id = await forumTransaction(deps.db, async (trx) => {
    const post = await insertInCommunity(trx, 'forum_posts', deps.community, {
      author_id: author.id,
      title,
      body_html: linkMentions(body.html, mentioned),
      body_text: body.text,
      status: author.waits ? 'pending' : 'published',
      last_activity_at: now,
      created_at: now,
      group_id: scope?.groupId ?? null,
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (topicIds && topicIds.length > 0) {
      await insertInCommunity(
        trx,
        'forum_post_topics',
        deps.community,
        topicIds.map((topic_id) => ({ post_id: post.id, topic_id })),
      ).execute();
    }
    await follow(trx, deps.community, post.id, author.id, now);
    // Its author has read it (decision 0065): replies by others count as new for them from the first,
    // whether the post came from the page (which shows it next) or from the API (which does not).
    await insertInCommunity(trx, 'forum_reads', deps.community, { post_id: post.id, user_id: author.id, last_reply_id: 0, read_at: now })
      .onConflict((oc) => oc.doNothing())
      .execute();
    if (!author.waits) await publishEffects(trx, deps, 'post', post.id);
    return post.id;
  });
  return getPost(deps, viewer, id, scope);
}

/**
 * The viewer's own post, to edit or delete within the window. A moderator (or staff) deleting someone
 * else's post is sent to remove-with-reason (moderation.ts: logged, the author told, restorable).
 * A group's post is changed only in its group's scope (decision 0056), by its author while the scope
 * lets them post; without a scope it is not found: the forum's endpoints would bypass the group's say
 * on who may write, and NotYours or UseRemove would tell anyone that it exists.
 */
async function ownPostForChange(trx: ForumDeps['db'], deps: ForumDeps, viewer: ForumViewer, postId: number, purpose: 'edit' | 'delete', scope?: ForumScope) {
  const row = await selectInCommunity(trx, 'forum_posts', deps.community)
    .select(['id', 'author_id', 'status', 'created_at', 'group_id'])
    .where('id', '=', postId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!row || !inScope(row.group_id, scope)) throw new AppError('Forum.PostNotFound');
  if (scope && row.author_id !== viewer.userId) {
    // In a group: its chairs (and staff) remove with a reason; anyone else finds nothing of theirs here.
    if (purpose === 'delete' && moderatesIn(viewer, scope, false) && (row.status === 'published' || row.status === 'pending')) throw new AppError('Forum.UseRemove');
    throw new AppError('Forum.PostNotFound');
  }
  const mine = row.author_id === viewer.userId;
  if (!mine) {
    const moderator = purpose === 'delete' && (viewer.isStaff || (await moderatorColumn(trx, deps.community, viewer.userId).executeTakeFirst())?.is_moderator === true);
    if (moderator && (row.status === 'published' || row.status === 'pending')) throw new AppError('Forum.UseRemove');
    if (row.status !== 'published') throw new AppError('Forum.PostNotFound');
    throw new AppError('Forum.NotYours');
  }
  if (row.status === 'removed') throw new AppError('Forum.PostNotFound');
  if (!withinEditWindow(row.created_at, deps.clock.now())) throw new AppError('Forum.EditWindowClosed');
  return row;
}

/** The author changes their post (title, text, topics when given) within EDIT_WINDOW_MS. */
export async function editPost(deps: ForumDeps, viewer: ForumViewer, postId: number, input: PostInput, scope?: ForumScope): Promise<PostView> {
  ensureForumOn(deps.community);
  ensureMayPost(scope);
  const { title, body, topicIds } = await checkPost(deps, input, false);
  // Only a group's post is edited in its scope, only a forum's without one (ownPostForChange): mentions resolve there.
  const mentioned = await resolveMentions(deps.db, deps.community, `${title}\n${body.text}`, scope?.groupId ?? null);
  await forumTransaction(deps.db, async (trx) => {
    const row = await ownPostForChange(trx, deps, viewer, postId, 'edit', scope);
    const old = await selectInCommunity(trx, 'forum_posts', deps.community).select(['title', 'body_text']).where('id', '=', postId).executeTakeFirstOrThrow();
    await updateInCommunity(trx, 'forum_posts', deps.community)
      .set({ title, body_html: linkMentions(body.html, mentioned), body_text: body.text, edited_at: deps.clock.now() })
      .where('id', '=', postId)
      .execute();
    if (topicIds) {
      await deleteInCommunity(trx, 'forum_post_topics', deps.community).where('post_id', '=', postId).execute();
      await insertInCommunity(
        trx,
        'forum_post_topics',
        deps.community,
        topicIds.map((topic_id) => ({ post_id: postId, topic_id })),
      ).execute();
    }
    // Members the edit newly mentions hear of it now (a waiting post's mentions wait for its approval).
    if (row.status === 'published') {
      await notifyNewMentions(trx, deps, { authorId: row.author_id, title, url: postPath(postId), before: `${old.title}\n${old.body_text}`, after: `${title}\n${body.text}`, groupId: row.group_id });
    }
  });
  return getPost(deps, viewer, postId, scope);
}

/**
 * The author deletes their post within EDIT_WINDOW_MS: hidden everywhere. Someone else's post is not
 * deleted, even by a moderator: they remove it with a reason ('Forum.UseRemove', moderation.ts).
 */
export async function deletePost(deps: ForumDeps, viewer: ForumViewer, postId: number, scope?: ForumScope): Promise<void> {
  ensureForumOn(deps.community);
  ensureMayPost(scope);
  await forumTransaction(deps.db, async (trx) => {
    await ownPostForChange(trx, deps, viewer, postId, 'delete', scope);
    const now = deps.clock.now();
    await updateInCommunity(trx, 'forum_posts', deps.community).set({ deleted_at: now }).where('id', '=', postId).execute();
    // Gone with its text: the open reports on it and on its replies are settled ('deleted').
    await updateInCommunity(trx, 'forum_reports', deps.community)
      .set({ resolved_at: now, resolved_by: viewer.userId, resolution: 'deleted' })
      .where('post_id', '=', postId)
      .where('resolved_at', 'is', null)
      .execute();
  });
}
