import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import { epTransaction, type EpDeps } from './deps.ts';
import { INVITE_JOB, type InviteJob } from './invite/invitations.ts';
import { getQuestion } from './questions.ts';
import type { JoinablePanel, MemberQuestionView } from './types.ts';
import { parseId } from '#src/core/ids.ts';

/**
 * A member joins expert panels by themselves (issue 15, onboarding's ep-landing step; decision 0036),
 * and finds the question waiting for them (ep-question). Joining is what an editor's "add member"
 * does (a row in ep_panel_members, nothing if already there), plus: a panel whose batch is already
 * sent and still open gives the new member an 'open' answer row for each of its questions that still
 * takes answers (not closed, deadline ahead), as if they had been on the panel when it was sent; the
 * batch's invitation job (enqueued in the same transaction) tells them of those questions, with their
 * signed link, as it told the panel. The panels are locked FOR SHARE, and sending a batch locks its
 * panel FOR UPDATE, so a join and a send never miss each other: whichever commits second sees the
 * other (a member joining as the batch goes out gets its questions either way).
 * Every query is scoped to the deps' community; only active (not archived) panels can be joined.
 */

/** How many panels a member may pick at once (far more than any community has). */
export const JOIN_PANELS_MAX = 50;


function invalidPanels(key = 'onboarding.epLanding.unknownPanel'): AppError {
  return new AppError('ExpertPanels.Invalid', { fields: { panelIds: { code: 'ExpertPanels.Invalid', key } } });
}

/** The ids a form or a JSON client sends: one id or a list of them, each a positive integer; else 400 on `panelIds`. */
export function panelIdsOf(value: unknown): number[] {
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > JOIN_PANELS_MAX) throw invalidPanels();
  const ids = new Set<number>();
  for (const v of list) {
    const id = parseId(v);
    if (id === null) throw invalidPanels();
    ids.add(id);
  }
  return [...ids];
}

/** The community's active panels, by name, each with whether this member is on it. */
export async function listJoinablePanels(deps: Pick<EpDeps, 'db' | 'community'>, userId: number): Promise<JoinablePanel[]> {
  const rows = await selectInCommunityAs(deps.db, 'ep_panels', 'p', deps.community)
    .leftJoin('ep_panel_members as pm', (j) => j.onRef('pm.panel_id', '=', 'p.id').on('pm.community_id', '=', deps.community.id).on('pm.user_id', '=', userId))
    .select(['p.id', 'p.name', 'p.topic', 'pm.user_id as member'])
    .where('p.archived_at', 'is', null)
    .orderBy(sql`lower(p.name)`)
    .orderBy('p.id')
    .limit(JOIN_PANELS_MAX)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, topic: r.topic, joined: r.member !== null }));
}

/**
 * The member joins these panels (ids as sent: see panelIdsOf). Every id must be an active panel of
 * this community, else nothing is written and the answer is 'ExpertPanels.Invalid' on `panelIds`
 * (another community's panel, an archived or a missing one alike). One transaction: the memberships
 * (idempotent), then the open answer rows of the panels' sent batches still open. Answers the panels
 * joined and how many answer rows were made now.
 */
