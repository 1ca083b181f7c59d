import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { SyndicationFeedEntry, SyndicationItemType } from '#src/db/types.ts';
import { COMMUNITIES_CHANNEL } from '#src/features/communities/index.ts';
import { addressesOf, hostsOf, originOf } from './addresses.ts';
import { ensureStaff, syndicationTransaction, type SyndicationDeps, type SyndicationViewer } from './deps.ts';
import { feedColumnsOf, isItemType, slugTaken, type FeedColumns } from './feed-input.ts';
import { absoluteItems, loadFeedItems } from './items.ts';
import type { FeedActionRow, FeedForm, StaffFeedDetail, StaffFeedRow } from './types.ts';

/**
 * The staff's syndication feeds (/admin/feeds/syndication, GraphQL's admin operations): every feed of
 * the community with its three addresses, one feed's form with the items it carries now, created,
 * saved, enabled, disabled and deleted; every change is one line of the log with who and when.
 *
 * Each change also rewrites the community's copy of its enabled feeds (communities.syndication_feeds:
 * what pages advertise and feed addresses serve, with no read of these tables) in the same
 * transaction, under a lock of the community's row so two changes at once cannot leave a stale copy,
 * and announces it (communities_changed): every process forgets its cached community. The caller's
 * own process is told by `deps.changed()` once the change commits.
 */

/** The most feeds a community keeps. */
export const FEEDS_MAX = 50;
const LOG_LINES = 50;

const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === '23505';

export function feedIdOf(value: unknown): number {
  const id = parseId(value);
  if (id === null) throw new AppError('Syndication.NotFound');
  return id;
}

type FeedRowDb = { id: number; slug: string; title: string; description: string; item_limit: number; enabled: boolean; updated_at: Date | string };

/** The types of each feed (its 'type' filter rows), by feed id. */
async function typesOf(db: Db, community: Tenant, feedIds: number[]): Promise<Map<number, SyndicationItemType[]>> {
  const byFeed = new Map<number, SyndicationItemType[]>();
  if (!feedIds.length) return byFeed;
  const rows = await selectInCommunity(db, 'syndication_feed_filters', community).select(['feed_id', 'value']).where('kind', '=', 'type').where('feed_id', 'in', feedIds).orderBy('value').execute();
  for (const r of rows) if (isItemType(r.value)) byFeed.set(r.feed_id, [...(byFeed.get(r.feed_id) ?? []), r.value]);
  return byFeed;
}

const rowOf = (f: FeedRowDb, types: SyndicationItemType[], origin: string): StaffFeedRow => ({
  id: f.id,
  slug: f.slug,
  title: f.title,
  description: f.description,
  types,
  limit: f.item_limit,
  enabled: f.enabled,
  updatedAt: new Date(f.updated_at),
  addresses: addressesOf(origin, f.slug),
});

async function originFor(deps: SyndicationDeps): Promise<string> {
  return originOf(deps.site, await hostsOf(deps.db, deps.community));
}

const FEED_COLUMNS = ['id', 'slug', 'title', 'description', 'item_limit', 'enabled', 'updated_at'] as const;

/** Every feed of the community by title, with its types and addresses. */
export async function listFeeds(deps: SyndicationDeps, viewer: SyndicationViewer): Promise<StaffFeedRow[]> {
  ensureStaff(viewer);
  const [rows, origin] = await Promise.all([
    selectInCommunity(deps.db, 'syndication_feeds', deps.community)
      .select([...FEED_COLUMNS])
      .orderBy((eb) => eb.fn('lower', ['title']))
      .orderBy('id')
      .limit(FEEDS_MAX)
      .execute(),
    originFor(deps),
  ]);
  const types = await typesOf(deps.db, deps.community, rows.map((r) => r.id));
  return rows.map((r) => rowOf(r, types.get(r.id) ?? [], origin));
}

function logRowsOf(rows: { id: number; feed_id: number | null; feed_slug: string; action: string; detail: string; created_at: Date | string; first_name: string | null; last_name: string | null }[]): FeedActionRow[] {
  return rows.map((l) => ({
    id: l.id,
    feedId: l.feed_id,
    feedSlug: l.feed_slug,
    actorName: l.first_name == null ? null : `${l.first_name} ${l.last_name ?? ''}`.trim(),
    action: l.action,
    detail: l.detail,
    createdAt: new Date(l.created_at),
  }));
}

