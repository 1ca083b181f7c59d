import type { RawDb } from '#src/db/index.ts';

/**
 * The staff's side of the demo members: varied health, standing, tier and vertical in every demo
 * community, recent accesses, member notes on several Summit members by the demo admin, a few staff
 * actions in their history, and one deactivated Summit member: Ines Moreau, a member of long
 * standing (not one the README signs in as, nor one of the newest members the home page shows).
 * Jonah Whitaker, whose renewal failed, is overdue yet active, so that signing in as him shows the
 * overdue page. Runs inside seedDemo's transaction, after the members are inserted.
 */
export async function seedAdminMembers(trx: RawDb, ctx: { byCode: Record<string, number>; adminId: number; now?: Date }): Promise<void> {
  const now = ctx.now ?? new Date();
  const ago = (days: number, hours = 0) => new Date(now.getTime() - (days * 24 + hours) * 3_600_000);
  const HEALTH = ['Healthy', 'Engaged', 'Healthy', 'At risk', 'Quiet', 'Healthy', 'Champion'];
  const STANDING = ['Good', 'Good', 'Good', 'Overdue', 'Good', 'Grace period', 'Good'];
  const TIER = ['Standard', 'Premier', 'Standard', 'Executive', 'Premier', 'Standard'];
  const VERTICAL = ['Technology', 'Finance', 'Healthcare', 'Real estate', 'Consumer', 'Industrial', 'Professional services'];

  for (const communityId of Object.values(ctx.byCode)) {
    const members = await trx
      .selectFrom('memberships')
      .select(['id'])
      .where('community_id', '=', communityId)
      .where('user_id', '!=', ctx.adminId)
      .orderBy('id')
      .execute();
    for (const [i, m] of members.entries()) {
      await trx
        .updateTable('memberships')
        .set({
          health: HEALTH[i % HEALTH.length]!,
          standing: STANDING[i % STANDING.length]!,
          membership_tier: TIER[i % TIER.length]!,
          vertical: VERTICAL[i % VERTICAL.length]!,
          // Most members came by recently; every fifth has not signed in for a while.
          last_accessed_at: i % 5 === 4 ? ago(40 + i) : ago(i % 9, i % 7),
        })
        .where('id', '=', m.id)
        .execute();
    }
  }

  const summit = ctx.byCode.summit;
  if (summit === undefined) return;
  const byEmail = async (email: string) =>
    (
      await trx
        .selectFrom('users')
        .innerJoin('memberships', 'memberships.user_id', 'users.id')
        .select('users.id')
        .where('users.email', '=', email)
        .where('memberships.community_id', '=', summit)
        .executeTakeFirst()
    )?.id;
  const domain = 'summit-demo.example.com';
  const [daniel, priya, marcus, sofia, jonah, owen, ines] = await Promise.all(
    ['daniel.reyes', 'priya.raman', 'marcus.lindqvist', 'sofia.marchetti', 'jonah.whitaker', 'owen.gallagher', 'ines.moreau'].map((n) => byEmail(`${n}@${domain}`)),
  );

  const notes: Array<[number | undefined, number, string]> = [
    [daniel, 62, 'Onboarding call done. Daniel wants introductions to founders who have scaled regional freight; suggested the logistics roundtable.'],
    [daniel, 9, 'Agreed to moderate the Operations forum for the next quarter. Moderator flag set.'],
    [priya, 30, 'Asked about the executive tier. Sent the comparison sheet; follow up after her board meeting on the 12th.'],
    [priya, 4, 'Spoke at the Boston dinner: great feedback from attendees. Candidate for the spring speaker series.'],
    [marcus, 21, 'Prefers email over phone. Interested in co-investing with other members; flagged for the capital circle.'],
    [sofia, 45, 'Founding member. Hosted the Miami welcome reception; send a thank-you gift before the holidays.'],
    [jonah, 8, 'Renewal declined nine days ago (the card on file refuses charges). Sent him the pay-now link; call if the second reminder goes unanswered.'],
    [ines, 14, 'Membership paused at her request until the new fiscal year; reactivate when she calls in January.'],
    [owen, 7, 'Renewal due next month. Happy with the CFO peer group; asked whether his deputy can attend one session.'],
  ];
  const noteRows = notes.flatMap(([member, days, body]) => (member === undefined ? [] : [{ community_id: summit, member_id: member, author_id: ctx.adminId, body, created_at: ago(days) }]));
  if (noteRows.length > 0) await trx.insertInto('member_notes').values(noteRows).execute();

  const actions: Array<[number | undefined, number, string]> = [
    [daniel, 9, 'moderator_on'],
    [priya, 30, 'password_reset_sent'],
    [owen, 20, 'password_reset_sent'],
    [ines, 14, 'deactivated'],
  ];
  const actionRows = actions.flatMap(([member, days, action]) => (member === undefined ? [] : [{ community_id: summit, actor_id: ctx.adminId, member_id: member, action, created_at: ago(days) }]));
  const noteActions = noteRows.map((n) => ({ community_id: summit, actor_id: ctx.adminId, member_id: n.member_id, action: 'note_added', created_at: n.created_at }));
  if (actionRows.length + noteActions.length > 0) await trx.insertInto('staff_actions').values([...actionRows, ...noteActions]).execute();

  // Jonah's renewal failed (the payments demo): the staff see him overdue.
  if (jonah !== undefined) await trx.updateTable('memberships').set({ standing: 'Overdue' }).where('user_id', '=', jonah).where('community_id', '=', summit).execute();
  if (ines !== undefined) await trx.updateTable('memberships').set({ is_active: false }).where('user_id', '=', ines).where('community_id', '=', summit).execute();
}
