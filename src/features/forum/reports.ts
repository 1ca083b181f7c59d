import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { ForumTargetKind } from '#src/db/types.ts';
import { logAction } from './actions-log.ts';
import { ensureForumOn, forumTransaction, type ForumDeps, type ForumViewer } from './deps.ts';
import { REPORTS_TO_QUEUE, REPORT_DESCRIPTION_MAX, isReportReason } from './rules.ts';
import { excerptOf } from './queries.ts';
import { cursorId, ensureModerator, forumFieldError, loadPublicTarget, loadTarget, snapshotsOf, tableOf } from './targets.ts';
import { lockPost, lockReplyRow, moveStatus } from './visibility.ts';
import { removeContent } from './moderation.ts';
import type { ReportReason, ReportView } from './types.ts';

/**
 * Reports (issue 14): a member reports someone else's post or reply once, with a reason and an
 * optional description; the member then sees 'Reported By You' on it. When REPORTS_TO_QUEUE different
 * members have open reports on a published item, it goes back to the moderation queue ('pending').
 * Moderators and staff read the open reports and resolve them.
 *
 * A post's or reply's `report_count` is its number of OPEN reports: resolving them (an approval, a
 * dismissal, a removal) takes them off, so an item a moderator approved is not queued again by the
 * reports it was already judged on.
 */

export const REPORTS_PAGE_SIZE = 50;

function checkReport(input: { reason: unknown; description: unknown }): { reason: ReportReason; description: string } {
  if (!isReportReason(input.reason)) throw forumFieldError('reason', 'forum.errors.reasonRequired');
  const raw = input.description;
  if (raw != null && typeof raw !== 'string') throw forumFieldError('description', 'forum.errors.descriptionTooLong', { max: REPORT_DESCRIPTION_MAX });
  ensureText({ description: raw }, ['description']);
  const description = (raw ?? '').trim();
  if (description.length > REPORT_DESCRIPTION_MAX) throw forumFieldError('description', 'forum.errors.descriptionTooLong', { max: REPORT_DESCRIPTION_MAX });
  return { reason: input.reason, description };
}

/**
 * Reports a post or reply. A second report by the same member (a double submit, or a report after
 * the first was resolved) is 'Forum.AlreadyReported' (the unique index lets one in, and nothing
 * changes); one's own content is refused.
 */
