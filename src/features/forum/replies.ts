import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import { SNAPSHOT_COLUMNS } from '#src/features/members/index.ts';
import { ensureForumOn, forumTransaction, type ForumDeps, type ForumViewer } from './deps.ts';
import { checkRichText, ensureClean } from './content.ts';
import { authorOf, follow, postPath, publishEffects, replyPath } from './effects.ts';
import { linkMentions, notifyNewMentions, resolveMentions } from './mentions.ts';
import { markNoticed } from './notices.ts';
import { authorSnapshot, decodeIdCursor, encodeCursor, mayView, moderatorColumn, pageSize, reactionsFromJson, reactionsJsonColumn, withinEditWindow } from './queries.ts';
import { REPLIES_PAGE_SIZE, REPLY_MAX } from './rules.ts';
import type { ForumScope, PostView, RepliesPage, ReplyView } from './types.ts';
import { ensureMayPost, inScope, moderatesIn } from './scope.ts';

/**
 * Replies to a post (issue 14): a thread's pages (oldest first, keyset on id), replying, editing and
 * deleting one's own. The post's reply_count counts its published, not deleted replies: it changes in
 * the transaction that publishes or deletes one, under the lock of the post row. A page costs two
 * statements (the post and the viewer's role; the replies with authors, the viewer's flags and their
 * reactions, the viewer's visit recorded beside them: decision 0065).
 */

/** The post a thread belongs to, as the viewer may see it, with whether the viewer moderates. */
async function visiblePost(db: Db, deps: ForumDeps, viewer: ForumViewer, postId: number, scope?: ForumScope) {
  const row = await selectInCommunity(db, 'forum_posts', deps.community)
    .select((eb) => ['id', 'title', 'author_id', 'status', 'locked_at', 'group_id', moderatorColumn(db, deps.community, viewer.userId).as('viewer_is_moderator')])
    .where('id', '=', postId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row || !inScope(row.group_id, scope)) throw new AppError('Forum.PostNotFound');
  const moderator = moderatesIn(viewer, scope, row.viewer_is_moderator === true);
  const mine = row.author_id === viewer.userId;
  if (!mayView(row.status, { mine, moderator })) throw new AppError('Forum.PostNotFound');
  return { ...row, moderator };
}

function repliesQuery(db: Db, deps: ForumDeps, viewer: ForumViewer) {
  const me = viewer.userId;
  return selectInCommunity(db, 'forum_replies', deps.community)
    .innerJoin('users', 'users.id', 'forum_replies.author_id')
    // A left join: a reply whose author's membership row is gone stays, by a former member.
    .leftJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'forum_replies.author_id').onRef('memberships.community_id', '=', 'forum_replies.community_id'))
    .select((eb) => [
      'forum_replies.id',
      'forum_replies.post_id',
      'forum_replies.author_id',
      'forum_replies.body_html',
      'forum_replies.status',
      'forum_replies.moderation_note',
      'forum_replies.like_count',
      'forum_replies.created_at',
      'forum_replies.edited_at',
      ...SNAPSHOT_COLUMNS,
      eb
        .exists(eb.selectFrom('forum_likes').select(sql`1`.as('one')).where('forum_likes.community_id', '=', deps.community.id).where('forum_likes.target_kind', '=', 'reply').whereRef('forum_likes.target_id', '=', 'forum_replies.id').where('forum_likes.user_id', '=', me))
        .as('liked'),
      eb
        .exists(eb.selectFrom('forum_reports').select(sql`1`.as('one')).where('forum_reports.community_id', '=', deps.community.id).where('forum_reports.target_kind', '=', 'reply').whereRef('forum_reports.target_id', '=', 'forum_replies.id').where('forum_reports.reporter_id', '=', me))
        .as('reported'),
      reactionsJsonColumn(deps.community, 'reply', 'forum_replies.id', me).as('reactions_json'),
    ])
    .where('forum_replies.deleted_at', 'is', null);
}

type ReplyRow = Awaited<ReturnType<ReturnType<typeof repliesQuery>['executeTakeFirstOrThrow']>>;

