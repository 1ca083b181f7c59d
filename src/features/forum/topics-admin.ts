import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { logAction } from './actions-log.ts';
import { ensureForumOn, forumTransaction, type ForumDeps, type ForumViewer } from './deps.ts';
import { TOPIC_NAME_MAX } from './rules.ts';
import { ensureStaff, forumFieldError } from './targets.ts';
import type { TopicView } from './types.ts';

/**
 * The forum's topics as staff keep them (issue 14, "Staff"): create, rename, order, archive. An
 * archived topic keeps its posts but takes no new ones. Names are unique in a community whatever
 * their case. Staff only; each change is logged.
 */

/** A topic's name: trimmed, inner spaces collapsed, 1..TOPIC_NAME_MAX characters. */
export function checkTopicName(value: unknown): string {
  if (value != null && typeof value !== 'string') throw forumFieldError('name', 'forumAdmin.errors.topicNameRequired');
  ensureText({ name: value });
  const name = (value ?? '').replace(/\s+/g, ' ').trim();
  if (!name) throw forumFieldError('name', 'forumAdmin.errors.topicNameRequired');
  if (name.length > TOPIC_NAME_MAX) throw forumFieldError('name', 'forumAdmin.errors.topicNameTooLong', { max: TOPIC_NAME_MAX, num: name.length - TOPIC_NAME_MAX });
  return name;
}

const isNameTaken = (e: unknown) => {
  const err = e as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  return err?.code === '23505' && (err.constraint === 'forum_topics_name' || String(err.message ?? '').includes('forum_topics_name'));
};
const nameTaken = (name: string) => forumFieldError('name', 'forumAdmin.errors.topicExists', { name });

/** Every topic of the community, in order (archived ones too when asked), with its count of published posts. */
export async function listTopicsForStaff(deps: ForumDeps, viewer: ForumViewer, { includeArchived = true }: { includeArchived?: boolean } = {}): Promise<TopicView[]> {
  ensureForumOn(deps.community);
  ensureStaff(viewer);
  let q = selectInCommunityAs(deps.db, 'forum_topics', 't', deps.community)
    .select((eb) => [
      't.id',
      't.name',
      't.position',
      't.archived_at',
      eb
        .selectFrom('forum_post_topics as pt')
        .innerJoin('forum_posts as p', 'p.id', 'pt.post_id')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('pt.topic_id', '=', 't.id')
        .where('pt.community_id', '=', deps.community.id)
        .where('p.status', '=', 'published')
        .where('p.deleted_at', 'is', null)
        .as('post_count'),
    ])
    .orderBy('t.position')
    .orderBy('t.name')
    .orderBy('t.id');
  if (!includeArchived) q = q.where('t.archived_at', 'is', null);
  const rows = await q.execute();
  return rows.map((r) => ({ id: r.id, name: r.name, position: r.position, archived: r.archived_at != null, postCount: Number(r.post_count ?? 0) }));
}

async function topicView(db: Db, community: Tenant, id: number): Promise<TopicView> {
  const r = await selectInCommunity(db, 'forum_topics', community).select(['id', 'name', 'position', 'archived_at']).where('id', '=', id).executeTakeFirst();
  if (!r) throw new AppError('Forum.TopicNotFound');
  return { id: r.id, name: r.name, position: r.position, archived: r.archived_at != null };
}

/**
 * A staff write under a topic name (forum on, staff only, the name checked first): `write` gets the
 * clean name and the time; a name another topic of the community holds is the field error `name`.
 */
async function withTopicName<T>(deps: ForumDeps, viewer: ForumViewer, name: unknown, write: (clean: string, now: Date) => Promise<T>): Promise<T> {
  ensureForumOn(deps.community);
  ensureStaff(viewer);
  const clean = checkTopicName(name);
  const now = deps.clock.now();
  try {
    return await write(clean, now);
  } catch (e) {
    if (isNameTaken(e)) throw nameTaken(clean);
    throw e;
  }
}

