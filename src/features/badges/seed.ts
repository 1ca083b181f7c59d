import { systemClock } from '#src/core/clock.ts';
import type { RawDb } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity } from '#src/db/tenancy.ts';
import type { DemoContext } from '#src/features/area.ts';
import { EVALUATE_PAGE, evaluateIn } from './evaluate.ts';

/**
 * The demo's badges, earned from the demo's own history by the same rules as the app's (the seed runs
 * after the members, articles and expert panels of the demo): Daniel Reyes the moderator, the founding
 * members, the author of the published article, the contributors of the published roundup, and the
 * members of a year or more. Nobody is notified of them (they are the demo's past). And one Speaker,
 * awarded by the demo's staff and logged.
 */
export async function seedBadges(trx: RawDb, demo: DemoContext): Promise<void> {
  const clock = systemClock;
  // Notifications are off for the seed: the translator and the notifier are never reached.
  const quiet = { clock, t: (key: string) => key, notifier: null as never };
  for (const id of Object.values(demo.byCode)) {
    const community = { id };
    let after = 0;
    for (;;) {
      const page = await selectInCommunity(trx, 'memberships', community).select('user_id').where('user_id', '>', after).orderBy('user_id').limit(EVALUATE_PAGE).execute();
      if (page.length === 0) break;
      await evaluateIn(trx, { ...quiet, community }, page.map((r) => r.user_id), { notify: false });
      after = page[page.length - 1]!.user_id;
    }
  }
  const summit = demo.byCode.summit;
  if (summit === undefined) return;
  const speaker = await selectInCommunity(trx, 'memberships', { id: summit })
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('users.id')
    .where('users.email', '=', 'sofia.marchetti@summit-demo.example.com')
    .executeTakeFirst();
  if (!speaker) return;
  const at = new Date(clock.now().getTime() - 12 * 86_400_000);
  await insertInCommunity(trx, 'member_badges', { id: summit }, { user_id: speaker.id, badge: 'speaker', level: 0, awarded_at: at, awarded_by: demo.adminId }).execute();
  await insertInCommunity(trx, 'badge_awards', { id: summit }, {
    user_id: speaker.id,
    badge: 'speaker',
    action: 'award',
    reason: 'Keynote at the Summit spring leadership forum',
    actor_id: demo.adminId,
    created_at: at,
  }).execute();
}
