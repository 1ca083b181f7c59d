import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { SyndicationFeedEntry, SyndicationItemType } from '#src/db/types.ts';
import { COMMUNITIES_CHANNEL } from '#src/features/communities/index.ts';
import { bankChoices } from '#src/features/content-bank/index.ts';
import { addressesOf, hostsOf, originOf } from './addresses.ts';
import { ensureStaff, syndicationTransaction, type SyndicationDeps, type SyndicationViewer } from './deps.ts';
import { feedColumnsOf, isItemType, slugTaken, type FeedColumns } from './feed-input.ts';
import { absoluteItems, loadFeedItems } from './items.ts';
import type { FeedActionRow, FeedChoices, FeedForm, StaffFeedDetail, StaffFeedRow } from './types.ts';

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

type Filters = { types: SyndicationItemType[]; tags: number[]; collections: number[] };
const noFilters = (): Filters => ({ types: [], tags: [], collections: [] });

/** The filters of each feed (its 'type', 'tag' and 'collection' rows), by feed id. */
async function filtersOf(db: Db, community: Tenant, feedIds: number[]): Promise<Map<number, Filters>> {
  const byFeed = new Map<number, Filters>();
  if (!feedIds.length) return byFeed;
  const rows = await selectInCommunity(db, 'syndication_feed_filters', community).select(['feed_id', 'kind', 'value']).where('feed_id', 'in', feedIds).orderBy('value').execute();
  for (const r of rows) {
    const f = byFeed.get(r.feed_id) ?? noFilters();
    byFeed.set(r.feed_id, f);
    if (r.kind === 'type' && isItemType(r.value)) f.types.push(r.value);
    else if (r.kind === 'tag') f.tags.push(Number(r.value));
    else if (r.kind === 'collection') f.collections.push(Number(r.value));
  }
  for (const f of byFeed.values()) for (const list of [f.tags, f.collections]) list.sort((a, b) => a - b);
  return byFeed;
}

const rowOf = (f: FeedRowDb, filters: Filters, origin: string): StaffFeedRow => ({
  id: f.id,
  slug: f.slug,
  title: f.title,
  description: f.description,
  types: filters.types,
  tags: filters.tags,
  collections: filters.collections,
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
  const filters = await filtersOf(deps.db, deps.community, rows.map((r) => r.id));
  return rows.map((r) => rowOf(r, filters.get(r.id) ?? noFilters(), origin));
}

/** The community's content bank tags and collections a feed may choose by (the bank's face). */
export async function feedChoices(deps: Pick<SyndicationDeps, 'db' | 'community'>, viewer: SyndicationViewer): Promise<FeedChoices> {
  ensureStaff(viewer);
  return bankChoices(deps.db, deps.community);
}

/** Refuses, beside its field, a tag or collection that is not this community's (unknown, deleted, another's). */
async function ensureChoices(db: Db, community: Tenant, columns: FeedColumns): Promise<void> {
  if (!columns.tags.length && !columns.collections.length) return;
  const choices = await bankChoices(db, community);
  const fields: Record<string, { code: 'Syndication.Invalid'; key: string }> = {};
  const known = (list: { id: number }[]) => new Set(list.map((c) => c.id));
  const tags = known(choices.tags);
  const collections = known(choices.collections);
  if (!columns.tags.every((id) => tags.has(id))) fields.tags = { code: 'Syndication.Invalid', key: 'syndication.errors.unknownTag' };
  if (!columns.collections.every((id) => collections.has(id))) fields.collections = { code: 'Syndication.Invalid', key: 'syndication.errors.unknownCollection' };
  if (Object.keys(fields).length) throw new AppError('Syndication.Invalid', { fields });
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
  const [filters, origin, log] = await Promise.all([filtersOf(deps.db, deps.community, [id]), originFor(deps), feedsLog(deps, viewer, id)]);
  const feed = rowOf(row, filters.get(id) ?? noFilters(), origin);
  const preview = absoluteItems(await loadFeedItems(deps.db, deps.community, { types: feed.types, tags: feed.tags.map(String), collections: feed.collections.map(String), limit: feed.limit }), origin);
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

/** Rewrites a feed's filter rows: its types, tags and collections. */
async function writeFilters(trx: Db, community: Tenant, feedId: number, c: Pick<FeedColumns, 'types' | 'tags' | 'collections'>) {
  await deleteInCommunity(trx, 'syndication_feed_filters', community).where('feed_id', '=', feedId).execute();
  const rows = [
    ...c.types.map((value) => ({ feed_id: feedId, kind: 'type' as const, value })),
    ...c.tags.map((id) => ({ feed_id: feedId, kind: 'tag' as const, value: String(id) })),
    ...c.collections.map((id) => ({ feed_id: feedId, kind: 'collection' as const, value: String(id) })),
  ];
  if (rows.length) await insertInCommunity(trx, 'syndication_feed_filters', community, rows).execute();
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

const chosen = (c: Pick<FeedColumns, 'tags' | 'collections'>) => [c.tags.length ? `tags ${c.tags.join(', ')}` : '', c.collections.length ? `collections ${c.collections.join(', ')}` : ''].filter(Boolean).join('; ');
const describe = (c: FeedColumns) => `${c.title} (${[c.types.join(', '), chosen(c), String(c.item_limit), c.enabled ? 'enabled' : 'disabled'].filter(Boolean).join('; ')})`;

/** A new feed; its creation is the log's first line. Returns its id. */
export async function createFeed(deps: SyndicationDeps, viewer: SyndicationViewer, form: FeedForm): Promise<number> {
  ensureStaff(viewer);
  const columns = feedColumnsOf(form);
  return change(deps, async (trx, now) => {
    const count = await selectInCommunity(trx, 'syndication_feeds', deps.community).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(count.n) >= FEEDS_MAX) throw new AppError('Syndication.Invalid', { fields: { title: { code: 'Syndication.Invalid', key: 'syndication.errors.tooMany', values: { max: FEEDS_MAX } } } });
    await ensureChoices(trx, deps.community, columns);
    const { types, tags, collections, ...rest } = columns;
    const { id } = await insertInCommunity(trx, 'syndication_feeds', deps.community, { ...rest, created_by: viewer.userId, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    await writeFilters(trx, deps.community, id, { types, tags, collections });
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
    await ensureChoices(trx, deps.community, columns);
    const oldFilters = (await filtersOf(trx, deps.community, [id])).get(id) ?? noFilters();
    const oldTypes = oldFilters.types;
    const changes: string[] = [];
    if (old.title !== columns.title) changes.push(`title: ${columns.title}`);
    if (old.slug !== columns.slug) changes.push(`address: ${old.slug} → ${columns.slug}`);
    if (old.description !== columns.description) changes.push('description');
    if (old.item_limit !== columns.item_limit) changes.push(`items: ${old.item_limit} → ${columns.item_limit}`);
    if (oldTypes.join(',') !== columns.types.join(',')) changes.push(`types: ${oldTypes.join(', ') || '—'} → ${columns.types.join(', ')}`);
    if (chosen(oldFilters) !== chosen(columns)) changes.push(`chosen by: ${chosen(oldFilters) || '—'} → ${chosen(columns) || '—'}`);
    if (old.enabled !== columns.enabled) changes.push(columns.enabled ? 'enabled' : 'disabled');
    if (!changes.length) return id;
    const { types, tags, collections, ...rest } = columns;
    await updateInCommunity(trx, 'syndication_feeds', deps.community).set({ ...rest, updated_at: now }).where('id', '=', id).execute();
    await writeFilters(trx, deps.community, id, { types, tags, collections });
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
