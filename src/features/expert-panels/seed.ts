import type { Insertable } from 'kysely';
import { formatDate } from '#shared/format.ts';
import { createTranslator } from '#src/core/i18n.ts';
import type { RawDb } from '#src/db/index.ts';
import type { Database, RoundupStatus } from '#src/db/types.ts';
import { countWords, plainText } from '#src/lib/plain-text.ts';
import { roundupPath } from './queries.ts';
import { CLOSED_BATCH, CLOSED_QUESTIONS, GROWTH, LEADERSHIP, OPEN_BATCH, OPEN_QUESTIONS, ROUNDUP, type SeedPanel, type SeedQuestion } from './seed-content.ts';

/**
 * Summit's demo expert panels (issue 15, "Demo data"): two panels with several members each (Amara
 * Okafor, the demo member, in both); an older batch, closed, whose answers are in every state and
 * whose first question has a published roundup (three accepted answers in order, its moves logged by
 * the admin); and an open batch due in ten days with three questions Amara can answer now (one
 * already submitted, in review). Written as the services would have written it, in a few inserts per
 * table; the same words every time, the dates relative to now. The notifications those services
 * would have sent come with it: each member of the open batch's panel told of its questions (unread),
 * each decided answer's member told of the decision, each contributor of the roundup told it is
 * published (read), in the locale files' words. In the app the invitation points to the member's
 * questions; the signed invitation link is for email, and history is not emailed.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Row<T extends keyof Database> = Insertable<Database[T]>;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paragraphs = (ps: string[]) => ps.map((p) => `<p>${escapeHtml(p)}</p>`).join('');

export async function seedExpertPanels(trx: RawDb, ctx: { byCode: Record<string, number>; adminId: number; now?: Date }): Promise<void> {
  const summit = ctx.byCode.summit;
  if (summit === undefined) return;
  const now = (ctx.now ?? new Date()).getTime();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY);

  const rows = await trx
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.username'])
    .where('memberships.community_id', '=', summit)
    .execute();
  const byName = new Map(rows.map((r) => [r.username ?? '', r.id]));
  const user = (username: string) => {
    const id = byName.get(username);
    if (id === undefined) throw new Error(`The expert-panels seed needs the demo member ${username}`);
    return id;
  };

  const panelDefs: SeedPanel[] = [GROWTH, LEADERSHIP];
  const panels = await trx
    .insertInto('ep_panels')
    .values(panelDefs.map((p) => ({ community_id: summit, name: p.name, topic: p.topic, min_words: p.minWords, max_words: p.maxWords, created_by: ctx.adminId, created_at: at(120) })))
    .returning(['id', 'name'])
    .execute();
  const panelId = (p: SeedPanel) => panels.find((x) => x.name === p.name)!.id;
  await trx
    .insertInto('ep_panel_members')
    .values(panelDefs.flatMap((p) => p.members.map((m) => ({ panel_id: panelId(p), user_id: user(m), community_id: summit, added_by: ctx.adminId, added_at: at(118) }))))
    .execute();

  // The older batch: sent 44 days ago, due 30 days ago, its questions closed the day after.
  const closedSent = at(44);
  const closedDeadline = at(30);
  const openSent = at(2);
  const openDeadline = new Date(now + 10 * DAY);
  const batches = await trx
    .insertInto('ep_batches')
    .values([
      { community_id: summit, panel_id: panelId(CLOSED_BATCH.panel), title: CLOSED_BATCH.title, deadline_at: closedDeadline, status: 'sent', sent_at: closedSent, created_by: ctx.adminId, created_at: at(47) },
      { community_id: summit, panel_id: panelId(OPEN_BATCH.panel), title: OPEN_BATCH.title, deadline_at: openDeadline, status: 'sent', sent_at: openSent, created_by: ctx.adminId, created_at: at(4) },
    ])
    .returning(['id', 'title'])
    .execute();
  const batchId = (title: string) => batches.find((b) => b.title === title)!.id;

  type Planned = { question: SeedQuestion; panel: SeedPanel; batch: string; position: number; closed: boolean; sent: Date };
  const planned: Planned[] = [
    ...CLOSED_QUESTIONS.map((question, position) => ({ question, panel: CLOSED_BATCH.panel, batch: CLOSED_BATCH.title, position, closed: true, sent: closedSent })),
    ...OPEN_QUESTIONS.map((question, position) => ({ question, panel: OPEN_BATCH.panel, batch: OPEN_BATCH.title, position, closed: false, sent: openSent })),
  ];
  const guidelines = (p: SeedPanel) => paragraphs(p.guidelines);
  const questions = await trx
    .insertInto('ep_questions')
    .values(
      planned.map((x) => ({
        community_id: summit,
        batch_id: batchId(x.batch),
        panel_id: panelId(x.panel),
        title: x.question.title,
        brief_html: paragraphs(x.question.brief),
        guidelines_html: guidelines(x.panel),
        position: x.position,
        closed_at: x.closed ? new Date(closedDeadline.getTime() + DAY) : null,
        closed_by: x.closed ? ctx.adminId : null,
        created_at: new Date(x.sent.getTime() - 2 * DAY),
      })),
    )
    .returning(['id', 'title'])
    .execute();
  const questionId = (title: string) => questions.find((q) => q.title === title)!.id;

  // One answer row per question and panel member (as sending a batch does); the seeded states on top.
  const answerRows: Row<'ep_answers'>[] = [];
  planned.forEach((x, qi) => {
    x.panel.members.forEach((m, mi) => {
      const seeded = x.question.answers.find((a) => a.member === m);
      const status = seeded?.status ?? 'open';
      const html = seeded?.text ? paragraphs(seeded.edited ?? seeded.text) : '';
      // Members answered over the batch's first days, in a fixed order.
      const submitted = seeded?.text ? new Date(x.sent.getTime() + (1 + ((qi + mi) % 5)) * 7 * HOUR) : null;
      const decided = status === 'accepted' || status === 'declined' ? new Date(closedDeadline.getTime() + 2 * DAY + mi * HOUR) : null;
      const reviewStarted = decided ?? (seeded?.reviewing && submitted ? new Date(submitted.getTime() + 20 * HOUR) : null);
      answerRows.push({
        community_id: summit,
        question_id: questionId(x.question.title),
        user_id: user(m),
        status,
        body_html: html,
        body_text: plainText(html).replace(/\s+/g, ' ').trim(),
        word_count: countWords(html),
        submitted_at: submitted,
        edited_at: seeded?.edited && decided ? new Date(decided.getTime() - HOUR) : null,
        review_started_at: reviewStarted,
        reviewer_id: reviewStarted ? ctx.adminId : null,
        decision_note: seeded?.note ?? null,
        decided_at: decided,
        sent_at: x.sent,
        status_at: decided ?? submitted ?? (status === 'open' ? x.sent : new Date(x.sent.getTime() + (mi + 1) * 5 * HOUR)),
      });
    });
  });
  const answers = await trx.insertInto('ep_answers').values(answerRows).returning(['id', 'question_id', 'user_id']).execute();
  const answerId = (title: string, member: string) => answers.find((a) => a.question_id === questionId(title) && a.user_id === user(member))!.id;

  // Revisions: the member's own text; then, where an editor changed it, the editor's.
  const revisions: Row<'ep_answer_revisions'>[] = [];
  planned.forEach((x) => {
    for (const a of x.question.answers) {
      if (!a.text) continue;
      const id = answerId(x.question.title, a.member);
      const row = answerRows.find((r) => r.question_id === questionId(x.question.title) && r.user_id === user(a.member))!;
      const own = paragraphs(a.text);
      revisions.push({ community_id: summit, answer_id: id, editor_id: null, body_html: own, word_count: countWords(own), created_at: row.submitted_at as Date });
      if (a.edited) {
        const html = paragraphs(a.edited);
        revisions.push({ community_id: summit, answer_id: id, editor_id: ctx.adminId, body_html: html, word_count: countWords(html), created_at: row.edited_at as Date });
      }
    }
  });
  if (revisions.length) await trx.insertInto('ep_answer_revisions').values(revisions).execute();

  // The published roundup of the closed batch's first question: DRAFT → EDITOR_REVIEW → READY_FOR_PUBLISHING → FINAL.
  const first = CLOSED_QUESTIONS[0]!;
  const published = at(20);
  const roundup = await trx
    .insertInto('ep_roundups')
    .values({
      community_id: summit,
      question_id: questionId(first.title),
      title: ROUNDUP.title,
      intro_html: paragraphs(ROUNDUP.intro),
      status: 'FINAL',
      slug: ROUNDUP.slug,
      published_at: published,
      created_by: ctx.adminId,
      created_at: at(27),
      updated_at: published,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('ep_roundup_answers')
    .values(
      first.answers
        .filter((a) => a.roundup !== undefined)
        .map((a) => ({ roundup_id: roundup.id, answer_id: answerId(first.title, a.member), community_id: summit, position: a.roundup! })),
    )
    .execute();
  const moves: Array<[RoundupStatus, RoundupStatus, number]> = [
    ['DRAFT', 'EDITOR_REVIEW', 26],
    ['EDITOR_REVIEW', 'READY_FOR_PUBLISHING', 23],
    ['READY_FOR_PUBLISHING', 'FINAL', 20],
  ];
  await trx
    .insertInto('ep_roundup_moves')
    .values(moves.map(([from, to, daysAgo]) => ({ community_id: summit, roundup_id: roundup.id, from_status: from, to_status: to, actor_id: ctx.adminId, created_at: at(daysAgo) })))
    .execute();

  const t = createTranslator('en');
  const notices: Row<'notifications'>[] = [];
  const notice = (userId: number, kind: 'expert_questions' | 'expert_answers', url: string, message: string, createdAt: Date, read: boolean) =>
    notices.push({ community_id: summit, user_id: userId, kind, url, message, created_at: createdAt, read_at: read ? new Date(createdAt.getTime() + HOUR) : null, viewed_at: read ? new Date(createdAt.getTime() + HOUR) : null, shown: true });
  for (const m of CLOSED_BATCH.panel.members) {
    notice(user(m), 'expert_questions', '/expert-panels', t('expertPanelsInvite.notify.invited', { count: CLOSED_QUESTIONS.length, panel: CLOSED_BATCH.panel.name, deadline: formatDate(closedDeadline) }), new Date(closedSent.getTime() + 5 * 60_000), true);
  }
  for (const m of OPEN_BATCH.panel.members) {
    notice(user(m), 'expert_questions', '/expert-panels', t('expertPanelsInvite.notify.invited', { count: OPEN_QUESTIONS.length, panel: OPEN_BATCH.panel.name, deadline: formatDate(openDeadline) }), new Date(openSent.getTime() + 5 * 60_000), false);
  }
  planned.forEach((x) => {
    for (const a of x.question.answers) {
      if (a.status !== 'accepted' && a.status !== 'declined') continue;
      const row = answerRows.find((r) => r.question_id === questionId(x.question.title) && r.user_id === user(a.member))!;
      const note = a.note ?? '';
      notice(user(a.member), 'expert_answers', `/expert-panels/${questionId(x.question.title)}`, t(`expertPanelsAdmin.notify.${a.status}`, { question: x.question.title, note, hasNote: note ? 'yes' : 'no' }), row.decided_at as Date, true);
    }
  });
  for (const a of first.answers.filter((x) => x.roundup !== undefined)) {
    notice(user(a.member), 'expert_answers', roundupPath(ROUNDUP.slug), t('expertPanelsRoundups.notify.published', { title: ROUNDUP.title }), published, true);
  }
  await trx.insertInto('notifications').values(notices).execute();
}
