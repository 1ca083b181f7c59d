/**
 * The content bank's public face (decision 0061): what other areas use, and the types the views read.
 * Routes, GraphQL, the demo seed and its errors are registered through register.ts, never imported
 * from here.
 *
 * - `bankChoices`: the community's tags and collections (id and name), for another area's form.
 * - `bankItemKeys`: the (kind, id) of the library's items with given tags, in given collections, of
 *   given kinds (the syndication feeds' choice by tag or collection).
 * - The picker for a compose form: `bankPickerStep` (one call before the host's own action),
 *   `withBankLink` / `bankLinkLine` (the picked item into a text), and views/kit/bank-picker.tsx.
 * - Usage: `recordBankUsage`, `forgetBankUsage`, `recordLinkedUsage` (where an item was sent,
 *   featured or syndicated), called by the area that used it, in its own transaction.
 */
import { systemClock, type Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { matchingKeys } from './search.ts';
import { BANK_KINDS, type BankKey, type BankKind } from './types.ts';

export { bankLinkLine, bankPickerStep, pickedItem, searchPicker, withBankLink, type BankPickerInput } from './picker.ts';
export { bankKeysLinkedIn, forgetBankUsage, recordBankUsage, recordLinkedUsage, type BankUsageReport } from './usage.ts';
export type {
  BankAssetFacts,
  BankAssetKind,
  BankAssetRow,
  BankCollectionDetail,
  BankCollectionEntry,
  BankCollectionRow,
  BankFilterOptions,
  BankItem,
  BankItemDetail,
  BankKey,
  BankKind,
  BankPickerItem,
  BankPickerState,
  BankSearchForm,
  BankSearchPage,
  BankSearchRow,
  BankTagRef,
  BankTagRow,
  BankUsageRow,
} from './types.ts';

/**
 * The keys of the community's library items carrying every one of `tagIds`, in any of
 * `collectionIds`, of any of `kinds` (each filter only when given), newest first, at most `limit`
 * (default 500). Unknown or other communities' tags and collections match nothing.
 */
export async function bankItemKeys(
  db: Db,
  community: Tenant,
  filters: { tagIds?: readonly number[]; collectionIds?: readonly number[]; kinds?: readonly BankKind[] },
  options: { limit?: number; clock?: Clock } = {},
): Promise<BankKey[]> {
  const kinds = (filters.kinds ?? []).filter((k) => BANK_KINDS.includes(k));
  const limit = Math.min(Math.max(options.limit ?? 500, 1), 5000);
  return matchingKeys({ db, community, clock: options.clock ?? systemClock }, { kinds, tagIds: [...(filters.tagIds ?? [])], collectionIds: [...(filters.collectionIds ?? [])] }, limit);
}

/** A tag or collection as another area's form offers it. */
export type BankChoice = { id: number; name: string };

/**
 * The community's tags and collections, each by name (at most 500 of each): what another area's form
 * offers and checks its ids against (syndication's feeds by tag or collection). Two indexed reads;
 * the caller checks who may see them.
 */
export async function bankChoices(db: Db, community: Tenant): Promise<{ tags: BankChoice[]; collections: BankChoice[] }> {
  const [tags, collections] = await Promise.all([
    selectInCommunity(db, 'bank_tags', community).select(['id', 'name']).orderBy((eb) => eb.fn('lower', ['name'])).orderBy('id').limit(500).execute(),
    selectInCommunity(db, 'bank_collections', community).select(['id', 'name']).orderBy((eb) => eb.fn('lower', ['name'])).orderBy('id').limit(500).execute(),
  ]);
  return { tags: tags.map((r) => ({ id: r.id, name: r.name })), collections: collections.map((r) => ({ id: r.id, name: r.name })) };
}
