import type { RawDb } from '#src/db/index.ts';
import type { DemoContext } from '#src/features/area.ts';
import { cleanRichText, textToHtml } from '#src/lib/rich-text.ts';
import type { TeamMessageAudience, TeamMessageStatus } from './types.ts';

/**
 * The demo's messages from the team, sent by admin@example.com. Summit: three sent to the whole
 * community (Amara Okafor has read the oldest two, the newest is unread for everyone), one scheduled
 * for next week, one draft. Harbor: one sent. Sent messages are written as delivered to every active
 * member (the demo has no notifications for them: they were "sent" before the demo began).
 */

type M = { subject: string; text: string; status: TeamMessageStatus; daysAgo: number; audience?: TeamMessageAudience; readBy?: 'amara' | 'half' };

const SUMMIT: M[] = [
  {
    subject: 'Welcome to the new season',
    text: 'Welcome back, everyone.\n\nThis season brings new expert panels, a refreshed forum and partner offers for every member.\n\n- Expert panels open their first batch next week\n- The forum has new topics\n- Offers are under Benefits',
    status: 'SENT',
    daysAgo: 30,
    readBy: 'half',
  },
  { subject: 'Your member directory profile', text: 'Members who keep their profile up to date get three times as many introduction requests.\n\nTake two minutes to check yours under Manage Profile.', status: 'SENT', daysAgo: 12, readBy: 'amara' },
  { subject: 'Dinner series: seats open', text: 'Our spring dinner series has seats open in Austin and Denver.\n\nReply through the concierge to reserve yours.', status: 'SENT', daysAgo: 2 },
  { subject: 'Annual summit: save the date', text: 'The annual summit is on the first week of June.\n\nDetails and registration follow next month.', status: 'SCHEDULED', daysAgo: -7 },
  { subject: 'Founding members: a thank-you (draft)', text: 'A note to thank our founding members.', status: 'DRAFT', daysAgo: 0, audience: { kind: 'filter', founding: true } },
];

const HARBOR: M[] = [{ subject: 'Harbor founders: meetup next month', text: 'The next Harbor founders meetup is on the second Thursday of next month.\n\nBring a founder friend.', status: 'SENT', daysAgo: 5, readBy: 'half' }];

const DAY_MS = 86_400_000;

export async function seedMessages(trx: RawDb, demo: DemoContext): Promise<void> {
  for (const [code, messages] of [['summit', SUMMIT], ['harbor', HARBOR]] as const) {
    const communityId = demo.byCode[code];
    if (!communityId) continue;
    const members = await trx
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.email'])
      .where('m.community_id', '=', communityId)
      .where('m.is_active', '=', true)
      .where('u.is_active', '=', true)
      .orderBy('u.id')
      .execute();
    const now = Date.now();
    for (const m of messages) {
      const at = new Date(now - m.daysAgo * DAY_MS);
      const created = m.daysAgo < 0 ? new Date(now - DAY_MS) : at;
      const sent = m.status === 'SENT';
      const { id } = await trx
        .insertInto('team_messages')
        .values({
          community_id: communityId,
          sender_id: demo.adminId,
          subject: m.subject,
          body_html: cleanRichText(textToHtml(m.text)),
          audience: JSON.stringify(m.audience ?? { kind: 'community' }),
          audience_count: m.audience ? 0 : members.length,
          status: m.status,
          scheduled_at: m.status === 'SCHEDULED' ? at : null,
          recipients_ready: sent,
          sent_at: sent ? at : null,
          created_at: created,
          updated_at: created,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const moves: [TeamMessageStatus | null, TeamMessageStatus][] = [[null, 'DRAFT']];
      if (sent) moves.push(['DRAFT', 'SENDING'], ['SENDING', 'SENT']);
      if (m.status === 'SCHEDULED') moves.push(['DRAFT', 'SCHEDULED']);
      await trx
        .insertInto('message_events')
        .values(moves.map(([from, to]) => ({ community_id: communityId, message_id: id, actor_id: to === 'SENT' ? null : demo.adminId, from_status: from, to_status: to, created_at: created })))
        .execute();
      if (!sent || members.length === 0) continue;
      await trx
        .insertInto('message_recipients')
        .values(
          members.map((u, i) => ({
            community_id: communityId,
            message_id: id,
            user_id: u.id,
            state: 'delivered' as const,
            delivered_at: at,
            read_at: (m.readBy === 'amara' && u.email.startsWith('amara.okafor@')) || (m.readBy === 'half' && (i % 2 === 0 || u.email.startsWith('amara.okafor@'))) ? new Date(at.getTime() + 3_600_000) : null,
          })),
        )
        .execute();
    }
  }
}