export async function createTopic(deps: ForumDeps, viewer: ForumViewer, name: unknown): Promise<TopicView> {
  const c = deps.community;
  const id = await withTopicName(deps, viewer, name, (clean, now) =>
    forumTransaction(deps.db, async (trx) => {
      const last = await selectInCommunity(trx, 'forum_topics', c).select(sql<number>`coalesce(max(position) + 1, 0)`.as('p')).executeTakeFirstOrThrow();
      const row = await insertInCommunity(trx, 'forum_topics', c, { name: clean, position: Number(last.p), created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await logAction(trx, c, { actorId: viewer.userId, action: 'topic_create', targetKind: 'topic', targetId: row.id, note: clean, at: now });
      return row.id;
    }),
  );
  return topicView(deps.db, c, id);
}

export async function renameTopic(deps: ForumDeps, viewer: ForumViewer, id: number, name: unknown): Promise<TopicView> {
  const c = deps.community;
  await withTopicName(deps, viewer, name, (clean, now) =>
    forumTransaction(deps.db, async (trx) => {
      const before = await selectInCommunity(trx, 'forum_topics', c).select('name').where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('Forum.TopicNotFound');
      if (before.name === clean) return;
      await updateInCommunity(trx, 'forum_topics', c).set({ name: clean }).where('id', '=', id).execute();
      await logAction(trx, c, { actorId: viewer.userId, action: 'topic_rename', targetKind: 'topic', targetId: id, note: `${before.name} → ${clean}`, at: now });
    }),
  );
  return topicView(deps.db, c, id);
}

/** Moves a topic one place up or down the order (at either end: nothing moves); the positions are renumbered 0..n-1. */
export async function moveTopic(deps: ForumDeps, viewer: ForumViewer, id: number, direction: unknown): Promise<TopicView> {
  ensureForumOn(deps.community);
  ensureStaff(viewer);
  if (direction !== 'up' && direction !== 'down') throw forumFieldError('direction', 'forumAdmin.errors.direction');
  const c = deps.community;
  const now = deps.clock.now();
  await forumTransaction(deps.db, async (trx) => {
    const topics = await selectInCommunity(trx, 'forum_topics', c)
      .select(['id', 'position'])
      .orderBy('position')
      .orderBy('name')
      .orderBy('id')
      .forUpdate()
      .execute();
    const at = topics.findIndex((t) => t.id === id);
    if (at < 0) throw new AppError('Forum.TopicNotFound');
    const to = direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= topics.length) return;
    const order = topics.map((t) => t.id);
    [order[at], order[to]] = [order[to]!, order[at]!];
    for (const [position, topicId] of order.entries()) {
      if (topics.find((t) => t.id === topicId)!.position !== position) {
        await updateInCommunity(trx, 'forum_topics', c).set({ position }).where('id', '=', topicId).execute();
      }
    }
    await logAction(trx, c, { actorId: viewer.userId, action: 'topic_move', targetKind: 'topic', targetId: id, note: direction, at: now });
  });
  return topicView(deps.db, c, id);
}

/** Archives a topic (its posts stay; no new post may choose it) or brings it back. */
export async function setTopicArchived(deps: ForumDeps, viewer: ForumViewer, id: number, archived: boolean): Promise<TopicView> {
  ensureForumOn(deps.community);
  ensureStaff(viewer);
  const c = deps.community;
  const now = deps.clock.now();
  await forumTransaction(deps.db, async (trx) => {
    await topicView(trx, c, id);
    const changed = await updateInCommunity(trx, 'forum_topics', c)
      .set({ archived_at: archived ? now : null })
      .where('id', '=', id)
      .where('archived_at', archived ? 'is' : 'is not', null)
      .returning('id')
      .executeTakeFirst();
    if (changed) await logAction(trx, c, { actorId: viewer.userId, action: archived ? 'topic_archive' : 'topic_unarchive', targetKind: 'topic', targetId: id, at: now });
  });
  return topicView(deps.db, c, id);
}
