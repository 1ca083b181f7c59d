import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { bankIdOf, bankTransaction, ensureStaff, type BankDeps, type BankViewer } from './deps.ts';
import { refreshBankIndex } from './index-refresh.ts';
import { choiceOf, itemsOf, requireItem } from './items.ts';
import type { BankCollectionDetail, BankCollectionRow, BankKey } from './types.ts';

/**
 * Collections: named, ordered lists of library items ("Best of 2026"), each item once. Positions are
 * 1..n in the collection; moving an item swaps it with its neighbour, reordering sets them all.
 * An item that leaves the library (unpublished) keeps its place and shows as gone; exports skip it.
 */

export const NAME_MAX = 120;
export const DESCRIPTION_MAX = 1000;
export const ITEMS_MAX = 500;
const COLLECTIONS_MAX = 500;

type Field = 'name' | 'description';
const refuse = (field: Field, key: string, values?: Record<string, unknown>, code: 'ContentBank.Invalid' | 'ContentBank.Taken' = 'ContentBank.Invalid') =>
  new AppError(code, { fields: { [field]: { code, key: `contentBank.errors.${key}`, values } } });

export type CollectionForm = { name: string; description: string };

function formOf(input: { name?: unknown; description?: unknown }): CollectionForm {
  const name = (typeof input.name === 'string' ? input.name : '').replace(/\s+/g, ' ').trim();
  const description = (typeof input.description === 'string' ? input.description : '').trim();
  const fields: Record<string, { code: 'ContentBank.Invalid'; key: string; values?: Record<string, unknown> }> = {};
  if (!name) fields.name = { code: 'ContentBank.Invalid', key: 'contentBank.errors.nameRequired' };
  else if (name.length > NAME_MAX) fields.name = { code: 'ContentBank.Invalid', key: 'contentBank.errors.tooLong', values: { max: NAME_MAX } };
  else if (hasForbiddenCharacters(name)) fields.name = { code: 'ContentBank.Invalid', key: 'contentBank.errors.characters' };
  if (description.length > DESCRIPTION_MAX) fields.description = { code: 'ContentBank.Invalid', key: 'contentBank.errors.tooLong', values: { max: DESCRIPTION_MAX } };
  else if (hasForbiddenCharacters(description, true)) fields.description = { code: 'ContentBank.Invalid', key: 'contentBank.errors.characters' };
  if (Object.keys(fields).length) throw new AppError('ContentBank.Invalid', { fields });
  return { name, description };
}

async function ensureNameFree(trx: Db, deps: BankDeps, name: string, except: number | null) {
  let q = selectInCommunity(trx, 'bank_collections', deps.community).select('id').where(sql`lower(name)`, '=', name.toLowerCase());
  if (except !== null) q = q.where('id', '<>', except);
  if (await q.executeTakeFirst()) throw refuse('name', 'collectionTaken', { name }, 'ContentBank.Taken');
}

function rowQuery(deps: BankDeps) {
  return selectInCommunityAs(deps.db, 'bank_collections', 'c', deps.community).select([
    'c.id',
    'c.name',
    'c.description',
    'c.updated_at',
    sql<number>`(select count(*)::int from bank_collection_items ci where ci.community_id = c.community_id and ci.collection_id = c.id)`.as('item_count'),
  ]);
}

type RowRaw = { id: number; name: string; description: string; updated_at: Date; item_count: number };
const rowOf = (r: RowRaw): BankCollectionRow => ({ id: r.id, name: r.name, description: r.description, itemCount: Number(r.item_count), updatedAt: r.updated_at });

/** The community's collections, by name, each with its item count. */
export async function listCollections(deps: BankDeps, viewer: BankViewer): Promise<BankCollectionRow[]> {
  ensureStaff(viewer);
  const rows = await rowQuery(deps).orderBy(sql`lower(c.name)`).orderBy('c.id').limit(COLLECTIONS_MAX).execute();
  return rows.map(rowOf);
}

