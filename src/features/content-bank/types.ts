import type { BankAssetKind, BankKind } from '#src/db/types.ts';

/** What the content bank's views and other areas see (views import types only). */

export type { BankAssetKind, BankKind };

/** Every kind of library item, in the order the type filter lists them. */
export const BANK_KINDS: readonly BankKind[] = ['article', 'roundup', 'answer', 'image', 'pdf'];
export const ASSET_KINDS: readonly BankKind[] = ['image', 'pdf'];

/** A library item's name: its kind and its id in its own area (an article's id, an asset's id). */
export type BankKey = { kind: BankKind; id: number };

export type BankTagRef = { id: number; name: string };

/** One item as a search, a collection or the picker shows it. */
export type BankItem = {
  kind: BankKind;
  id: number;
  title: string;
  summary: string;
  authorId: number | null;
  authorName: string | null;
  publishedAt: Date;
  /** Where a reader opens it: an absolute address, or an application path (the views add the base path); null when it has none. */
  url: string | null;
  /** Where staff open it in its own area (an application path). */
  staffPath: string;
  tags: BankTagRef[];
};

export type BankSearchRow = BankItem & { cursor: string };

/** The search form as typed (every field text, kept and shown again). */
export type BankSearchForm = { q: string; kind: string; author: string; tag: string; from: string; to: string };

export type BankSearchPage = {
  rows: BankSearchRow[];
  /** The cursor of the next page (`after`), null on the last. */
  next: string | null;
  /** Ranked by a search (title matches first, then the text, then near spellings), else newest first. */
  ranked: boolean;
};

/** What the filters offer: the community's tags and the authors of its items. */
export type BankFilterOptions = { tags: BankTagRef[]; authors: { id: number; name: string }[] };

export type BankTagRow = { id: number; name: string; itemCount: number; createdAt: Date };

export type BankCollectionRow = { id: number; name: string; description: string; itemCount: number; updatedAt: Date };

/** An item of a collection: the item, or (it left the library since) only its name. */
export type BankCollectionEntry = { kind: BankKind; id: number; position: number; item: BankItem | null };

export type BankCollectionDetail = BankCollectionRow & { entries: BankCollectionEntry[] };

/** Where an item was used: sent in a team message, featured on the members' feed, in a syndication feed… */
export type BankUsageRow = { area: string; what: string; label: string; path: string | null; at: Date };

export type BankAssetFacts = { key: string; filename: string; contentType: string; byteSize: number; width: number | null; height: number | null; fileUrl: string };

export type BankItemDetail = BankItem & {
  collections: { id: number; name: string }[];
  usage: BankUsageRow[];
  asset: BankAssetFacts | null;
};

export type BankAssetRow = { id: number; kind: BankAssetKind; title: string; filename: string; byteSize: number; createdAt: Date; fileUrl: string };

/** An item the picker offers: enough to insert it (its title and an absolute address to it). */
export type BankPickerItem = { kind: BankKind; id: number; title: string; link: string | null; choice: string };

/**
 * The picker's state on a compose form: what was searched (kept in the form), and the items found
 * (null before a search). `error`: a message key, when the search was refused (a control character,
 * too long) or the item picked is gone; `added`: the title of the item just inserted.
 */
export type BankPickerState = { q: string; results: BankPickerItem[] | null; error?: string; added?: string };
