import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import { createPost, createReply, deletePost, deleteReply, editPost, editReply, getPost, getReply, listGroupPosts, listReplies, removeContent, restoreContent, type ForumDeps, type ForumScope, type GroupPostPath, type PostSummary, type PostView, type ReplyView } from '#src/features/forum/index.ts';
import type { GroupsDeps, GroupsViewer } from './deps.ts';
import { visibleGroup, type VisibleGroup } from './queries.ts';
import { slugOf } from './members.ts';

/**
 * A group's discussion: the forum's posts and replies scoped to the group, through the forum's own
 * services (its content rules and limits, mentions, reply notices, moderation) with the scope this
 * area decides (queries.ts abilitiesOf): who reads, who posts, and its chairs as its moderators.
 */

const forumOf = (deps: GroupsDeps): ForumDeps => ({ db: deps.db, clock: deps.clock, community: deps.community as ForumDeps['community'], t: deps.t, notifier: deps.notifier, publicUrl: deps.publicUrl, jobs: deps.jobs });

/** The discussion's scope of a loaded group: nothing more is read (its chairs come with it). */
export function scopeOf(g: VisibleGroup): ForumScope {
  return { groupId: g.id, canRead: g.abilities.canRead, canPost: g.abilities.canPost, moderators: g.chair_ids };
}

/** The group (as the viewer may see it) and its discussion's scope: one statement, handed on to the page and the discussion. */
export async function groupScope(deps: GroupsDeps, viewer: GroupsViewer, slug: unknown): Promise<{ group: VisibleGroup; scope: ForumScope }> {
  const group = await visibleGroup(deps.db, deps.community, { slug: slugOf(slug) }, viewer);
  return { group, scope: scopeOf(group) };
}

export function postIdOf(value: unknown): number {
  const id = parseId(value);
  if (id === null) throw new AppError('Forum.PostNotFound');
  return id;
}

/** A page of the group's posts, in the scope of the group the caller loaded (groupScope). */
export async function groupPosts(deps: GroupsDeps, viewer: GroupsViewer, scope: ForumScope, after?: string | null): Promise<{ posts: PostSummary[]; next: string | null }> {
  return listGroupPosts(forumOf(deps), viewer, scope, { after });
}

/** A new post in the group's discussion (the forum's rules; its members and chairs, and staff). */
export async function postInGroup(deps: GroupsDeps, viewer: GroupsViewer, slug: unknown, input: { title: unknown; body: unknown }): Promise<PostView> {
  const { scope } = await groupScope(deps, viewer, slug);
  return createPost(forumOf(deps), viewer, { title: input.title, body: input.body, topicIds: undefined }, scope);
}

/** One post of the group with a page of its replies, in the scope of the group the caller loaded (groupScope). */
export async function groupPost(deps: GroupsDeps, viewer: GroupsViewer, scope: ForumScope, postId: unknown, after?: string | null): Promise<{ post: PostView; replies: ReplyView[]; next: string | null }> {
  const id = postIdOf(postId);
  const f = forumOf(deps);
  const post = await getPost(f, viewer, id, scope);
  const page = await listReplies(f, viewer, id, { after, post, scope });
  return { post, replies: page.replies, next: page.next };
}

export async function replyInGroup(deps: GroupsDeps, viewer: GroupsViewer, slug: unknown, postId: unknown, input: { body: unknown }): Promise<ReplyView> {
  const { scope } = await groupScope(deps, viewer, slug);
  return createReply(forumOf(deps), viewer, postIdOf(postId), input, scope);
}

/**
 * The author edits or deletes their own post of the group, in its scope: the forum's rules (its edit
 * window, its content rules) and the scope's leave to post; anyone else finds nothing (404).
 */
export async function editPostInGroup(deps: GroupsDeps, viewer: GroupsViewer, scope: ForumScope, postId: unknown, input: { title: unknown; body: unknown }): Promise<PostView> {
  return editPost(forumOf(deps), viewer, postIdOf(postId), { title: input.title, body: input.body, topicIds: undefined }, scope);
}

export async function deletePostInGroup(deps: GroupsDeps, viewer: GroupsViewer, scope: ForumScope, postId: unknown): Promise<void> {
  await deletePost(forumOf(deps), viewer, postIdOf(postId), scope);
}

/** One post of the group as the viewer sees it (for its edit form: no replies read). */
export async function groupPostOnly(deps: GroupsDeps, viewer: GroupsViewer, scope: ForumScope, postId: unknown): Promise<PostView> {
  return getPost(forumOf(deps), viewer, postIdOf(postId), scope);
}

/** A reply of this post of the group as the viewer sees it, else not found (a reply is changed under its own post's address only). */
async function replyOfPost(deps: GroupsDeps, viewer: GroupsViewer, scope: ForumScope, postId: unknown, replyId: unknown): Promise<ReplyView> {
  const id = parseId(replyId);
  if (id === null) throw new AppError('Forum.ReplyNotFound');
  const found = await getReply(forumOf(deps), viewer, id, scope);
  if (found.postId !== postIdOf(postId)) throw new AppError('Forum.ReplyNotFound');
  return found;
}

export async function editReplyInGroup(deps: GroupsDeps, viewer: GroupsViewer, scope: ForumScope, postId: unknown, replyId: unknown, input: { body: unknown }): Promise<ReplyView> {
  const found = await replyOfPost(deps, viewer, scope, postId, replyId);
  return editReply(forumOf(deps), viewer, found.id, input, scope);
}

export async function deleteReplyInGroup(deps: GroupsDeps, viewer: GroupsViewer, scope: ForumScope, postId: unknown, replyId: unknown): Promise<void> {
  const found = await replyOfPost(deps, viewer, scope, postId, replyId);
  await deleteReply(forumOf(deps), viewer, found.id, scope);
}

/** A chair (or staff) removes a post or reply of the group's discussion with a reason, or restores it. */
export async function moderateInGroup(deps: GroupsDeps, viewer: GroupsViewer, slug: unknown, kind: 'post' | 'reply', id: unknown, action: 'remove' | 'restore', reason?: unknown): Promise<void> {
  const { scope } = await groupScope(deps, viewer, slug);
  const target = postIdOf(id);
  if (action === 'remove') await removeContent(forumOf(deps), viewer, kind, target, reason, scope);
  else await restoreContent(forumOf(deps), viewer, kind, target, scope);
}

/** The forum's post page sends a group's post here for whoever may read the group (else the same 404). */
export const groupPostPath: GroupPostPath = async (deps, viewer, groupId, postId) => {
  try {
    const g = await visibleGroup(deps.db, deps.community, { id: groupId }, viewer);
    return g.abilities.canRead ? `/groups/${g.slug}/posts/${postId}` : null;
  } catch {
    return null;
  }
};
