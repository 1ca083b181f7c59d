import type { RawDb } from '#src/db/index.ts';
import type { DemoContext } from '#src/features/area.ts';

/**
 * The demo's conversations (issue 28), between Summit members whose introductions the members' demo
 * approved: Amara Okafor with Mei Chen (all read) and with Kwame Mensah (his last two messages unread
 * by her), and Leila Haddad with Isabel Duarte. Runs after the members' seed (src/features/areas.ts).
 * No notification rows: the notifications' demo gives every member their own history.
 */

type Line = { from: 'a' | 'b'; text: string; hoursAgo: number };
type Thread = { a: string; b: string; lines: Line[]; /** Messages at the end that a has not read. */ unreadByA?: number };

const H = 1;
const D = 24;

const THREADS: Thread[] = [
  {
    a: 'amara.okafor',
    b: 'mei.chen',
    lines: [
      { from: 'a', hoursAgo: 10 * D, text: 'Hi Mei, thank you for agreeing to the introduction. We are about to hire the first three people of our platform team at Lumen, and I would value your view on the order we hire in.\n\nWould a 30-minute call next week work for you?' },
      { from: 'b', hoursAgo: 10 * D - 5 * H, text: 'Hello Amara, happy to help. Hiring order matters more than most people think. Tuesday or Thursday afternoon works for me; send me a time and I will make it work.' },
      { from: 'a', hoursAgo: 9 * D, text: 'Thursday at 3 pm Eastern? I will send an invitation with a short note on where the team stands today.' },
      { from: 'b', hoursAgo: 9 * D - 2 * H, text: 'Thursday at 3 is perfect. One thing to think about before we talk: who will own on-call in the first six months. It shapes the first hire more than the tech stack does.' },
      { from: 'a', hoursAgo: 3 * D, text: 'Thank you again for Thursday. We rewrote the first job description around on-call ownership, as you suggested, and the applicants are already a better fit.' },
      { from: 'b', hoursAgo: 2 * D, text: 'Great to hear. Keep me posted on how the first hire goes, and good luck with the interviews.' },
    ],
  },
  {
    a: 'amara.okafor',
    b: 'kwame.mensah',
    unreadByA: 2,
    lines: [
      { from: 'b', hoursAgo: 4 * D, text: 'Hi Amara, Kwame from Brightline here. Thanks for taking the introduction. We forecast solar install demand across Texas, Arizona and Nevada, and our models miss badly around incentive deadlines.\n\nHow does your team validate forecasts when the history has structural breaks like that?' },
      { from: 'a', hoursAgo: 3 * D, text: 'Hi Kwame, good to meet you. Structural breaks are our daily bread in freight. In short: we backtest on windows that include past breaks, and we keep a simple baseline model around to tell us when the clever one drifts.\n\nHappy to share our validation checklist if that helps.' },
      { from: 'b', hoursAgo: 20 * H, text: 'That checklist would help a lot, thank you. Our analyst Rosa would love to see it too.' },
      { from: 'b', hoursAgo: 3 * H, text: 'Also: would you be open to a short call with Rosa and me in the next two weeks? We could share our incentive calendar data in return; it might be useful for your freight forecasts around the same dates.' },
    ],
  },
  {
    a: 'leila.haddad',
    b: 'isabel.duarte',
    lines: [
      { from: 'a', hoursAgo: 7 * D, text: 'Hi Isabel, thanks for the introduction. Before our West Coast launch I would love to hear what San Diego buyers respond to in model homes: layouts, finishes, outdoor space.' },
      { from: 'b', hoursAgo: 7 * D - 6 * H, text: 'Hi Leila, glad to. In short: indoor-outdoor flow sells, and so does a real home office. I can bring two of my agents to a call; they walk buyers through model homes every weekend.' },
      { from: 'a', hoursAgo: 6 * D, text: 'That would be wonderful. I will send a few dates for next week.' },
    ],
  },
];

/** Summit's demo conversations: a few messages each, at realistic times over the past days. */
export async function seedConversations(trx: RawDb, demo: DemoContext): Promise<void> {
  const communityId = demo.byCode.summit;
  if (!communityId) return;
  const usernames = [...new Set(THREADS.flatMap((t) => [t.a, t.b]))];
  const users = await trx
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'users.username'])
    .where('memberships.community_id', '=', communityId)
    .where('users.username', 'in', usernames)
    .execute();
  const idOf = new Map(users.map((u) => [u.username, u.id]));
  const now = Date.now();
  for (const thread of THREADS) {
    const a = idOf.get(thread.a);
    const b = idOf.get(thread.b);
    if (!a || !b) continue;
    const at = (line: Line) => new Date(now - line.hoursAgo * 3_600_000);
    const first = at(thread.lines[0]!);
    const conv = await trx
      .insertInto('conversations')
      .values({ community_id: communityId, member_low: Math.min(a, b), member_high: Math.max(a, b), created_at: first, last_message_at: first })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (const line of thread.lines) {
      const row = await trx
        .insertInto('conversation_messages')
        .values({ community_id: communityId, conversation_id: conv.id, sender_id: line.from === 'a' ? a : b, body: line.text, created_at: at(line) })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    const last = thread.lines.at(-1)!;
    const lastId = ids.at(-1)!;
    await trx
      .updateTable('conversations')
      .set({ last_message_at: at(last), last_message_id: lastId, last_sender_id: last.from === 'a' ? a : b })
      .where('id', '=', conv.id)
      .execute();
    const unread = thread.unreadByA ?? 0;
    await trx
      .insertInto('conversation_members')
      .values([
        { community_id: communityId, conversation_id: conv.id, user_id: a, read_message_id: unread > 0 ? ids[ids.length - 1 - unread]! : lastId },
        { community_id: communityId, conversation_id: conv.id, user_id: b, read_message_id: lastId },
      ])
      .execute();
  }
}