/** A new collection; its name is unique in the community whatever its case. Returns its id. */
export async function createCollection(deps: BankDeps, viewer: BankViewer, input: { name?: unknown; description?: unknown }): Promise<number> {
  ensureStaff(viewer);
  const form = formOf(input);
  return bankTransaction(deps.db, async (trx) => {
    await ensureNameFree(trx, deps, form.name, null);
    const count = await selectInCommunity(trx, 'bank_collections', deps.community).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    if (Number(count.n) >= COLLECTIONS_MAX) throw refuse('name', 'tooManyCollections', { max: COLLECTIONS_MAX });
    const now = deps.clock.now();
    const row = await insertInCommunity(trx, 'bank_collections', deps.community, { name: form.name, description: form.description, created_by: viewer.userId, created_at: now, updated_at: now })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) throw refuse('name', 'collectionTaken', { name: form.name }, 'ContentBank.Taken');
    return row.id;
  });
}

/** Renames a collection (and sets its description). */
export async function renameCollection(deps: BankDeps, viewer: BankViewer, collectionId: unknown, input: { name?: unknown; description?: unknown }): Promise<void> {
  ensureStaff(viewer);
  const id = bankIdOf(collectionId);
  const form = formOf(input);
  await bankTransaction(deps.db, async (trx) => {
    await lockCollection(trx, deps, id);
    await ensureNameFree(trx, deps, form.name, id);
    await updateInCommunity(trx, 'bank_collections', deps.community).set({ name: form.name, description: form.description, updated_at: deps.clock.now() }).where('id', '=', id).execute();
  });
}

/** Deletes a collection (its items stay in the library). */
export async function deleteCollection(deps: BankDeps, viewer: BankViewer, collectionId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = bankIdOf(collectionId);
  const gone = await deleteInCommunity(deps.db, 'bank_collections', deps.community).where('id', '=', id).returning('id').executeTakeFirst();
  if (!gone) throw new AppError('ContentBank.NotFound');
}

async function lockCollection(trx: Db, deps: BankDeps, id: number): Promise<void> {
  const row = await selectInCommunity(trx, 'bank_collections', deps.community).select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('ContentBank.NotFound');
}

async function entriesOf(trx: Db, deps: BankDeps, id: number) {
  return selectInCommunity(trx, 'bank_collection_items', deps.community).select(['kind', 'item_id', 'position']).where('collection_id', '=', id).orderBy('position').orderBy('added_at').execute();
}

async function touch(trx: Db, deps: BankDeps, id: number) {
  await updateInCommunity(trx, 'bank_collections', deps.community).set({ updated_at: deps.clock.now() }).where('id', '=', id).execute();
}

/** Adds an item of the library at the end of a collection ('ContentBank.Taken' when it is there already). */
export async function addToCollection(deps: BankDeps, viewer: BankViewer, collectionId: unknown, key: BankKey): Promise<void> {
  ensureStaff(viewer);
  const id = bankIdOf(collectionId);
  await requireItem(deps, key);
  await bankTransaction(deps.db, async (trx) => {
    await lockCollection(trx, deps, id);
    const entries = await entriesOf(trx, deps, id);
    if (entries.some((e) => e.kind === key.kind && e.item_id === key.id)) throw new AppError('ContentBank.Taken', { fields: { collection: { code: 'ContentBank.Taken', key: 'contentBank.errors.alreadyInCollection' } } });
    if (entries.length >= ITEMS_MAX) throw new AppError('ContentBank.Invalid', { fields: { collection: { code: 'ContentBank.Invalid', key: 'contentBank.errors.collectionFull', values: { max: ITEMS_MAX } } } });
    const position = (entries.at(-1)?.position ?? 0) + 1;
    await insertInCommunity(trx, 'bank_collection_items', deps.community, { collection_id: id, kind: key.kind, item_id: key.id, position, added_by: viewer.userId, added_at: deps.clock.now() }).execute();
    await touch(trx, deps, id);
  });
}