export async function joinPanels(deps: Pick<EpDeps, 'db' | 'clock' | 'community' | 'jobs'>, userId: number, panelIds: unknown): Promise<{ panelIds: number[]; answers: number }> {
  const ids = panelIdsOf(panelIds);
  if (ids.length === 0) return { panelIds: [], answers: 0 };
  const c = deps.community;
  const now = deps.clock.now();
  return epTransaction(deps.db, async (trx) => {
    const found = await selectInCommunity(trx, 'ep_panels', c).select('id').where('archived_at', 'is', null).where('id', 'in', ids).forShare().execute();
    if (found.length !== ids.length) throw invalidPanels();
    // Only an active member of the community joins (the onboarding's member is one; this keeps the rule in one place).
    const active = await selectInCommunity(trx, 'memberships', c)
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select('users.id')
      .where('memberships.user_id', '=', userId)
      .where('memberships.is_active', '=', true)
      .where('users.is_active', '=', true)
      .executeTakeFirst();
    if (!active) throw new AppError('Forbidden');
    await insertInCommunity(trx, 'ep_panel_members', c, ids.map((panelId) => ({ panel_id: panelId, user_id: userId, added_by: userId, added_at: now })))
      .onConflict((oc) => oc.columns(['panel_id', 'user_id']).doNothing())
      .execute();
    // An open answer for each question of these panels' sent batches that still takes answers.
    const open = await selectInCommunityAs(trx, 'ep_questions', 'q', c)
      .innerJoin('ep_batches as b', (j) => j.onRef('b.id', '=', 'q.batch_id').onRef('b.community_id', '=', 'q.community_id'))
      .select('q.id')
      .where('q.panel_id', 'in', ids)
      .where('q.closed_at', 'is', null)
      .where('b.status', '=', 'sent')
      .where('b.deadline_at', '>', now)
      .execute();
    const made = open.length
      ? await insertInCommunity(
          trx,
          'ep_answers',
          c,
          open.map((q) => ({ question_id: q.id, user_id: userId, status: 'open' as const, sent_at: now, status_at: now })),
        )
          .onConflict((oc) => oc.columns(['question_id', 'user_id']).doNothing())
          .returning('question_id')
          .execute()
      : [];
    if (made.length > 0) {
      const batches = await selectInCommunity(trx, 'ep_questions', c)
        .select('batch_id')
        .distinct()
        .where('id', 'in', made.map((r) => r.question_id))
        .orderBy('batch_id')
        .execute();
      for (const b of batches) {
        const job: InviteJob = { communityId: c.id, batchId: b.batch_id };
        await deps.jobs.enqueue(trx, INVITE_JOB, job);
      }
    }
    return { panelIds: ids, answers: made.length };
  });
}

/** The member's open questions: sent to them, not answered nor marked, not closed, deadline ahead. */
function openQuestions(db: Db, community: Tenant, userId: number, now: Date) {
  return selectInCommunityAs(db, 'ep_answers', 'a', community)
    .innerJoin('ep_questions as q', (j) => j.onRef('q.id', '=', 'a.question_id').onRef('q.community_id', '=', 'a.community_id'))
    .innerJoin('ep_batches as b', (j) => j.onRef('b.id', '=', 'q.batch_id').onRef('b.community_id', '=', 'q.community_id'))
    .where('a.user_id', '=', userId)
    .where('a.status', '=', 'open')
    .where('q.closed_at', 'is', null)
    .where('b.status', '=', 'sent')
    .where('b.deadline_at', '>', now);
}

/** What onboarding needs to know to place its two steps, in one statement: active panels here, and the member's first open question. */
export async function onboardingPanelState(db: Db, community: Tenant, userId: number, now: Date): Promise<{ activePanels: number; firstOpenQuestion: number | null }> {
  const first = openQuestions(db, community, userId, now).select('q.id').orderBy('b.deadline_at').orderBy('q.position').orderBy('q.id').limit(1);
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('ep_panels').select(eb.fn.countAll<string>().as('n')).where('community_id', '=', community.id).where('archived_at', 'is', null).as('panels'),
      first.as('question'),
    ])
    .executeTakeFirst();
  return { activePanels: Number(row?.panels ?? 0), firstOpenQuestion: row?.question ?? null };
}

/** The member's first open question (soonest deadline), as its page shows it; null when none. */
export async function firstOpenQuestion(deps: EpDeps, userId: number): Promise<MemberQuestionView | null> {
  const row = await openQuestions(deps.db, deps.community, userId, deps.clock.now()).select('q.id').orderBy('b.deadline_at').orderBy('q.position').orderBy('q.id').limit(1).executeTakeFirst();
  if (!row) return null;
  return getQuestion(deps, { userId, isStaff: false }, row.id);
}
