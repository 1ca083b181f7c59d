import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, type Tenant } from '#src/db/tenancy.ts';
import type { Notifier } from '#src/features/notifications/index.ts';
import type { Executor, JobQueue } from '#src/lib/jobs/queue.ts';
import { FIVE_ARTICLES, YEAR_LEVELS, type BadgeKey, type EarnedBadge } from './catalogue.ts';

/**
 * Badges earned from a member's history (issue 27; decision 0054). The rules read the community's
 * own rows: the membership (founding flag, moderator flag, when it began), the member's published
 * articles, and the answers of theirs that a published (FINAL) roundup carries.
 *
 * The events that earn a badge (an article published, a roundup published, a moderator appointed)
 * enqueue `badges.evaluate` for the members concerned, in the event's own transaction
 * (`enqueueBadgeCheck`, on this area's face): the job exists exactly when the event commits, and it
 * runs with retries on the durable queue, so a badge never holds up or fails the event. A daily sweep
 * (`badges.sweep`) runs the same rules over every member: the years of membership come with time, not
 * with an event, and it catches what no event reported.
 *
 * Idempotent: a badge is one row per member, badge and level (a unique constraint); the rows are
 * inserted ON CONFLICT DO NOTHING and only the rows actually inserted are notified, in the same
 * transaction. Two evaluations at once (a job and the sweep) insert one row; the second waits on the
 * first's row and inserts nothing, so the member hears once.
 *
 * Held, not kept: the moderator badge goes when the moderator flag does (the profile must not call a
 * former moderator one). Every other earned badge stays earned.
 */

export const EVALUATE_JOB = 'badges.evaluate';
export const SWEEP_JOB = 'badges.sweep';
export type EvaluateJob = { communityId: number; userIds: number[] };

export type BadgeDeps = { db: Db; clock: Clock; community: Tenant; t: Translate; notifier: Notifier };

/** A badge a member's history earns: which, at what level, and when it was earned. */
export type Earned = { userId: number; badge: EarnedBadge; level: number; at: Date };

/** The most members one evaluation reads at once (the sweep goes through a community in such pages). */
export const EVALUATE_PAGE = 500;

const PUBLISHED_STATUSES = ['PUBLISHED', 'MANUALLY_PUBLISHED'] as const;

const addYears = (d: Date, years: number) => {
  const at = new Date(d);
  at.setUTCFullYear(at.getUTCFullYear() + years);
  return at;
};

/**
 * What these members' history earns (active members only: a deactivated membership earns nothing
 * new), and which of them no longer moderate. Three queries for the whole page of members.
 */
export async function earnedFromHistory(db: Db, community: Tenant, userIds: readonly number[], now: Date): Promise<{ earned: Earned[]; notModerating: number[] }> {
  if (userIds.length === 0) return { earned: [], notModerating: [] };
  const ids = [...userIds];
  const [members, articles, answers] = await Promise.all([
    selectInCommunity(db, 'memberships', community).select(['user_id', 'is_active', 'is_founding', 'is_moderator', 'joined_at']).where('user_id', 'in', ids).execute(),
    selectInCommunity(db, 'articles', community)
      .select((eb) => [
        'author_id',
        eb.fn.countAll<string>().as('published'),
        sql<Date>`min(coalesce(published_date, status_updated_at))`.as('first_at'),
        sql<Date | null>`(array_agg(coalesce(published_date, status_updated_at) order by coalesce(published_date, status_updated_at)))[${sql.lit(FIVE_ARTICLES)}]`.as('fifth_at'),
      ])
      .where('status', 'in', [...PUBLISHED_STATUSES])
      .where('author_id', 'in', ids)
      .groupBy('author_id')
      .execute(),
    selectInCommunityAs(db, 'ep_roundup_answers', 'ra', community)
      .innerJoin('ep_roundups as r', (j) => j.onRef('r.id', '=', 'ra.roundup_id').onRef('r.community_id', '=', 'ra.community_id'))
      .innerJoin('ep_answers as a', (j) => j.onRef('a.id', '=', 'ra.answer_id').onRef('a.community_id', '=', 'ra.community_id'))
      .select(['a.user_id', sql<Date>`min(coalesce(r.published_at, r.updated_at))`.as('first_at')])
      .where('r.status', '=', 'FINAL')
      .where('a.user_id', 'in', ids)
      .groupBy('a.user_id')
      .execute(),
  ]);
  const active = new Map(members.filter((m) => m.is_active).map((m) => [m.user_id, m]));
  const earned: Earned[] = [];
  for (const m of active.values()) {
    const joined = new Date(m.joined_at);
    if (m.is_founding) earned.push({ userId: m.user_id, badge: 'founding_member', level: 0, at: joined });
    if (m.is_moderator) earned.push({ userId: m.user_id, badge: 'moderator', level: 0, at: now });
    for (const years of YEAR_LEVELS) {
      const at = addYears(joined, years);
      if (at <= now) earned.push({ userId: m.user_id, badge: 'years', level: years, at });
    }
  }
  for (const a of articles) {
    if (!active.has(a.author_id)) continue;
    earned.push({ userId: a.author_id, badge: 'first_article', level: 0, at: new Date(a.first_at) });
    if (Number(a.published) >= FIVE_ARTICLES && a.fifth_at) earned.push({ userId: a.author_id, badge: 'five_articles', level: 0, at: new Date(a.fifth_at) });
  }
  for (const a of answers) {
    if (active.has(a.user_id)) earned.push({ userId: a.user_id, badge: 'expert_contributor', level: 0, at: new Date(a.first_at) });
  }
  const notModerating = members.filter((m) => !m.is_moderator || !m.is_active).map((m) => m.user_id);
  return { earned, notModerating };
}

