import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { selectInCommunity, selectInCommunityAs } from '#src/db/tenancy.ts';
import { assetPath } from './assets.ts';
import { bankIdOf, ensureStaff, type BankDeps, type BankViewer } from './deps.ts';
import { refreshBankIndex } from './index-refresh.ts';
import { itemOf, tagsOfEntry } from './search.ts';
import { BANK_KINDS, type BankItem, type BankItemDetail, type BankKey, type BankKind } from './types.ts';
import { syndicatedUsage, usageOf } from './usage.ts';

/** An item's key from a path or an argument: an unknown kind or a bad id is the same answer as an unknown item. */
export function bankKeyOf(kind: unknown, id: unknown): BankKey {
  if (typeof kind !== 'string' || !(BANK_KINDS as readonly string[]).includes(kind)) throw new AppError('ContentBank.NotFound');
  return { kind: kind as BankKind, id: bankIdOf(id) };
}

/** "article:12" (a picker's or a form's choice) as a key, or null. */
export function keyOfChoice(choice: string): BankKey | null {
  const m = /^([a-z]{3,10}):(\d{1,10})$/.exec(choice);
  if (!m) return null;
  try {
    return bankKeyOf(m[1], m[2]);
  } catch {
    return null;
  }
}

export const choiceOf = (key: BankKey) => `${key.kind}:${key.id}`;

/** The items of these keys in the library, in the keys' order (those not in it left out). One statement. */
export async function itemsOf(deps: Pick<BankDeps, 'db' | 'community'>, keys: readonly BankKey[]): Promise<Map<string, BankItem>> {
  const out = new Map<string, BankItem>();
  if (keys.length === 0) return out;
  const rows = await selectInCommunityAs(deps.db, 'bank_entries', 'e', deps.community)
    .leftJoin('users as u', 'u.id', 'e.author_id')
    .select(['e.kind', 'e.item_id', 'e.title', 'e.summary', 'e.author_id', 'e.author_name', 'e.published_at', 'e.url', 'e.staff_path', 'u.first_name', 'u.last_name', tagsOfEntry('e').as('tags')])
    .where((eb) => eb.or(keys.map((k) => eb.and([eb('e.kind', '=', k.kind), eb('e.item_id', '=', k.id)]))))
    .execute();
  for (const r of rows) out.set(`${r.kind}:${r.item_id}`, itemOf(r));
  return out;
}

/** One item of the library (the index brought up to date first), or ContentBank.NotFound. */
export async function requireItem(deps: BankDeps, key: BankKey): Promise<BankItem> {
  await refreshBankIndex(deps.db, deps.community, () => deps.clock.now());
  const item = (await itemsOf(deps, [key])).get(choiceOf(key));
  if (!item) throw new AppError('ContentBank.NotFound');
  return item;
}

/** An item's page: the item, its tags, the collections holding it, where it was used, and its file for an asset. */
export async function getBankItem(deps: BankDeps, viewer: BankViewer, key: BankKey): Promise<BankItemDetail> {
  ensureStaff(viewer);
  const item = await requireItem(deps, key);
  const [collections, usage, asset] = await Promise.all([
    selectInCommunityAs(deps.db, 'bank_collection_items', 'ci', deps.community)
      .innerJoin('bank_collections as c', (j) => j.onRef('c.id', '=', 'ci.collection_id').onRef('c.community_id', '=', 'ci.community_id'))
      .select(['c.id', 'c.name'])
      .where('ci.kind', '=', key.kind)
      .where('ci.item_id', '=', key.id)
      .orderBy(sql`lower(c.name)`)
      .execute(),
    usageOf(deps.db, deps.community, key),
    key.kind === 'image' || key.kind === 'pdf'
      ? selectInCommunity(deps.db, 'bank_assets', deps.community).select(['key', 'filename', 'content_type', 'byte_size', 'width', 'height']).where('id', '=', key.id).executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  const syndicated = await syndicatedUsage(deps.db, deps.community, key, item.tags.map((t) => t.id), collections.map((c) => c.id));
  return {
    ...item,
    collections,
    usage: [...usage, ...syndicated],
    asset: asset ? { key: asset.key, filename: asset.filename, contentType: asset.content_type, byteSize: asset.byte_size, width: asset.width, height: asset.height, fileUrl: assetPath(asset.key, asset.filename) } : null,
  };
}
