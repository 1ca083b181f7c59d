import type { RawDb } from '#src/db/index.ts';

type Seed = {
  from: string;
  to: string;
  reason: string;
  status: 'PENDING' | 'APPROVED' | 'DECLINED';
  note?: string;
  /** Days before now the request was made (and, when reviewed, a day later it was). */
  daysAgo: number;
};

const SEEDS: Seed[] = [
  {
    from: 'amara.okafor',
    to: 'daniel.reyes',
    status: 'PENDING',
    daysAgo: 2,
    reason: 'Lumen is building demand-forecasting models for freight, and I would love to hear how Northfield plans capacity around seasonal peaks.',
  },
  {
    from: 'amara.okafor',
    to: 'mei.chen',
    status: 'APPROVED',
    daysAgo: 12,
    reason: 'We are hiring our first platform team and Mei has scaled engineering at Harborlight twice; I would value her view on the first five hires.',
    note: 'Mei mentored two members on hiring last spring and is happy to help. Enjoy the conversation!',
  },
  {
    from: 'amara.okafor',
    to: 'marcus.lindqvist',
    status: 'DECLINED',
    daysAgo: 20,
    reason: 'Lumen is preparing a Series B next year and I would like Marcus’s perspective on how growth-stage funds look at analytics companies.',
    note: 'Marcus is not taking fundraising conversations through the council this quarter. The Capital Roundtable on the 14th is a good place to meet investors.',
  },
  {
    from: 'kwame.mensah',
    to: 'amara.okafor',
    status: 'APPROVED',
    daysAgo: 6,
    reason: 'Brightline is forecasting install demand across three states; Lumen’s freight forecasting work looks close to what we need, and I would like to learn how Amara’s team validates its models.',
    note: 'Amara spoke about forecasting at the last Operators Circle; she is glad to compare notes.',
  },
  {
    from: 'priya.raman',
    to: 'kwame.mensah',
    status: 'PENDING',
    daysAgo: 1,
    reason: 'Cobalt Health is moving our clinics to on-site solar and battery storage; Kwame’s experience with Brightline’s commercial installs would help us scope it.',
  },
  {
    from: 'sofia.marchetti',
    to: 'hannah.feldman',
    status: 'PENDING',
    daysAgo: 3,
    reason: 'Verde is opening two hotels in Pennsylvania and we need a firm that knows the state’s liquor licensing. I hear Quarry Legal does this well.',
  },
  {
    from: 'leila.haddad',
    to: 'isabel.duarte',
    status: 'APPROVED',
    daysAgo: 9,
    reason: 'Cedar & Stone designs model homes; Isabel’s agents see what buyers in San Diego respond to, and I would like to compare notes before our West Coast launch.',
    note: 'A natural fit: Isabel asked us last month for design partners.',
  },
  {
    from: 'jonah.whitaker',
    to: 'tobias.brandt',
    status: 'DECLINED',
    daysAgo: 15,
    reason: 'Ironbridge could manufacture chassis parts for Keystone’s scooters; I would like to explore whether a supply partnership makes sense for both of us.',
    note: 'Tobias prefers supplier introductions through Keystone’s procurement team; we have sent you their contact by email.',
  },
];

/**
 * Demo introduction requests among Summit's members, in every state (amara.okafor has one of each,
 * and kwame.mensah's approved request to meet her: the conversations' demo writes between them),
 * with the staff actions of the reviewed ones. Called from seedDemo inside its transaction.
 */
export async function seedIntroductions(trx: RawDb, ctx: { communityId: number; staffId: number; now?: Date }): Promise<void> {
  const now = ctx.now ?? new Date();
  const usernames = [...new Set(SEEDS.flatMap((s) => [s.from, s.to]))];
  const users = await trx
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id', 'users.username'])
    .where('memberships.community_id', '=', ctx.communityId)
    .where('users.username', 'in', usernames)
    .execute();
  const idOf = new Map(users.map((u) => [u.username, u.id]));
  const day = 86_400_000;
  for (const s of SEEDS) {
    const requester = idOf.get(s.from);
    const target = idOf.get(s.to);
    if (!requester || !target) continue;
    const createdAt = new Date(now.getTime() - s.daysAgo * day);
    const reviewedAt = s.status === 'PENDING' ? null : new Date(createdAt.getTime() + day);
    const row = await trx
      .insertInto('introduction_requests')
      .values({
        community_id: ctx.communityId,
        requester_id: requester,
        target_id: target,
        reason: s.reason,
        status: s.status,
        reviewer_id: reviewedAt ? ctx.staffId : null,
        review_note: s.note ?? null,
        created_at: createdAt,
        reviewed_at: reviewedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (reviewedAt) {
      await trx
        .insertInto('staff_actions')
        .values({
          community_id: ctx.communityId,
          actor_id: ctx.staffId,
          member_id: requester,
          action: s.status === 'APPROVED' ? 'introduction.approve' : 'introduction.decline',
          detail: JSON.stringify({ requestId: row.id, targetId: target, ...(s.note ? { note: s.note } : {}) }),
          created_at: reviewedAt,
        })
        .execute();
    }
  }
}
