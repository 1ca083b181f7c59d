import type { FastifyRequest } from 'fastify';
import type { Clock } from '#src/core/clock.ts';
import { AppError } from '#src/core/errors.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import { retriedTransaction } from '#src/lib/transactions.ts';
import type { Community } from '#src/db/types.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import type { Notifier } from '#src/features/notifications/index.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import { requestDeps, signedInViewer, type Viewer } from '#src/lib/request-deps.ts';

/**
 * What every forum service gets: the database,
 * the clock, the request's community, translations (notification messages), the notifier (followers,
 * mentions, moderation outcomes), where links point, and the job queue (a reply's notices).
 */
export type ForumDeps = { db: Db; clock: Clock; community: Community; t: Translate; notifier: Notifier; publicUrl: string; jobs: JobQueue };

/** The signed-in member acting. Whether they moderate is read from their membership each time (`isModerator`). */
export type ForumViewer = Viewer;

export function forumDeps(request: FastifyRequest): ForumDeps {
  return { ...requestDeps(request), jobs: request.server.jobs };
}

/** The signed-in member (else NotAuthenticated); staff are the community's admins. */
export const forumViewer = signedInViewer;

/** Where the community has no forum, the forum does not exist: 404 on pages, GraphQL and REST. */
export function ensureForumOn(community: Pick<Community, 'forum_enabled'>): void {
  if (!community.forum_enabled) throw new AppError('NotFound');
}

/** Staff, or an active member whose membership carries the moderator flag (read from the database). */
export async function isModerator(deps: Pick<ForumDeps, 'db' | 'community'>, viewer: ForumViewer): Promise<boolean> {
  if (viewer.isStaff) return true;
  const row = await selectInCommunity(deps.db, 'memberships', deps.community)
    .select('is_moderator')
    .where('user_id', '=', viewer.userId)
    .where('is_active', '=', true)
    .executeTakeFirst();
  return row?.is_moderator === true;
}

/** A forum write's transaction: tried again when it loses to another write, then 'Forum.Busy' (409). */
export function forumTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return retriedTransaction(db, () => new AppError('Forum.Busy'), fn);
}