/** The latest changes to the community's feeds (or to one feed), newest first. */
export async function feedsLog(deps: Pick<SyndicationDeps, 'db' | 'community'>, viewer: SyndicationViewer, feedId?: number): Promise<FeedActionRow[]> {
  ensureStaff(viewer);
  let q = selectInCommunityAs(deps.db, 'syndication_feed_actions', 'a', deps.community)
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .select(['a.id', 'a.feed_id', 'a.feed_slug', 'a.action', 'a.detail', 'a.created_at', 'u.first_name', 'u.last_name']);
  if (feedId !== undefined) q = q.where('a.feed_id', '=', feedId);
  return logRowsOf(await q.orderBy('a.id', 'desc').limit(LOG_LINES).execute());
}

/** One feed for staff: its fields and addresses, the items it carries now (as its readers get them) and its log. */
export async function getFeed(deps: SyndicationDeps, viewer: SyndicationViewer, feedId: unknown): Promise<StaffFeedDetail> {
  ensureStaff(viewer);
  const id = feedIdOf(feedId);
  const row = await selectInCommunity(deps.db, 'syndication_feeds', deps.community).select([...FEED_COLUMNS]).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('Syndication.NotFound');
  const [types, origin, log] = await Promise.all([typesOf(deps.db, deps.community, [id]), originFor(deps), feedsLog(deps, viewer, id)]);
  const feed = rowOf(row, types.get(id) ?? [], origin);
  const preview = absoluteItems(await loadFeedItems(deps.db, deps.community, { types: feed.types, limit: feed.limit }), origin);
  return { ...feed, preview, log };
}

async function logAction(trx: Db, community: Tenant, line: { feedId: number | null; slug: string; actorId: number; action: string; detail: string; at: Date }) {
  await insertInCommunity(trx, 'syndication_feed_actions', community, { feed_id: line.feedId, feed_slug: line.slug, actor_id: line.actorId, action: line.action, detail: line.detail, created_at: line.at }).execute();
}

/** Holds the community's row for this transaction: the changes of its feeds (and their copy on the row) happen one at a time. */
async function lockCommunity(trx: Db, community: Tenant) {
  await trx.selectFrom('communities').select('id').where('id', '=', community.id).forUpdate().execute();
}

/** Rewrites the community's copy of its enabled feeds (what pages advertise, what feed addresses serve) and announces it. */
export async function publishFeedList(trx: Db, community: Tenant): Promise<SyndicationFeedEntry[]> {
  const rows = await selectInCommunity(trx, 'syndication_feeds', community)
    .select(['id', 'slug', 'title', 'description', 'item_limit', 'updated_at'])
    .where('enabled', '=', true)
    .orderBy((eb) => eb.fn('lower', ['title']))
    .orderBy('id')
    .execute();
  const filters = rows.length
    ? await selectInCommunity(trx, 'syndication_feed_filters', community).select(['feed_id', 'kind', 'value']).where('feed_id', 'in', rows.map((r) => r.id)).orderBy('value').execute()
    : [];
  const of = (feedId: number, kind: string) => filters.filter((f) => f.feed_id === feedId && f.kind === kind).map((f) => f.value);
  const entries: SyndicationFeedEntry[] = rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    title: r.title,
    description: r.description,
    limit: r.item_limit,
    types: of(r.id, 'type').filter(isItemType),
    tags: of(r.id, 'tag'),
    collections: of(r.id, 'collection'),
    updatedAt: new Date(r.updated_at).toISOString(),
  }));
  await trx.updateTable('communities').set({ syndication_feeds: JSON.stringify(entries) }).where('id', '=', community.id).execute();
  await sql`select pg_notify(${COMMUNITIES_CHANNEL}, '')`.execute(trx);
  return entries;
}

async function writeTypes(trx: Db, community: Tenant, feedId: number, types: SyndicationItemType[]) {
  await deleteInCommunity(trx, 'syndication_feed_filters', community).where('feed_id', '=', feedId).where('kind', '=', 'type').execute();
  if (types.length) await insertInCommunity(trx, 'syndication_feed_filters', community, types.map((value) => ({ feed_id: feedId, kind: 'type' as const, value }))).execute();
}

/** A staff change: in one retried transaction with the community's row held, then this process told. */
async function change<T>(deps: SyndicationDeps, fn: (trx: Db, now: Date) => Promise<T>): Promise<T> {
  try {
    const out = await syndicationTransaction(deps.db, async (trx) => {
      await lockCommunity(trx, deps.community);
      const result = await fn(trx, deps.clock.now());
      await publishFeedList(trx, deps.community);
      return result;
    });
    deps.changed();
    return out;
  } catch (e) {
    if (isUniqueViolation(e)) throw slugTaken();
    throw e;
  }
}

