import { sql, type RawBuilder } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { parseId } from '#src/core/ids.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import type { FeaturedKind } from '#src/db/types.ts';
import { forgetBankUsage, recordBankUsage } from '#src/features/content-bank/index.ts';
import { ensureStaff, feedIdOf, feedsTransaction, type FeedsDeps, type FeedsViewer } from './deps.ts';
import { eventInputOf, featuredExpiryOf } from './input.ts';
import { featurableOf, liveItemOf } from './items.ts';
import { logFeedChange } from './log.ts';
import { FEATURED_STATES, ITEM_KINDS, type EventForm, type FeaturableItem, type FeaturedRow, type FeaturedState, type ItemKind } from './types.ts';

/**
 * The staff's featured items (/admin/feeds/featured, GraphQL's admin operations): find an item of the
 * community (a published article, a published roundup, a live offer for everyone, a forum post) by
 * its title and feature it, or feature an event link; pin, unpin, unfeature; the list by state.
 * Every change is a line of the feeds' log.
 */

export const SEARCH_RESULTS = 20;
const SEARCH_MAX = 100;
export const STAFF_PAGE = 50;

export function itemKindOf(value: unknown): ItemKind {
  const v = typeof value === 'string' ? value.toLowerCase() : '';
  if (!(ITEM_KINDS as readonly string[]).includes(v)) throw new AppError('Feeds.Invalid', { fields: { kind: { code: 'Feeds.Invalid', key: 'feedsAdmin.errors.kindRequired' } } });
  return v as ItemKind;
}

export function featuredStateOf(value: unknown): FeaturedState | null {
  if (value == null || value === '') return null;
  const v = typeof value === 'string' ? value.toLowerCase() : '';
  if (!(FEATURED_STATES as readonly string[]).includes(v)) throw new AppError('BadRequest.Validation');
  return v as FeaturedState;
}

/** Search words (they reach SQL): no control character, at most SEARCH_MAX characters; null for none. */
function searchWords(value: unknown): string | null {
  if (value == null) return null;
  if (typeof value !== 'string' || hasForbiddenCharacters(value)) throw new AppError('BadRequest.Validation');
  const q = value.replace(/\s+/g, ' ').trim().slice(0, SEARCH_MAX);
  return q || null;
}

type ItemRow = { id: number; title: string; path: string; at: Date | string | null; featured: boolean };

