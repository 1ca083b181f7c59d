import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { InviteQuestionView } from './types.ts';

/**
 * The questions of an invitation link that are still open for its member: their answer row is 'open'
 * (sent, not yet acted on), the question is not closed, its batch was sent; and the member is an
 * active member of the community. One statement, scoped to the community on every table.
 */
export async function openInvitationQuestions(db: Db, community: Tenant, userId: number, questionIds: readonly number[]): Promise<InviteQuestionView[]> {
  if (questionIds.length === 0) return [];
  const rows = await selectInCommunityAs(db, 'ep_answers', 'a', community)
    .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'a.question_id').onRef('q.community_id', '=', 'a.community_id'))
    .innerJoin('ep_batches as b', (j) => j.onRef('b.id', '=', 'q.batch_id').onRef('b.community_id', '=', 'q.community_id'))
    .innerJoin('ep_panels as p', (j) => j.onRef('p.id', '=', 'q.panel_id').onRef('p.community_id', '=', 'q.community_id'))
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'a.user_id').onRef('m.community_id', '=', 'a.community_id'))
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['q.id', 'q.title', 'q.brief_html', 'q.guidelines_html', 'p.name as panel_name', 'p.min_words', 'p.max_words', 'b.deadline_at'])
    .where('a.user_id', '=', userId)
    .where('a.question_id', 'in', [...questionIds])
    .where('a.status', '=', 'open')
    .where('q.closed_at', 'is', null)
    .where('b.status', '=', 'sent')
    .where('m.is_active', '=', true)
    .where('u.is_active', '=', true)
    .orderBy('b.deadline_at')
    .orderBy('q.position')
    .orderBy('q.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    panelName: r.panel_name,
    deadline: new Date(r.deadline_at),
    briefHtml: r.brief_html,
    guidelinesHtml: r.guidelines_html,
    minWords: r.min_words,
    maxWords: r.max_words,
  }));
}

/**
 * Whether the link alone (signed out) may act on this question: its answer row is still 'open' (not
 * submitted, marked or decided) and its member an active member. A closed question passes here, so
 * that the answer service refuses it with its own message ('ExpertPanels.Closed').
 */
export async function linkMayAnswer(db: Db, community: Tenant, userId: number, questionId: number): Promise<boolean> {
  const row = await selectInCommunityAs(db, 'ep_answers', 'a', community)
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'a.user_id').onRef('m.community_id', '=', 'a.community_id'))
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select('a.id')
    .where('a.user_id', '=', userId)
    .where('a.question_id', '=', questionId)
    .where('a.status', '=', 'open')
    .where('m.is_active', '=', true)
    .where('u.is_active', '=', true)
    .executeTakeFirst();
  return row !== undefined;
}

/** The open questions of a link, or ExpertPanels.InviteNoneUnanswered (spec: no unanswered questions found). */
export async function ensureOpenQuestions(db: Db, community: Tenant, userId: number, questionIds: readonly number[]): Promise<InviteQuestionView[]> {
  const questions = await openInvitationQuestions(db, community, userId, questionIds);
  if (questions.length === 0) throw new AppError('ExpertPanels.InviteNoneUnanswered');
  return questions;
}