/** `mayPost`: false in a group's scope that no longer lets the viewer post (nothing of theirs to change then). */
function toReplyView(deps: ForumDeps, viewer: ForumViewer, moderator: boolean, r: ReplyRow, mayPost = true): ReplyView {
  const mine = r.author_id === viewer.userId;
  const inWindow = withinEditWindow(r.created_at, deps.clock.now());
  return {
    id: r.id,
    postId: r.post_id,
    author: authorSnapshot(r, deps.t('forum.formerMember')),
    bodyHtml: r.body_html,
    createdAt: new Date(r.created_at),
    editedAt: r.edited_at ? new Date(r.edited_at) : null,
    status: r.status,
    moderationNote: mine || moderator ? r.moderation_note : null,
    likeCount: r.like_count,
    likedByMe: Boolean(r.liked),
    reactions: reactionsFromJson(r.reactions_json),
    reportedByMe: Boolean(r.reported),
    abilities: {
      canEdit: mine && mayPost && inWindow && r.status !== 'removed',
      canDelete: mine && mayPost && inWindow && r.status !== 'removed',
      canRemove: moderator && !mine && (r.status === 'published' || r.status === 'pending'),
      canReport: !mine && r.status === 'published',
      canModerate: moderator,
    },
  };
}

/**
 * A page of a thread, oldest first: published replies, the viewer's own pending, rejected and removed
 * ones (not deleted ones), and for moderators every pending one. `after` is the previous page's `next`. `post`: the PostView that
 * getPost just returned for this viewer, to skip reading the post again (optional).
 */
export async function listReplies(
  deps: ForumDeps,
  viewer: ForumViewer,
  postId: number,
  opts: { after?: string | null; first?: number; post?: Pick<PostView, 'id' | 'abilities'>; scope?: ForumScope; record?: boolean } = {},
): Promise<RepliesPage> {
  ensureForumOn(deps.community);
  const first = pageSize(opts.first, REPLIES_PAGE_SIZE);
  const after = decodeIdCursor(opts.after);
  // The post page has just read the post with getPost (as this viewer): its visibility and the
  // viewer's role need no second query, so the whole page stays within five statements.
  const post = opts.post && opts.post.id === postId ? { moderator: opts.post.abilities.canModerate } : await visiblePost(deps.db, deps, viewer, postId, opts.scope);
  let q = repliesQuery(deps.db, deps, viewer).where('forum_replies.post_id', '=', postId);
  // Everyone sees the published replies (moderators the pending ones too); the viewer also sees their
  // own pending, rejected and removed ones (never deleted ones), with their state, so the anchor of a
  // notification about one (`#reply-{id}`) finds it.
  q = q.where((eb) =>
    eb.or([
      eb('forum_replies.status', 'in', post.moderator ? ['published', 'pending'] : ['published']),
      eb.and([eb('forum_replies.status', 'in', ['pending', 'rejected', 'removed']), eb('forum_replies.author_id', '=', viewer.userId)]),
    ]),
  );
  if (after !== null) q = q.where('forum_replies.id', '>', after);
  const pageQuery = q.orderBy('forum_replies.id', 'asc').limit(first + 1);
  const rows = opts.record === false ? await pageQuery.execute() : await readAndRecord(deps, viewer, postId, pageQuery, first, after ?? 0);
  const page = rows.slice(0, first);
  const last = page[page.length - 1];
  return {
    replies: page.map((r) => toReplyView(deps, viewer, post.moderator, r, !opts.scope || opts.scope.canPost)),
    next: rows.length > first && last ? encodeCursor([last.id]) : null,
  };
}

/**
 * The page of replies, and in the same statement the viewer's visit recorded (decision 0065): a
 * data-modifying CTE beside the page upserts forum_reads with the highest reply id the page shows (its
 * `first` rows, not the one read ahead to know whether there is more). What the member was shown, not
 * "now": a reply that commits after the statement's snapshot is past that id (replies to one post are
 * written under its row lock, so ids commit in order) and counts as new on the list.
 *
 * The mark moves on only over replies read in order: when this page starts at or before it (`from`,
 * the page's cursor, 0 on the first page). A page reached by skipping ahead (a notification's link to a
 * later page) leaves it where it was, so no reply is counted read that was never shown; a first visit
 * there records the post as opened (mark 0). The mark never goes back (greatest): an earlier page read
 * again changes nothing.
 */
async function readAndRecord(deps: ForumDeps, viewer: ForumViewer, postId: number, pageQuery: ReturnType<typeof repliesQuery>, first: number, from: number): Promise<ReplyRow[]> {
  const shownMax = () => sql<number>`(select coalesce(max(shown.id), 0) from (select id from page order by id limit ${first}) shown)`;
  const now = deps.clock.now();
  const mark = insertInCommunity(deps.db, 'forum_reads', deps.community, {
    post_id: postId,
    user_id: viewer.userId,
    last_reply_id: (from === 0 ? shownMax() : 0) as unknown as number,
    read_at: now,
  }).onConflict((oc) =>
    oc
      .columns(['community_id', 'post_id', 'user_id'])
      .doUpdateSet({ last_reply_id: sql<number>`greatest(forum_reads.last_reply_id, ${shownMax()})`, read_at: now })
      .where('forum_reads.last_reply_id', '>=', from),
  );
  const result = await sql<ReplyRow>`with page as (${pageQuery}), mark as (${mark}) select * from page order by id`.execute(deps.db);
  return result.rows;
}