/** Items of a kind whose title holds the words (or the newest, without words), newest first, each marked when featured already. */
export async function searchFeaturable(deps: FeedsDeps, viewer: FeedsViewer, kindValue: unknown, q: unknown): Promise<FeaturableItem[]> {
  ensureStaff(viewer);
  const kind = itemKindOf(kindValue);
  const words = searchWords(q);
  const rows = featurableOf(deps, kind, deps.clock.now());
  if (!rows) return [];
  const like = words ? `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const { rows: found } = await sql<ItemRow>`select v.id, v.title, v.path, v.at,
      exists (select 1 from feed_featured f where f.community_id = ${deps.community.id} and f.kind = ${kind} and f.item_id = v.id) as featured
    from (${rows}) v ${like ? sql`where v.title ilike ${like}` : sql``}
    order by v.at desc nulls last, v.id desc limit ${SEARCH_RESULTS}`.execute(deps.db);
  return found.map((r) => ({ kind, id: r.id, title: r.title, path: r.path, at: r.at ? new Date(r.at) : null, featured: r.featured }));
}

/** The featured kinds the content bank knows (its usage column): articles and roundups. */
const isBankKind = (kind: string): kind is 'article' | 'roundup' => kind === 'article' || kind === 'roundup';

/** Features an item of the community (it must be there to be seen now); an item is featured once ('Feeds.AlreadyFeatured'). Returns the featured row's id. */
export async function featureItem(deps: FeedsDeps, viewer: FeedsViewer, input: { kind: unknown; itemId: unknown; pinned?: boolean; endsAt?: string }): Promise<number> {
  ensureStaff(viewer);
  const kind = itemKindOf(input.kind);
  const itemId = parseId(input.itemId);
  const gone = () => new AppError('Feeds.Invalid', { fields: { itemId: { code: 'Feeds.Invalid', key: 'feedsAdmin.errors.itemGone' } } });
  if (itemId === null) throw gone();
  const now = deps.clock.now();
  const endsAt = featuredExpiryOf(input.endsAt ?? '', now);
  const rows = featurableOf(deps, kind, now);
  const item = rows ? (await sql<{ title: string }>`select v.title from (${rows}) v where v.id = ${itemId}`.execute(deps.db)).rows[0] : undefined;
  if (!item) throw gone();
  try {
    return await feedsTransaction(deps.db, async (trx) => {
      const already = await selectInCommunity(trx, 'feed_featured', deps.community).select('id').where('kind', '=', kind).where('item_id', '=', itemId).executeTakeFirst();
      if (already) throw new AppError('Feeds.AlreadyFeatured');
      const { id } = await insertInCommunity(trx, 'feed_featured', deps.community, { kind, item_id: itemId, title: item.title, pinned: input.pinned ?? false, ends_at: endsAt, created_by: viewer.userId, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      await logFeedChange(trx, deps.community, { subject: 'featured', subjectId: id, title: item.title, action: 'featured', actorId: viewer.userId, at: now });
      // The content bank's usage of its kinds (articles, roundups): "featured on the members' feed", in this transaction.
      if (isBankKind(kind)) await recordBankUsage(trx, deps.community, { key: { kind, id: itemId }, area: 'feeds', what: 'featured', ref: String(id), label: item.title, path: '/admin/feeds/featured', at: now });
      return id;
    });
  } catch (e) {
    // Two staff featuring the same item at once: the second meets the unique index.
    if ((e as { code?: unknown } | null)?.code === '23505') throw new AppError('Feeds.AlreadyFeatured');
    throw e;
  }
}

/** Features an event link (title, web address, date, place); it leaves the feed when its day is over unless an expiry is given. */
export async function featureEvent(deps: FeedsDeps, viewer: FeedsViewer, form: EventForm): Promise<number> {
  ensureStaff(viewer);
  const now = deps.clock.now();
  const e = eventInputOf(form, now);
  return feedsTransaction(deps.db, async (trx) => {
    const { id } = await insertInCommunity(trx, 'feed_featured', deps.community, { kind: 'event', title: e.title, url: e.url, event_at: e.eventAt, place: e.place, pinned: e.pinned, ends_at: e.endsAt, created_by: viewer.userId, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await logFeedChange(trx, deps.community, { subject: 'featured', subjectId: id, title: e.title, action: 'featured', actorId: viewer.userId, at: now });
    return id;
  });
}

/** Pins, unpins or unfeatures a featured item, logged (doing what is done already changes nothing). */
export async function changeFeatured(deps: FeedsDeps, viewer: FeedsViewer, featuredId: unknown, change: 'pin' | 'unpin' | 'unfeature'): Promise<void> {
  ensureStaff(viewer);
  const id = feedIdOf(featuredId);
  await feedsTransaction(deps.db, async (trx) => {
    const f = await selectInCommunity(trx, 'feed_featured', deps.community).select(['title', 'pinned']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!f) throw new AppError('Feeds.NotFound');
    const now = deps.clock.now();
    if (change === 'unfeature') {
      await deleteInCommunity(trx, 'feed_featured', deps.community).where('id', '=', id).execute();
      await forgetBankUsage(trx, deps.community, { area: 'feeds', ref: String(id) });
    } else if (f.pinned !== (change === 'pin')) await updateInCommunity(trx, 'feed_featured', deps.community).set({ pinned: change === 'pin', updated_at: now }).where('id', '=', id).execute();
    else return;
    await logFeedChange(trx, deps.community, { subject: 'featured', subjectId: id, title: f.title, action: change === 'unfeature' ? 'unfeatured' : change === 'pin' ? 'pinned' : 'unpinned', actorId: viewer.userId, at: now });
  });
}

type FeaturedRaw = {
  id: number;
  kind: FeaturedKind;
  item_id: number | null;
  title: string;
  live_title: string | null;
  url: string | null;
  live_path: string | null;
  pinned: boolean;
  ends_at: Date | string | null;
  event_at: Date | string | null;
  place: string | null;
  created_at: Date | string;
  first_name: string | null;
  last_name: string | null;
};

const date = (v: Date | string | null) => (v === null ? null : new Date(v));

/** Featured rows with their items as they are now, newest first (`filter`: more of the where clause). */
async function featuredRows(deps: FeedsDeps, filter: RawBuilder<unknown>, limit: number): Promise<FeaturedRow[]> {
  const now = deps.clock.now();
  const { rows } = await sql<FeaturedRaw>`select f.id, f.kind, f.item_id, f.title, live.title as live_title, f.url, live.path as live_path, f.pinned, f.ends_at, f.event_at, f.place, f.created_at, u.first_name, u.last_name
    from feed_featured f
    left join lateral ${liveItemOf(deps, now)} live on true
    left join users u on u.id = f.created_by
    where f.community_id = ${deps.community.id} ${filter}
    order by f.id desc limit ${limit}`.execute(deps.db);
  return rows.map((r) => {
    const endsAt = date(r.ends_at);
    const gone = r.kind !== 'event' && r.live_path === null;
    return {
      id: r.id,
      kind: r.kind,
      itemId: r.item_id,
      title: r.live_title ?? r.title,
      url: r.kind === 'event' ? r.url : r.live_path,
      state: endsAt && endsAt <= now ? 'expired' : gone ? 'gone' : 'live',
      pinned: r.pinned,
      endsAt,
      eventAt: date(r.event_at),
      place: r.place,
      featuredAt: new Date(r.created_at),
      featuredBy: r.first_name ? `${r.first_name} ${r.last_name}`.trim() : null,
    };
  });
}

/** The community's featured items in a state (or all), newest first, 50 a page (`after`: the last id shown). */
export async function listFeatured(deps: FeedsDeps, viewer: FeedsViewer, input: { state?: FeaturedState | null; after?: number | null } = {}): Promise<{ rows: FeaturedRow[]; next: number | null }> {
  ensureStaff(viewer);
  const after = input.after ?? null;
  if (after !== null && (!Number.isSafeInteger(after) || after < 1 || after > 2_147_483_647)) throw new AppError('BadRequest.Validation');
  const now = deps.clock.now();
  const notExpired = sql`(f.ends_at is null or f.ends_at > ${now})`;
  const there = sql`(f.kind = 'event' or live.path is not null)`;
  const state = {
    live: sql`and ${notExpired} and ${there}`,
    expired: sql`and not ${notExpired}`,
    gone: sql`and ${notExpired} and not ${there}`,
  };
  const rows = await featuredRows(deps, sql`${input.state ? state[input.state] : sql``} ${after !== null ? sql`and f.id < ${after}` : sql``}`, STAFF_PAGE + 1);
  const page = rows.slice(0, STAFF_PAGE);
  return { rows: page, next: rows.length > STAFF_PAGE ? page.at(-1)!.id : null };
}

/** One featured item for staff (the GraphQL answer after a change). */
export async function getFeatured(deps: FeedsDeps, viewer: FeedsViewer, featuredId: unknown): Promise<FeaturedRow> {
  ensureStaff(viewer);
  const id = feedIdOf(featuredId);
  const [row] = await featuredRows(deps, sql`and f.id = ${id}`, 1);
  if (!row) throw new AppError('Feeds.NotFound');
  return row;
}
