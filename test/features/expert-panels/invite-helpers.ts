import type { Test } from 'tap';
import type { Community } from '#src/db/types.ts';
import { INVITE_JOB, REMINDER_JOB } from '#src/features/expert-panels/invite/invitations.ts';
import { createMember, type TestUser } from '#test/helpers/factories.ts';
import { epBaseWorld } from './base-world.ts';

/**
 * An expert-panels world for the invitation tests: two communities (alpha, the default host; beta on
 * beta.test), an app on one database with a fixed clock, and rows of panels, batches, questions and
 * answers inserted directly (the admin side is another slice's).
 */
export async function inviteWorld(t: Test) {
  const base = await epBaseWorld(t);
  const { db, clock, app, config } = base;
  const secret = config.cookieSecret;

  const member = (community: Community, firstName = 'Test', lastName?: string): Promise<TestUser> => createMember(db, community, { firstName, lastName });

  async function panel(community: Community, name: string, words = { min: 3, max: 50 }) {
    const row = await db
      .insertInto('ep_panels')
      .values({ community_id: community.id, name, topic: `${name} topics`, min_words: words.min, max_words: words.max })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * A sent batch of the panel with questions sent to members (one 'open' answer each), sent at
   * `sentAt` (default: the clock's now), with its deadline.
   */
  async function batch(
    community: Community,
    panelId: number,
    options: { deadline: Date; sentAt?: Date; questions: string[]; members: TestUser[]; status?: 'draft' | 'sent' },
  ) {
    const sentAt = options.sentAt ?? clock.now();
    const b = await db
      .insertInto('ep_batches')
      .values({ community_id: community.id, panel_id: panelId, title: `Batch ${options.questions[0]}`, deadline_at: options.deadline, status: options.status ?? 'sent', sent_at: sentAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    const questionIds: number[] = [];
    for (const [position, title] of options.questions.entries()) {
      const q = await db
        .insertInto('ep_questions')
        .values({ community_id: community.id, batch_id: b.id, panel_id: panelId, title, brief_html: `<p>Brief of ${title}</p>`, guidelines_html: `<p>Guidelines of ${title}</p>`, position })
        .returning('id')
        .executeTakeFirstOrThrow();
      questionIds.push(q.id);
      if (options.members.length) {
        await db
          .insertInto('ep_answers')
          .values(options.members.map((m) => ({ community_id: community.id, question_id: q.id, user_id: m.id, status: 'open' as const, sent_at: sentAt })))
          .execute();
      }
    }
    return { id: b.id, questionIds };
  }

  /** A member's expert_questions notifications, oldest first. */
  const notes = (userId: number) =>
    db.selectFrom('notifications').select(['community_id', 'message', 'url', 'shown']).where('user_id', '=', userId).where('kind', '=', 'expert_questions').orderBy('id').execute();

  const answer = (questionId: number, userId: number) =>
    db.selectFrom('ep_answers').selectAll().where('question_id', '=', questionId).where('user_id', '=', userId).executeTakeFirstOrThrow();

  const drainInvites = () => app.jobs.drain([INVITE_JOB]);
  const drainReminders = () => app.jobs.drain([REMINDER_JOB]);

  return { db, clock, app, config, secret, alpha: base.alpha, beta: base.beta, member, panel, batch, notes, answer, drainInvites, drainReminders };
}

export const days = (n: number) => n * 24 * 60 * 60 * 1000;
export const hours = (n: number) => n * 60 * 60 * 1000;