/** Takes an item out of a collection (not in it: nothing changes); the others close up. */
export async function removeFromCollection(deps: BankDeps, viewer: BankViewer, collectionId: unknown, key: BankKey): Promise<void> {
  ensureStaff(viewer);
  const id = bankIdOf(collectionId);
  await bankTransaction(deps.db, async (trx) => {
    await lockCollection(trx, deps, id);
    await deleteInCommunity(trx, 'bank_collection_items', deps.community).where('collection_id', '=', id).where('kind', '=', key.kind).where('item_id', '=', key.id).execute();
    await renumber(trx, deps, id, (await entriesOf(trx, deps, id)).map((e) => ({ kind: e.kind, id: e.item_id })));
    await touch(trx, deps, id);
  });
}

/** Positions 1..n in this order (only rows whose position changes are written). */
async function renumber(trx: Db, deps: BankDeps, id: number, order: BankKey[]) {
  const current = new Map((await entriesOf(trx, deps, id)).map((e) => [`${e.kind}:${e.item_id}`, e.position]));
  for (const [i, key] of order.entries()) {
    if (current.get(choiceOf(key)) === i + 1) continue;
    await updateInCommunity(trx, 'bank_collection_items', deps.community).set({ position: i + 1 }).where('collection_id', '=', id).where('kind', '=', key.kind).where('item_id', '=', key.id).execute();
  }
}

/** Moves an item one place up or down (at an end: nothing changes). */
export async function moveInCollection(deps: BankDeps, viewer: BankViewer, collectionId: unknown, key: BankKey, direction: 'up' | 'down'): Promise<void> {
  ensureStaff(viewer);
  const id = bankIdOf(collectionId);
  await bankTransaction(deps.db, async (trx) => {
    await lockCollection(trx, deps, id);
    const order = (await entriesOf(trx, deps, id)).map((e) => ({ kind: e.kind, id: e.item_id }));
    const at = order.findIndex((k) => k.kind === key.kind && k.id === key.id);
    if (at < 0) throw new AppError('ContentBank.NotFound');
    const to = direction === 'up' ? at - 1 : at + 1;
    if (to < 0 || to >= order.length) return;
    [order[at], order[to]] = [order[to]!, order[at]!];
    await renumber(trx, deps, id, order);
    await touch(trx, deps, id);
  });
}

/** Sets the whole order: `keys` must name each item of the collection once. */
export async function reorderCollection(deps: BankDeps, viewer: BankViewer, collectionId: unknown, keys: BankKey[]): Promise<void> {
  ensureStaff(viewer);
  const id = bankIdOf(collectionId);
  await bankTransaction(deps.db, async (trx) => {
    await lockCollection(trx, deps, id);
    const current = (await entriesOf(trx, deps, id)).map((e) => `${e.kind}:${e.item_id}`);
    const wanted = keys.map(choiceOf);
    const same = wanted.length === current.length && new Set(wanted).size === wanted.length && wanted.every((k) => current.includes(k));
    if (!same) throw new AppError('ContentBank.Invalid', { fields: { items: { code: 'ContentBank.Invalid', key: 'contentBank.errors.reorder' } } });
    await renumber(trx, deps, id, keys);
    await touch(trx, deps, id);
  });
}

/** A collection with its items in order (an item gone from the library shows as gone). */
export async function getCollection(deps: BankDeps, viewer: BankViewer, collectionId: unknown): Promise<BankCollectionDetail> {
  ensureStaff(viewer);
  const id = bankIdOf(collectionId);
  const row = await rowQuery(deps).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ContentBank.NotFound');
  await refreshBankIndex(deps.db, deps.community, () => deps.clock.now());
  const entries = await entriesOf(deps.db, deps, id);
  const items = await itemsOf(deps, entries.map((e) => ({ kind: e.kind, id: e.item_id })));
  return { ...rowOf(row), entries: entries.map((e) => ({ kind: e.kind, id: e.item_id, position: e.position, item: items.get(`${e.kind}:${e.item_id}`) ?? null })) };
}
