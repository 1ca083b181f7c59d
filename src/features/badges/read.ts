import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { ALL_BADGES, isBadgeKey, isStaffBadge, YEAR_LEVELS, type BadgeKey } from './catalogue.ts';
import type { BadgesPageData, BadgeToEarn, BadgeView } from './types.ts';

export type BadgeReadDeps = { db: Db; community: Tenant; t: Translate };

const nameOf = (t: Translate, key: BadgeKey, level: number) => t(`badges.catalogue.${key}.name`, { years: level });
const howOf = (t: Translate, key: BadgeKey, level: number) => t(`badges.catalogue.${key}.how`, { years: level });

type Row = { user_id: number; badge: string; level: number; awarded_at: Date; awarded_by: number | null };

/** Rows as views, in the catalogue's order; of the years badges only the highest is shown. */
function viewsOf(t: Translate, rows: readonly Row[]): BadgeView[] {
  const topYears = Math.max(0, ...rows.filter((r) => r.badge === 'years').map((r) => r.level));
  return rows
    .filter((r) => isBadgeKey(r.badge) && (r.badge !== 'years' || r.level === topYears))
    .map((r) => {
      const key = r.badge as BadgeKey;
      return { key, level: r.level, name: nameOf(t, key, r.level), how: howOf(t, key, r.level), awardedAt: new Date(r.awarded_at), byStaff: r.awarded_by !== null || isStaffBadge(key) };
    })
    .sort((a, b) => ALL_BADGES.indexOf(a.key) - ALL_BADGES.indexOf(b.key));
}

const badgeRows = (db: Db, community: Tenant) => selectInCommunity(db, 'member_badges', community).select(['user_id', 'badge', 'level', 'awarded_at', 'awarded_by']);

/** The badges a member of the community holds (none for someone who is not one). */
export async function memberBadges(deps: BadgeReadDeps, userId: number): Promise<BadgeView[]> {
  return viewsOf(deps.t, await badgeRows(deps.db, deps.community).where('user_id', '=', userId).orderBy('id').execute());
}

/** The badges of several members at once (GraphQL's User.badges for a page of members): one query. */
export async function badgesOfMembers(deps: BadgeReadDeps, userIds: readonly number[]): Promise<Map<number, BadgeView[]>> {
  const out = new Map<number, BadgeView[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await badgeRows(deps.db, deps.community).where('user_id', 'in', [...userIds]).orderBy('id').execute();
  for (const id of out.keys()) out.set(id, viewsOf(deps.t, rows.filter((r) => r.user_id === id)));
  return out;
}

/**
 * /badges: the member's badges, and those they can still earn with how: every earned badge they lack
 * (but founding member, which only the founders hold), the next years of membership, and the staff's.
 */
export async function badgesPage(deps: BadgeReadDeps, userId: number): Promise<BadgesPageData> {
  const rows = await badgeRows(deps.db, deps.community).where('user_id', '=', userId).orderBy('id').execute();
  const held = viewsOf(deps.t, rows);
  const has = new Set(rows.map((r) => `${r.badge}:${r.level}`));
  const toEarn: BadgeToEarn[] = [];
  for (const key of ALL_BADGES) {
    if (key === 'founding_member') continue;
    if (key === 'years') {
      const next = YEAR_LEVELS.find((years) => !has.has(`years:${years}`));
      if (next) toEarn.push({ key, level: next, name: nameOf(deps.t, key, next), how: howOf(deps.t, key, next) });
      continue;
    }
    if (!has.has(`${key}:0`)) toEarn.push({ key, level: 0, name: nameOf(deps.t, key, 0), how: howOf(deps.t, key, 0) });
  }
  return { held, toEarn };
}