/** A new badge as it is told: the member, the badge and its level. */
export type NewBadge = { userId: number; badge: BadgeKey; level: number };

/** The message of a new badge, in the member's words. */
export function newBadgeMessage(t: Translate, badge: BadgeKey, level: number): string {
  return t('badges.notify.earned', { name: t(`badges.catalogue.${badge}.name`, { years: level }) });
}

/** Tells the member of a badge new to them (kind `badges`), inside the transaction that gave it. */
export async function tellNewBadge(trx: Db, deps: Pick<BadgeDeps, 'clock' | 'community' | 't' | 'notifier'>, b: NewBadge): Promise<void> {
  await deps.notifier.notify(trx, { communityId: deps.community.id, userId: b.userId, kind: 'badges', url: '/badges', message: newBadgeMessage(deps.t, b.badge, b.level), createdAt: deps.clock.now() });
}

/**
 * Evaluates these members (at most EVALUATE_PAGE of them): gives each the badges their history
 * earns and does not hold yet, takes the moderator badge from those who no longer moderate, and,
 * unless `notify` is false (the demo seed), tells each member of each badge new to them. One
 * transaction. Answers the badges given now.
 */
export async function evaluateMembers(deps: BadgeDeps, userIds: readonly number[], options: { notify?: boolean } = {}): Promise<NewBadge[]> {
  const ids = [...new Set(userIds)].slice(0, EVALUATE_PAGE);
  if (ids.length === 0) return [];
  return deps.db.transaction().execute((trx) => evaluateIn(trx, deps, ids, options));
}

/** evaluateMembers inside a transaction already open (the demo seed's). */
export async function evaluateIn(trx: Db, deps: Omit<BadgeDeps, 'db'>, ids: readonly number[], options: { notify?: boolean } = {}): Promise<NewBadge[]> {
  const { earned, notModerating } = await earnedFromHistory(trx, deps.community, ids, deps.clock.now());
  if (notModerating.length) {
    await deleteInCommunity(trx, 'member_badges', deps.community).where('badge', '=', 'moderator').where('user_id', 'in', notModerating).execute();
  }
  if (earned.length === 0) return [];
  const fresh = await insertInCommunity(
    trx,
    'member_badges',
    deps.community,
    earned.map((e) => ({ user_id: e.userId, badge: e.badge, level: e.level, awarded_at: e.at, awarded_by: null })),
  )
    .onConflict((oc) => oc.constraint('member_badges_once').doNothing())
    .returning(['user_id', 'badge', 'level'])
    .execute();
  const given = fresh
    .map((r) => ({ userId: r.user_id, badge: r.badge as BadgeKey, level: r.level }))
    .sort((a, b) => a.userId - b.userId || a.badge.localeCompare(b.badge) || a.level - b.level);
  if (options.notify !== false) for (const b of given) await tellNewBadge(trx, deps, b);
  return given;
}

/**
 * Every member of the community, a page at a time (the daily sweep, and the demo seed). Answers how
 * many badges were given.
 */
export async function evaluateCommunity(deps: BadgeDeps, options: { notify?: boolean } = {}): Promise<number> {
  let after = 0;
  let given = 0;
  for (;;) {
    const page = await selectInCommunity(deps.db, 'memberships', deps.community)
      .select('user_id')
      .where('user_id', '>', after)
      .orderBy('user_id')
      .limit(EVALUATE_PAGE)
      .execute();
    if (page.length === 0) return given;
    given += (await evaluateMembers(deps, page.map((r) => r.user_id), options)).length;
    after = page[page.length - 1]!.user_id;
    if (page.length < EVALUATE_PAGE) return given;
  }
}

/**
 * Asks for these members' badges to be checked after an event that may earn one (an article
 * published, a roundup published, a moderator appointed). Call it with the event's transaction: the
 * check is queued exactly when the event commits, and runs on the durable queue.
 */
export async function enqueueBadgeCheck(jobs: JobQueue, executor: Executor, community: Tenant, userIds: readonly number[]): Promise<void> {
  const ids = [...new Set(userIds)].filter((id) => Number.isSafeInteger(id) && id > 0);
  for (let i = 0; i < ids.length; i += EVALUATE_PAGE) {
    await jobs.enqueue(executor, EVALUATE_JOB, { communityId: community.id, userIds: ids.slice(i, i + EVALUATE_PAGE) } satisfies EvaluateJob);
  }
}
