import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { FeedSubject } from '#src/db/types.ts';
import type { FeedLogLine } from './types.ts';

/**
 * The feeds' log: every change of an announcement or a featured item, with who and when, kept when
 * the thing is deleted (its title is copied into the line). The staff's pages show the latest lines
 * of the whole area, and each announcement's own.
 */

export const LOG_LINES = 20;

export type LogEntry = { subject: FeedSubject; subjectId: number; title: string; action: string; actorId: number | null; at: Date };

export async function logFeedChange(trx: Db, community: Tenant, e: LogEntry): Promise<void> {
  await insertInCommunity(trx, 'feed_events', community, { subject: e.subject, subject_id: e.subjectId, title: e.title, action: e.action, actor_id: e.actorId, created_at: e.at }).execute();
}

/** The latest lines, newest first: the area's (`of` a kind of thing), or one thing's. */
export async function readFeedLog(db: Db, community: Tenant, of: { subject: FeedSubject; subjectId?: number }, limit = LOG_LINES): Promise<FeedLogLine[]> {
  let q = selectInCommunityAs(db, 'feed_events', 'e', community)
    .leftJoin('users as u', 'u.id', 'e.actor_id')
    .select(['e.id', 'e.created_at', 'e.subject', 'e.subject_id', 'e.title', 'e.action', 'u.first_name', 'u.last_name'])
    .where('e.subject', '=', of.subject);
  if (of.subjectId !== undefined) q = q.where('e.subject_id', '=', of.subjectId);
  const rows = await q.orderBy('e.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    at: r.created_at,
    actorName: r.first_name ? `${r.first_name} ${r.last_name}`.trim() : null,
    subject: r.subject,
    subjectId: r.subject_id,
    title: r.title,
    action: r.action,
  }));
}
