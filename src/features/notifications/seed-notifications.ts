import type { Insertable } from 'kysely';
import type { RawDb } from '#src/db/index.ts';
import type { NotificationsTable } from '#src/db/types.ts';
import type { NotificationKind } from '#src/lib/notification-kinds.ts';

/**
 * Demo notification history: every member of the demo communities starts with 6 to 15 notifications
 * over the last six weeks, of several kinds (article progress, editor feedback, account security, and
 * the outcome of each introduction request of theirs the demo reviewed), the older ones read, the
 * newest two or three unread and not yet seen (so the bell shows its dot, e.g. for
 * amara.okafor@summit-demo.example.com), one more unread but seen.
 * Inserted as rows directly: history is not delivered again. The messages are the locale files'
 * wordings (articles.notifications.*, introductions.notifications.*), written out as demo content.
 */

const TITLES = [
  'What a Decade of Freight Taught Me About Forecasting',
  'Hiring Your First Platform Team',
  'The Quiet Power of a Weekly Operating Review',
  'Why We Stopped Chasing Every Customer',
  'Lessons From Our Hardest Quarter',
  'Building a Board That Tells You the Truth',
];

type Template = { kind: NotificationKind; url: string; message: (pick: (list: string[]) => string) => string };

const APPROVED = (target: string) => `The community team introduced you to ${target}. Look for the introduction in your email.`;
const DECLINED = (target: string) => `Your request to meet ${target} was declined. See the team’s reason in your introduction requests.`;

const TEMPLATES: Template[] = [
  { kind: 'article_progress', url: '/articles', message: (p) => `Your article "${p(TITLES)}" was submitted for review.` },
  { kind: 'article_progress', url: '/articles/edit', message: (p) => `"${p(TITLES)}" needs a revision: see the editor's feedback.` },
  { kind: 'article_progress', url: '/articles/edit', message: (p) => `"${p(TITLES)}" is ready for your approval.` },
  { kind: 'article_progress', url: '/articles', message: (p) => `"${p(TITLES)}" is published.` },
  { kind: 'article_feedback', url: '/articles/edit', message: (p) => `New feedback on "${p(TITLES)}".` },
  { kind: 'article_feedback', url: '/articles/edit', message: (p) => `New feedback on "${p(TITLES)}".` },
  { kind: 'account_security', url: '/settings', message: () => 'Your password was changed. If this was not you, reset your password now.' },
  { kind: 'account_security', url: '/settings', message: () => 'The mobile phone on your account was changed.' },
];

const DAY = 86_400_000;
const SIX_WEEKS = 42 * DAY;

/** A small deterministic generator (the same demo every time for the same member). */
function randomFor(seed: number) {
  let s = (seed * 2_654_435_761) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4_294_967_296;
  };
}

/** Called from seedDemo inside its transaction, after the members' seeds. */
export async function seedNotifications(trx: RawDb, ctx: { communityIds: number[]; now?: Date }): Promise<void> {
  if (ctx.communityIds.length === 0) return;
  const now = (ctx.now ?? new Date()).getTime();
  const members = await trx
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['memberships.community_id', 'memberships.user_id'])
    .where('memberships.community_id', 'in', ctx.communityIds)
    .where('users.username', '!=', 'admin')
    .orderBy('memberships.user_id')
    .execute();
  // The outcomes of the demo's reviewed introduction requests, told to their requesters when reviewed.
  const reviewed = await trx
    .selectFrom('introduction_requests')
    .innerJoin('users as target', 'target.id', 'introduction_requests.target_id')
    .select(['introduction_requests.community_id', 'introduction_requests.requester_id', 'introduction_requests.status', 'introduction_requests.reviewed_at', 'target.first_name', 'target.last_name'])
    .where('introduction_requests.community_id', 'in', ctx.communityIds)
    .where('introduction_requests.status', '!=', 'PENDING')
    .execute();
  const outcomes = new Map<string, { time: number; message: string }[]>();
  for (const r of reviewed) {
    if (!r.reviewed_at) continue;
    const key = `${r.community_id}:${r.requester_id}`;
    const target = `${r.first_name} ${r.last_name}`;
    outcomes.set(key, [...(outcomes.get(key) ?? []), { time: new Date(r.reviewed_at).getTime(), message: r.status === 'APPROVED' ? APPROVED(target) : DECLINED(target) }]);
  }

  const rows: Insertable<NotificationsTable>[] = [];
  for (const m of members) {
    const random = randomFor(m.user_id * 31 + m.community_id);
    const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
    const count = 6 + Math.floor(random() * 10);
    const unviewed = 2 + Math.floor(random() * 2);
    const own = outcomes.get(`${m.community_id}:${m.user_id}`) ?? [];
    // Times from six weeks ago to a few hours ago, more of them recent; the newest within the last day.
    const generated = Array.from({ length: Math.max(0, count - own.length) }, (_, i) => {
      const template = TEMPLATES[Math.floor(random() * TEMPLATES.length)]!;
      const ago = i === 0 ? 2 * 3_600_000 + random() * 20 * 3_600_000 : 2 * 3_600_000 + random() ** 2 * SIX_WEEKS;
      return { time: now - ago, kind: template.kind as NotificationKind, url: template.url, message: template.message(pick) };
    });
    const history = [...generated, ...own.map((o) => ({ ...o, kind: 'introductions' as const, url: '/members/introductions' }))].sort((a, b) => a.time - b.time);
    // Oldest first, so ids follow time.
    history.forEach(({ time, kind, url, message }, i) => {
      const fromNewest = history.length - 1 - i;
      const createdAt = new Date(time);
      const unread = fromNewest <= unviewed;
      rows.push({
        community_id: m.community_id,
        user_id: m.user_id,
        kind,
        url,
        message,
        created_at: createdAt,
        read_at: unread ? null : new Date(time + 3_600_000),
        // The newest ones are not seen yet; one more is unread but was seen in the bell.
        viewed_at: fromNewest < unviewed ? null : new Date(time + 1_800_000),
        shown: true,
      });
    });
  }
  for (let i = 0; i < rows.length; i += 500) await trx.insertInto('notifications').values(rows.slice(i, i + 500)).execute();
}