const describe = (c: FeedColumns) => `${c.title} (${c.types.join(', ')}; ${c.item_limit}; ${c.enabled ? 'enabled' : 'disabled'})`;

/** A new feed; its creation is the log's first line. Returns its id. */
export async function createFeed(deps: SyndicationDeps, viewer: SyndicationViewer, form: FeedForm): Promise<number> {
  ensureStaff(viewer);
  const columns = feedColumnsOf(form);
  return change(deps, async (trx, now) => {
    const count = await selectInCommunity(trx, 'syndication_feeds', deps.community).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(count.n) >= FEEDS_MAX) throw new AppError('Syndication.Invalid', { fields: { title: { code: 'Syndication.Invalid', key: 'syndication.errors.tooMany', values: { max: FEEDS_MAX } } } });
    const { types, ...rest } = columns;
    const { id } = await insertInCommunity(trx, 'syndication_feeds', deps.community, { ...rest, created_by: viewer.userId, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    await writeTypes(trx, deps.community, id, types);
    await logAction(trx, deps.community, { feedId: id, slug: columns.slug, actorId: viewer.userId, action: 'created', detail: describe(columns), at: now });
    return id;
  });
}

/** Saves a feed's fields; what changed is logged. */
export async function updateFeed(deps: SyndicationDeps, viewer: SyndicationViewer, feedId: unknown, form: FeedForm): Promise<number> {
  ensureStaff(viewer);
  const id = feedIdOf(feedId);
  const columns = feedColumnsOf(form);
  return change(deps, async (trx, now) => {
    const old = await selectInCommunity(trx, 'syndication_feeds', deps.community).select(['slug', 'title', 'description', 'item_limit', 'enabled']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!old) throw new AppError('Syndication.NotFound');
    const oldTypes = (await typesOf(trx, deps.community, [id])).get(id) ?? [];
    const changes: string[] = [];
    if (old.title !== columns.title) changes.push(`title: ${columns.title}`);
    if (old.slug !== columns.slug) changes.push(`address: ${old.slug} → ${columns.slug}`);
    if (old.description !== columns.description) changes.push('description');
    if (old.item_limit !== columns.item_limit) changes.push(`items: ${old.item_limit} → ${columns.item_limit}`);
    if (oldTypes.join(',') !== columns.types.join(',')) changes.push(`types: ${oldTypes.join(', ') || '—'} → ${columns.types.join(', ')}`);
    if (old.enabled !== columns.enabled) changes.push(columns.enabled ? 'enabled' : 'disabled');
    if (!changes.length) return id;
    const { types, ...rest } = columns;
    await updateInCommunity(trx, 'syndication_feeds', deps.community).set({ ...rest, updated_at: now }).where('id', '=', id).execute();
    await writeTypes(trx, deps.community, id, types);
    await logAction(trx, deps.community, { feedId: id, slug: columns.slug, actorId: viewer.userId, action: 'updated', detail: changes.join('; '), at: now });
    return id;
  });
}

/** Turns a feed on or off (off: its addresses answer 404 and pages stop advertising it); logged when it changes. */
export async function setFeedEnabled(deps: SyndicationDeps, viewer: SyndicationViewer, feedId: unknown, enabled: boolean): Promise<number> {
  ensureStaff(viewer);
  const id = feedIdOf(feedId);
  return change(deps, async (trx, now) => {
    const feed = await selectInCommunity(trx, 'syndication_feeds', deps.community).select(['slug', 'enabled']).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!feed) throw new AppError('Syndication.NotFound');
    if (feed.enabled === enabled) return id;
    await updateInCommunity(trx, 'syndication_feeds', deps.community).set({ enabled, updated_at: now }).where('id', '=', id).execute();
    await logAction(trx, deps.community, { feedId: id, slug: feed.slug, actorId: viewer.userId, action: enabled ? 'enabled' : 'disabled', detail: '', at: now });
    return id;
  });
}

/** Deletes a feed (its addresses answer 404 from now on); the log keeps its lines, with its slug. */
export async function deleteFeed(deps: SyndicationDeps, viewer: SyndicationViewer, feedId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = feedIdOf(feedId);
  await change(deps, async (trx, now) => {
    const gone = await deleteInCommunity(trx, 'syndication_feeds', deps.community).where('id', '=', id).returning(['slug', 'title']).executeTakeFirst();
    if (!gone) throw new AppError('Syndication.NotFound');
    await logAction(trx, deps.community, { feedId: null, slug: gone.slug, actorId: viewer.userId, action: 'deleted', detail: gone.title, at: now });
  });
}