/** One reply as the viewer may see it (for answers to writes), else 'Forum.ReplyNotFound'. */
export async function getReply(deps: ForumDeps, viewer: ForumViewer, replyId: number, scope?: ForumScope): Promise<ReplyView> {
  ensureForumOn(deps.community);
  const row = await repliesQuery(deps.db, deps, viewer)
    .select((eb) => [
      moderatorColumn(deps.db, deps.community, viewer.userId).as('viewer_is_moderator'),
      eb.selectFrom('forum_posts as rp').select('rp.group_id').whereRef('rp.id', '=', 'forum_replies.post_id').where('rp.community_id', '=', deps.community.id).as('post_group_id'),
    ])
    .where('forum_replies.id', '=', replyId)
    .executeTakeFirst();
  if (!row || !inScope(row.post_group_id ?? null, scope)) throw new AppError('Forum.ReplyNotFound');
  const moderator = moderatesIn(viewer, scope, row.viewer_is_moderator === true);
  const mine = row.author_id === viewer.userId;
  if (!mayView(row.status, { mine, moderator })) throw new AppError('Forum.ReplyNotFound');
  return toReplyView(deps, viewer, moderator, row, !scope || scope.canPost);
}

function checkReply(body: unknown) {
  ensureClean({ body }, ['body']);
  return checkRichText(body, REPLY_MAX, { required: 'forum.errors.replyRequired', tooLong: 'forum.errors.replyTooLong' });
}

/**
 * A reply to a published, unlocked post ('Forum.Locked' otherwise). Published at once, or pending
 * when the author must wait (as for posts). Publishing bumps the post (reply_count, last activity) and
 * notifies its followers and the mentioned members (publishEffects); the replier follows the post.
 */
