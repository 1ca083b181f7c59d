import type { Test } from 'tap';
import type { Community, EpAnswerStatus } from '#src/db/types.ts';
import { epBaseWorld } from './base-world.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * An expert-panels world for the member side's tests: two communities (alpha, and beta at beta.test),
 * an app on one database, deps per community, and helpers that write panels, batches, questions and
 * answer rows as the editors' services would (sending a batch: one 'open' answer per member).
 */
export async function epWorld(t: Test) {
  const base = await epBaseWorld(t);
  const { db, clock } = base;

  async function panel(community: Community, options: { name?: string; min?: number; max?: number } = {}): Promise<number> {
    const row = await db
      .insertInto('ep_panels')
      .values({ community_id: community.id, name: options.name ?? `Panel ${Math.random().toString(36).slice(2, 8)}`, topic: 'Growth', min_words: options.min ?? 5, max_words: options.max ?? 20 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function batch(community: Community, panelId: number, options: { title?: string; deadlineDays?: number } = {}): Promise<number> {
    const now = clock.now().getTime();
    const row = await db
      .insertInto('ep_batches')
      .values({ community_id: community.id, panel_id: panelId, title: options.title ?? 'A batch', deadline_at: new Date(now + (options.deadlineDays ?? 10) * DAY), status: 'sent', sent_at: clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A question of a batch, sent to these members (one 'open' answer each, sent at the clock's time). */
  async function question(community: Community, batchId: number, panelId: number, to: number[], options: { title?: string; closed?: boolean; brief?: string } = {}): Promise<number> {
    const row = await db
      .insertInto('ep_questions')
      .values({
        community_id: community.id,
        batch_id: batchId,
        panel_id: panelId,
        title: options.title ?? 'What would you do?',
        brief_html: options.brief ?? '<p>The brief of the question.</p>',
        guidelines_html: '<p>Write from your own experience.</p>',
        closed_at: options.closed ? clock.now() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (to.length) await db.insertInto('ep_answers').values(to.map((user_id) => ({ community_id: community.id, question_id: row.id, user_id, sent_at: clock.now(), status_at: clock.now() }))).execute();
    return row.id;
  }

  const answerOf = (questionId: number, userId: number) => db.selectFrom('ep_answers').selectAll().where('question_id', '=', questionId).where('user_id', '=', userId).executeTakeFirstOrThrow();

  /** What an editor does (slice B): picks the answer up, decides, edits. */
  async function editorSets(questionId: number, userId: number, values: { status?: EpAnswerStatus; review?: boolean; note?: string; editedHtml?: string; editorId?: number }) {
    const a = await answerOf(questionId, userId);
    await db
      .updateTable('ep_answers')
      .set({
        ...(values.status ? { status: values.status, decided_at: clock.now() } : {}),
        ...(values.review || values.status ? { review_started_at: clock.now() } : {}),
        ...(values.note ? { decision_note: values.note } : {}),
        ...(values.editedHtml ? { body_html: values.editedHtml, edited_at: clock.now() } : {}),
      })
      .where('id', '=', a.id)
      .execute();
    if (values.editedHtml) {
      await db.insertInto('ep_answer_revisions').values({ community_id: a.community_id, answer_id: a.id, editor_id: values.editorId ?? null, body_html: values.editedHtml, word_count: 3 }).execute();
    }
  }

  /** A roundup of a question with these answers (slice D), FINAL (published, with a slug) unless said otherwise. */
  async function roundup(community: Community, questionId: number, userIds: number[], options: { status?: 'DRAFT' | 'FINAL'; slug?: string; title?: string } = {}) {
    const status = options.status ?? 'FINAL';
    const r = await db
      .insertInto('ep_roundups')
      .values({ community_id: community.id, question_id: questionId, title: options.title ?? 'The roundup', status, slug: status === 'FINAL' ? (options.slug ?? `roundup-${questionId}`) : null, published_at: status === 'FINAL' ? clock.now() : null })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [i, userId] of userIds.entries()) {
      const a = await answerOf(questionId, userId);
      await db.insertInto('ep_roundup_answers').values({ roundup_id: r.id, answer_id: a.id, community_id: community.id, position: i + 1 }).execute();
    }
    return r.id;
  }

  return { ...base, panel, batch, question, answerOf, editorSets, roundup };
}

/** A text of n words, in paragraphs the forum's text format understands. */
export const words = (n: number, word = 'insight') => Array.from({ length: n }, () => word).join(' ');
