import { selectInCommunity } from '#src/db/tenancy.ts';
import { ensureForumOn, type ForumDeps } from './deps.ts';
import { toTopicView } from './queries.ts';
import type { TopicView } from './types.ts';

/** The community's forum topics, ordered by position then name; archived ones only when asked (staff pages). */
export async function listTopics(deps: Pick<ForumDeps, 'db' | 'community'>, opts: { includeArchived?: boolean } = {}): Promise<TopicView[]> {
  ensureForumOn(deps.community);
  let q = selectInCommunity(deps.db, 'forum_topics', deps.community).select(['id', 'name', 'position', 'archived_at']);
  if (!opts.includeArchived) q = q.where('archived_at', 'is', null);
  const rows = await q.orderBy('position').orderBy('name').orderBy('id').execute();
  return rows.map(toTopicView);
}
