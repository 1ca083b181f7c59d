import { AppError } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { ensureStaff, type BankDeps, type BankViewer } from './deps.ts';
import { absoluteUrl } from './export.ts';
import { refreshBankIndex } from './index-refresh.ts';
import { choiceOf, itemsOf, keyOfChoice } from './items.ts';
import { QUERY_MAX, searchIndexed, type BankQuery } from './search.ts';
import type { BankItem, BankKind, BankPickerItem, BankPickerState } from './types.ts';

/**
 * The picker (issue 29): staff pick an item of the library while composing a team message, an offer
 * or (when the feeds area wires it) an announcement. No script: the compose form carries a search
 * field (`bankQ`) and a button (`bankSearch`); pressing it posts the whole form, which comes back with
 * everything typed and the items found, each a button (`bankPick` = "kind:id"); pressing one posts the
 * form again, which comes back with the item's title and address added to its text. Only items a
 * reader can open are offered (an accepted answer outside any published roundup has no address).
 * A hosting route makes one call (`bankPickerStep`) before its own action, and its view draws
 * views/kit/bank-picker.tsx.
 */

export const PICKER_SIZE = 10;

/** What a compose form posts for the picker (any of them may be absent). */
export type BankPickerInput = { bankQ?: string; bankSearch?: string; bankPick?: string };

const toPickerItem = (item: BankItem, publicUrl: string): BankPickerItem => ({ kind: item.kind, id: item.id, title: item.title, link: absoluteUrl(item.url, publicUrl), choice: choiceOf(item) });

/** The items whose title, author or text match `q` (the library's two tiers), or the newest with no `q`; those with an address only. */
export async function searchPicker(deps: BankDeps, viewer: BankViewer, q: string, kinds: BankKind[] = []): Promise<BankPickerState> {
  ensureStaff(viewer);
  const text = q.replace(/\s+/g, ' ').trim();
  if (text.length > QUERY_MAX) return { q: text.slice(0, QUERY_MAX), results: null, error: 'contentBank.errors.tooLong' };
  if (hasForbiddenCharacters(text)) return { q: '', results: null, error: 'contentBank.errors.characters' };
  await refreshBankIndex(deps.db, deps.community, () => deps.clock.now());
  const query: BankQuery = { q: text, kinds, authorId: null, tagIds: [], collectionIds: [], from: null, to: null, after: null, first: PICKER_SIZE, linkedOnly: true };
  const page = await searchIndexed(deps, query);
  return { q: text, results: page.rows.map((r) => toPickerItem(r, deps.publicUrl)) };
}

/** The item a picker's button names ("article:12"), if it is in the library and has an address; else null. */
export async function pickedItem(deps: BankDeps, viewer: BankViewer, choice: string): Promise<BankPickerItem | null> {
  ensureStaff(viewer);
  const key = keyOfChoice(choice);
  if (!key) return null;
  const item = (await itemsOf(deps, [key])).get(choiceOf(key));
  if (!item || !item.url) return null;
  return toPickerItem(item, deps.publicUrl);
}

/**
 * The picker's step of a compose form: null when the form was sent by another button (the host goes
 * on with its own action); else the picker to show again and the item picked (null for a search, or
 * for a pick that is no longer in the library).
 */
export async function bankPickerStep(deps: BankDeps, viewer: BankViewer, input: BankPickerInput): Promise<{ picker: BankPickerState; picked: BankPickerItem | null } | null> {
  const q = typeof input.bankQ === 'string' ? input.bankQ : '';
  if (typeof input.bankPick === 'string' && input.bankPick !== '') {
    const picked = await pickedItem(deps, viewer, input.bankPick);
    return { picker: { q, results: null, ...(picked ? { added: picked.title } : { error: 'contentBank.picker.gone' }) }, picked };
  }
  if (typeof input.bankSearch === 'string' && input.bankSearch !== '') return { picker: await searchPicker(deps, viewer, q), picked: null };
  return null;
}

/** A picked item's line, as a plain message field takes it (its address becomes a link). */
export const bankLinkLine = (item: BankPickerItem) => (item.link ? `${item.title}: ${item.link}` : item.title);

/** `text` with the picked item's line added at its end (a blank line before it). */
export function withBankLink(text: string, item: BankPickerItem): string {
  const line = bankLinkLine(item);
  const trimmed = text.replace(/\s+$/, '');
  return trimmed ? `${trimmed}\n\n${line}` : line;
}

/** A search that refuses what the page form refuses (GraphQL and REST callers of the picker). */
export function ensurePickerQuery(q: unknown): string {
  if (q != null && typeof q !== 'string') throw new AppError('BadRequest.Validation');
  return typeof q === 'string' ? q : '';
}
