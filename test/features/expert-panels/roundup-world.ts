import type { Test } from 'tap';
import type { Community, EpAnswerStatus } from '#src/db/types.ts';
import { epBaseWorld } from './base-world.ts';

/**
 * The roundups' tests' world (slice D): two communities (alpha, beta on beta.test), an app on one
 * database, deps per community, and panels, batches, questions and answers written straight into the
 * database (the rows other slices' services make).
 */
export async function roundupWorld(t: Test) {
  const base = await epBaseWorld(t, { alphaForum: true });
  const { db, clock } = base;

  /** A panel with a sent batch; answers `question(title)` ids. */
  async function panel(community: Community, name = 'Finance leaders') {
    const p = await db.insertInto('ep_panels').values({ community_id: community.id, name, topic: 'Money', min_words: 5, max_words: 300 }).returning('id').executeTakeFirstOrThrow();
    const b = await db
      .insertInto('ep_batches')
      .values({ community_id: community.id, panel_id: p.id, title: `${name}: November`, deadline_at: new Date(clock.now().getTime() + 7 * 86_400_000), status: 'sent', sent_at: clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return {
      id: p.id,
      batchId: b.id,
      question: async (title: string, brief = '<p>Tell us what worked for you.</p>') =>
        (
          await db
            .insertInto('ep_questions')
            .values({ community_id: community.id, batch_id: b.id, panel_id: p.id, title, brief_html: brief })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
    };
  }

  /** An answer of `userId` to a question, in `status`, with its text. */
  async function answer(community: Community, questionId: number, userId: number, status: EpAnswerStatus = 'accepted', text = 'Hire a fractional CFO before you need one, and review cash weekly.') {
    const row = await db
      .insertInto('ep_answers')
      .values({
        community_id: community.id,
        question_id: questionId,
        user_id: userId,
        status,
        body_html: `<p>${text}</p>`,
        body_text: text,
        word_count: text.split(/\s+/).length,
        submitted_at: clock.now(),
        decided_at: status === 'accepted' || status === 'declined' ? clock.now() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const roundupRow = (id: number) => db.selectFrom('ep_roundups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const moves = (id: number) => db.selectFrom('ep_roundup_moves').selectAll().where('roundup_id', '=', id).orderBy('id').execute();
  const notes = (userId: number) => db.selectFrom('notifications').select(['kind', 'message', 'url']).where('user_id', '=', userId).orderBy('id').execute();

  return { ...base, panel, answer, roundupRow, moves, notes };
}
