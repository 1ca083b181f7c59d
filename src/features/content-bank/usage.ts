import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { BankKey, BankUsageRow } from './types.ts';

/**
 * Where a library item was used (decision 0061): one row per (area, the area's own reference, item),
 * reported by the area that used it, in its own transaction: the team messages report the items a
 * sent message links to; the feeds (featured items) and syndication areas report theirs through the
 * same two calls when they land. The bank reads them on an item's page; it never reads their tables.
 */

export type BankUsageReport = {
  key: BankKey;
  /** The reporting area ('messages', 'feeds', 'syndication'). */
  area: string;
  /** How it was used there: 'sent', 'featured', 'syndicated'. */
  what: string;
  /** The area's own reference (a message's id, a featured item's id, a feed's id): one row per reference and item. */
  ref: string;
  /** What staff read (a message's subject, a feed's name). */
  label: string;
  /** Where staff open that use (an application path), if anywhere. */
  path: string | null;
  at: Date;
};

const clip = (s: string, n: number) => (s.length > n ? s.slice(0, n) : s);

/** Records a use (again: its label, path and time are updated). */
export async function recordBankUsage(db: Db, community: Tenant, report: BankUsageReport): Promise<void> {
  await insertInCommunity(db, 'bank_usage', community, {
    kind: report.key.kind,
    item_id: report.key.id,
    area: clip(report.area, 40),
    what: clip(report.what, 40),
    ref: clip(report.ref, 200),
    label: clip(report.label, 300),
    path: report.path ? clip(report.path, 500) : null,
    used_at: report.at,
  })
    .onConflict((oc) => oc.columns(['community_id', 'area', 'ref', 'kind', 'item_id']).doUpdateSet((eb) => ({ what: eb.ref('excluded.what'), label: eb.ref('excluded.label'), path: eb.ref('excluded.path'), used_at: eb.ref('excluded.used_at') })))
    .execute();
}

/** Forgets an area's uses under one reference (an announcement unfeatured, a feed deleted): every item, or only `key`'s. */
export async function forgetBankUsage(db: Db, community: Tenant, input: { area: string; ref: string; key?: BankKey }): Promise<void> {
  let q = deleteInCommunity(db, 'bank_usage', community).where('area', '=', input.area).where('ref', '=', input.ref);
  if (input.key) q = q.where('kind', '=', input.key.kind).where('item_id', '=', input.key.id);
  await q.execute();
}

/** The addresses an HTML text links to, as the bank stores them: absolute, and (under our public address) the application path too. */
export function linkTargets(html: string, publicUrl: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/href\s*=\s*"([^"]{1,2000})"/gi)) {
    const href = m[1]!.replace(/&amp;/g, '&');
    out.add(href);
    if (publicUrl && href.startsWith(`${publicUrl}/`)) out.add(href.slice(publicUrl.length));
    if (out.size >= 200) break;
  }
  return [...out];
}

/** The library's items an HTML text links to (by their address), one statement. */
export async function bankKeysLinkedIn(db: Db, community: Tenant, html: string, publicUrl: string): Promise<BankKey[]> {
  const targets = linkTargets(html, publicUrl);
  if (targets.length === 0) return [];
  const rows = await selectInCommunity(db, 'bank_entries', community).select(['kind', 'item_id']).where('url', 'in', targets).execute();
  return rows.map((r) => ({ kind: r.kind, id: r.item_id }));
}

/**
 * Records a use for every library item an HTML text links to (a team message when it is sent): one
 * call in the reporting area's transaction.
 */
export async function recordLinkedUsage(db: Db, community: Tenant, input: { html: string; publicUrl: string } & Omit<BankUsageReport, 'key'>): Promise<number> {
  const { html, publicUrl, ...report } = input;
  const keys = await bankKeysLinkedIn(db, community, html, publicUrl);
  for (const key of keys) await recordBankUsage(db, community, { ...report, key });
  return keys.length;
}

/** An item's uses, newest first (at most 50). */
export async function usageOf(db: Db, community: Tenant, key: BankKey): Promise<BankUsageRow[]> {
  const rows = await selectInCommunity(db, 'bank_usage', community)
    .select(['area', 'what', 'label', 'path', 'used_at'])
    .where('kind', '=', key.kind)
    .where('item_id', '=', key.id)
    .orderBy(sql`used_at desc`)
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
  return rows.map((r) => ({ area: r.area, what: r.what, label: r.label, path: r.path, at: r.used_at }));
}

/**
 * The syndication feeds that choose this item by the bank's tags and collections (decision 0061):
 * computed, not recorded, from the community's row (`communities.syndication_feeds`, the enabled feeds
 * the syndication area keeps there) and the item's own tags and collections, with the rule the feeds
 * use (every tag of the feed, any of its collections, a type it carries). A record made when a feed
 * is saved would go stale when an item is tagged later; this is right at once and costs one read of
 * the community's row. Feeds without tags or collections (all public work, newest first) are not
 * listed: they are the community's whole feed, not a use of this item.
 */
export async function syndicatedUsage(db: Db, community: Tenant, key: BankKey, tagIds: readonly number[], collectionIds: readonly number[]): Promise<BankUsageRow[]> {
  if (key.kind !== 'article' && key.kind !== 'roundup') return [];
  const row = await db.selectFrom('communities').select('syndication_feeds').where('id', '=', community.id).executeTakeFirst();
  const feeds = Array.isArray(row?.syndication_feeds) ? row.syndication_feeds : [];
  const tags = new Set(tagIds.map(String));
  const collections = new Set(collectionIds.map(String));
  return feeds
    .filter((f) => f.types.includes(key.kind as 'article' | 'roundup') && (f.tags.length > 0 || f.collections.length > 0))
    .filter((f) => f.tags.every((t) => tags.has(t)) && (f.collections.length === 0 || f.collections.some((c) => collections.has(c))))
    .map((f) => ({ area: 'syndication', what: 'syndicated', label: f.title, path: `/admin/feeds/syndication/${f.id}`, at: new Date(f.updatedAt) }));
}