export async function reportContent(deps: ForumDeps, viewer: ForumViewer, kind: ForumTargetKind, id: number, input: { reason: unknown; description: unknown }): Promise<void> {
  ensureForumOn(deps.community);
  const c = deps.community;
  const { reason, description } = checkReport(input);
  const target = await loadPublicTarget(deps.db, c, kind, id);
  if (target.authorId === viewer.userId) throw forumFieldError('reason', 'forum.errors.ownContent');
  const now = deps.clock.now();
  await forumTransaction(deps.db, async (trx) => {
    if (kind === 'reply') await lockPost(trx, c, target.postId);
    const inserted = await insertInCommunity(trx, 'forum_reports', c, { target_kind: kind, target_id: id, post_id: target.postId, reporter_id: viewer.userId, reason, description, created_at: now })
      .onConflict((oc) => oc.columns(['target_kind', 'target_id', 'reporter_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new AppError('Forum.AlreadyReported');
    // The row lock of this update orders concurrent reports: the last of them sees every count.
    const row = await updateInCommunity(trx, tableOf(kind), c)
      .set((eb) => ({ report_count: eb('report_count', '+', 1) }))
      .where('id', '=', id)
      .returning(['report_count', 'status'])
      .executeTakeFirstOrThrow();
    if (row.status !== 'published' || row.report_count < REPORTS_TO_QUEUE) return;
    const queued = await moveStatus(trx, c, kind, id, { from: ['published'], to: 'pending' });
    if (queued) await logAction(trx, c, { actorId: null, action: 'queue_reported', targetKind: kind, targetId: id, note: null, at: now });
  });
}

function reportsQuery(db: Db, community: Tenant) {
  return selectInCommunityAs(db, 'forum_reports', 'fr', community)
    .innerJoin('forum_posts as p', 'p.id', 'fr.post_id')
    .leftJoin('forum_replies as r', (j) => j.onRef('r.id', '=', 'fr.target_id').on('fr.target_kind', '=', 'reply'))
    .select([
      'fr.id',
      'fr.target_kind',
      'fr.target_id',
      'fr.post_id',
      'fr.reporter_id',
      'fr.reason',
      'fr.description',
      'fr.created_at',
      'fr.resolved_at',
      'fr.resolution',
      'p.title',
      'p.author_id as post_author_id',
      'p.body_text as post_text',
      'r.author_id as reply_author_id',
      'r.body_text as reply_text',
    ])
    // What its author deleted is no one's to judge any more (and its text is not shown).
    .where('p.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('fr.target_kind', '=', 'post'), eb('r.deleted_at', 'is', null)]));
}

/** Open reports, oldest first, keyset on id; moderators and staff only. */
export async function openReports(deps: ForumDeps, viewer: ForumViewer, { after, first }: { after?: unknown; first?: number } = {}): Promise<{ reports: ReportView[]; next: string | null }> {
  ensureForumOn(deps.community);
  await ensureModerator(deps, viewer);
  const from = cursorId(after);
  const size = Math.min(Math.max(Math.trunc(first ?? REPORTS_PAGE_SIZE) || REPORTS_PAGE_SIZE, 1), 100);
  let q = reportsQuery(deps.db, deps.community).where('fr.resolved_at', 'is', null).orderBy('fr.id', 'asc').limit(size + 1);
  if (from != null) q = q.where('fr.id', '>', from);
  const rows = await q.execute();
  const page = rows.slice(0, size);
  const authorOf = (r: (typeof rows)[number]) => (r.target_kind === 'reply' ? (r.reply_author_id ?? r.post_author_id) : r.post_author_id);
  const member = await snapshotsOf(deps.db, deps.community, page.flatMap((r) => [authorOf(r), r.reporter_id]));
  return {
    reports: page.map((r) => ({
      id: r.id,
      targetKind: r.target_kind,
      targetId: r.target_id,
      postId: r.post_id,
      postTitle: r.title,
      excerpt: excerptOf(r.target_kind === 'reply' ? (r.reply_text ?? '') : r.post_text),
      author: member(authorOf(r)),
      reporter: member(r.reporter_id),
      reason: (isReportReason(r.reason) ? r.reason : 'other') as ReportReason,
      description: r.description,
      createdAt: new Date(r.created_at),
      resolvedAt: r.resolved_at ? new Date(r.resolved_at) : null,
      resolution: r.resolution,
    })),
    next: rows.length > size ? String(page[page.length - 1]!.id) : null,
  };
}

/**
 * Resolves one report: 'dismissed' (nothing wrong; the report leaves the list) or 'removed' (the
 * reported item is removed, its author told why, and every open report on it resolved).
 * Moderators and staff only; a report already resolved is 'Forum.AlreadyModerated'.
 */
export async function resolveReport(deps: ForumDeps, viewer: ForumViewer, reportId: number, resolution: unknown): Promise<void> {
  ensureForumOn(deps.community);
  await ensureModerator(deps, viewer);
  if (resolution !== 'dismissed' && resolution !== 'removed') throw forumFieldError('resolution', 'forumAdmin.errors.resolution');
  const c = deps.community;
  const report = await selectInCommunity(deps.db, 'forum_reports', c)
    .select(['id', 'target_kind', 'target_id', 'post_id', 'reason', 'resolved_at'])
    .where('id', '=', reportId)
    .executeTakeFirst();
  if (!report) throw new AppError('NotFound');
  if (report.resolved_at) throw new AppError('Forum.AlreadyModerated');
  const now = deps.clock.now();
  if (resolution === 'removed') {
    const target = await loadTarget(deps.db, c, report.target_kind, report.target_id);
    const reasonLabel = deps.t(`forum.reportReasons.${isReportReason(report.reason) ? report.reason : 'other'}`);
    // Still shown or waiting: remove it. Already gone (removed, rejected, deleted by its author): only the report is settled.
    if ((target.status === 'published' || target.status === 'pending') && !target.deleted && !target.postDeleted) {
      await removeContent(deps, viewer, report.target_kind, report.target_id, deps.t('forumAdmin.removedForReport', { reason: reasonLabel }));
      return;
    }
  }
  await forumTransaction(deps.db, async (trx) => {
    // The order every forum write keeps (post row, reply row, then reports), so that a dismissal and
    // a removal of the same item at once cannot deadlock.
    await lockPost(trx, c, report.post_id);
    if (report.target_kind === 'reply') await lockReplyRow(trx, c, report.target_id);
    const done = await updateInCommunity(trx, 'forum_reports', c)
      .set({ resolved_at: now, resolved_by: viewer.userId, resolution })
      .where('id', '=', reportId)
      .where('resolved_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!done) throw new AppError('Forum.AlreadyModerated');
    await updateInCommunity(trx, tableOf(report.target_kind), c)
      .set((eb) => ({ report_count: eb.fn('greatest', [eb('report_count', '-', 1), eb.lit(0)]) }))
      .where('id', '=', report.target_id)
      .execute();
    await logAction(trx, c, { actorId: viewer.userId, action: resolution === 'dismissed' ? 'report_dismissed' : 'report_removed', targetKind: 'report', targetId: reportId, note: null, at: now });
  });
}