export async function createReply(deps: ForumDeps, viewer: ForumViewer, postId: number, input: { body: unknown }, scope?: ForumScope): Promise<ReplyView> {
  ensureForumOn(deps.community);
  ensureMayPost(scope);
  const author = await authorOf(deps, viewer, 'reply', scope);
  const body = checkReply(input.body);
  const mentioned = await resolveMentions(deps.db, deps.community, body.text, scope?.groupId ?? null);
  const now = deps.clock.now();
  const id = await forumTransaction(deps.db, async (trx) => {
    const post = await selectInCommunity(trx, 'forum_posts', deps.community)
      .select(['id', 'status', 'locked_at', 'group_id'])
      .where('id', '=', postId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!post || post.status !== 'published' || !inScope(post.group_id, scope)) throw new AppError('Forum.PostNotFound');
    if (post.locked_at) throw new AppError('Forum.Locked');
    const reply = await insertInCommunity(trx, 'forum_replies', deps.community, {
      post_id: postId,
      author_id: author.id,
      body_html: linkMentions(body.html, mentioned),
      body_text: body.text,
      status: author.waits ? 'pending' : 'published',
      created_at: now,
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    await follow(trx, deps.community, postId, author.id, now);
    if (!author.waits) await publishEffects(trx, deps, 'reply', reply.id);
    return reply.id;
  });
  return getReply(deps, viewer, id, scope);
}

/**
 * The viewer's own reply, to edit or delete, locked for the change with its post row first (counts
 * change under that lock); a moderator deleting someone else's is sent to remove-with-reason. A reply
 * in a group's discussion is changed only in its group's scope (decision 0056), else not found.
 */
async function replyForChange(trx: Db, deps: ForumDeps, viewer: ForumViewer, replyId: number, purpose: 'edit' | 'delete', scope?: ForumScope) {
  const found = await selectInCommunity(trx, 'forum_replies', deps.community)
    .select(['post_id'])
    .where('id', '=', replyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!found) throw new AppError('Forum.ReplyNotFound');
  const post = await selectInCommunity(trx, 'forum_posts', deps.community).select(['id', 'group_id']).where('id', '=', found.post_id).forUpdate().executeTakeFirst();
  // A reply in a group's discussion is not the forum's to change (nor to tell of: decision 0056).
  if (!post || !inScope(post.group_id, scope)) throw new AppError('Forum.ReplyNotFound');
  const row = await selectInCommunity(trx, 'forum_replies', deps.community)
    .select(['id', 'post_id', 'author_id', 'status', 'created_at'])
    .where('id', '=', replyId)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('Forum.ReplyNotFound');
  if (scope && row.author_id !== viewer.userId) {
    // In a group: its chairs (and staff) remove with a reason; anyone else finds nothing of theirs here.
    if (purpose === 'delete' && moderatesIn(viewer, scope, false) && (row.status === 'published' || row.status === 'pending')) throw new AppError('Forum.UseRemove');
    throw new AppError('Forum.ReplyNotFound');
  }
  if (row.author_id !== viewer.userId) {
    const moderator = purpose === 'delete' && (viewer.isStaff || (await moderatorColumn(trx, deps.community, viewer.userId).executeTakeFirst())?.is_moderator === true);
    if (moderator && (row.status === 'published' || row.status === 'pending')) throw new AppError('Forum.UseRemove');
    if (row.status !== 'published') throw new AppError('Forum.ReplyNotFound');
    throw new AppError('Forum.NotYours');
  }
  if (row.status === 'removed') throw new AppError('Forum.ReplyNotFound');
  if (!withinEditWindow(row.created_at, deps.clock.now())) throw new AppError('Forum.EditWindowClosed');
  return row;
}

/** The author changes their reply within EDIT_WINDOW_MS. */
export async function editReply(deps: ForumDeps, viewer: ForumViewer, replyId: number, input: { body: unknown }, scope?: ForumScope): Promise<ReplyView> {
  ensureForumOn(deps.community);
  ensureMayPost(scope);
  const body = checkReply(input.body);
  const mentioned = await resolveMentions(deps.db, deps.community, body.text, scope?.groupId ?? null);
  await forumTransaction(deps.db, async (trx) => {
    const row = await replyForChange(trx, deps, viewer, replyId, 'edit', scope);
    const old = await selectInCommunity(trx, 'forum_replies', deps.community).select('body_text').where('id', '=', replyId).executeTakeFirstOrThrow();
    await updateInCommunity(trx, 'forum_replies', deps.community)
      .set({ body_html: linkMentions(body.html, mentioned), body_text: body.text, edited_at: deps.clock.now() })
      .where('id', '=', replyId)
      .execute();
    // Members the edit newly mentions hear of it now, when the reply and its post are public.
    const post = await selectInCommunity(trx, 'forum_posts', deps.community).select(['title', 'status', 'deleted_at', 'group_id']).where('id', '=', row.post_id).executeTakeFirst();
    if (row.status === 'published' && post?.status === 'published' && post.deleted_at == null) {
      const told = await notifyNewMentions(trx, deps, { authorId: row.author_id, title: post.title, url: replyPath(row.post_id, replyId), before: old.body_text, after: body.text, groupId: post.group_id });
      // Its notices job, if still queued, reads the new text: it must not tell them again.
      await markNoticed(trx, deps.community, replyId, told, deps.clock.now());
    }
  });
  return getReply(deps, viewer, replyId, scope);
}

/**
 * The author deletes their reply within EDIT_WINDOW_MS (someone else's, even a moderator's to act on,
 * is removed with a reason instead: 'Forum.UseRemove', moderation.ts). A published
 * reply's post loses one from reply_count in the same transaction, under the post row's lock.
 */
export async function deleteReply(deps: ForumDeps, viewer: ForumViewer, replyId: number, scope?: ForumScope): Promise<void> {
  ensureForumOn(deps.community);
  ensureMayPost(scope);
  await forumTransaction(deps.db, async (trx) => {
    const row = await replyForChange(trx, deps, viewer, replyId, 'delete', scope);
    const now = deps.clock.now();
    await updateInCommunity(trx, 'forum_replies', deps.community).set({ deleted_at: now, report_count: 0 }).where('id', '=', replyId).execute();
    // Gone with its text: the open reports on it are settled ('deleted').
    await updateInCommunity(trx, 'forum_reports', deps.community)
      .set({ resolved_at: now, resolved_by: viewer.userId, resolution: 'deleted' })
      .where('target_kind', '=', 'reply')
      .where('target_id', '=', replyId)
      .where('resolved_at', 'is', null)
      .execute();
    if (row.status === 'published') {
      await updateInCommunity(trx, 'forum_posts', deps.community)
        .set((eb) => ({ reply_count: sql<number>`greatest(${eb.ref('reply_count')} - 1, 0)` }))
        .where('id', '=', row.post_id)
        .execute();
    }
  });
}
