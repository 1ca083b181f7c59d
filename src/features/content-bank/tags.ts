import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs } from '#src/db/tenancy.ts';
import { bankIdOf, bankTransaction, ensureStaff, type BankDeps, type BankViewer } from './deps.ts';
import { requireItem } from './items.ts';
import { forgetFilterOptions } from './options.ts';
import type { BankKey, BankTagRow } from './types.ts';

/** Tags: the staff's own words for items (a tag's name is unique in the community, whatever its case). */

export const TAG_NAME_MAX = 60;
export const TAGS_MAX = 500;

const refuse = (key: string, values?: Record<string, unknown>, code: 'ContentBank.Invalid' | 'ContentBank.Taken' = 'ContentBank.Invalid') =>
  new AppError(code, { fields: { name: { code, key: `contentBank.errors.${key}`, values } } });

export function tagNameOf(value: unknown): string {
  const name = (typeof value === 'string' ? value : '').replace(/\s+/g, ' ').trim();
  if (!name) throw refuse('nameRequired');
  if (name.length > TAG_NAME_MAX) throw refuse('tooLong', { max: TAG_NAME_MAX });
  if (hasForbiddenCharacters(name)) throw refuse('characters');
  return name;
}

/** Every tag of the community with how many library items carry it, by name. */
export async function listTags(deps: BankDeps, viewer: BankViewer): Promise<BankTagRow[]> {
  ensureStaff(viewer);
  const rows = await selectInCommunityAs(deps.db, 'bank_tags', 't', deps.community)
    .select([
      't.id',
      't.name',
      't.created_at',
      sql<number>`(select count(*)::int from bank_item_tags it join bank_entries e on e.community_id = it.community_id and e.kind = it.kind and e.item_id = it.item_id
        where it.community_id = t.community_id and it.tag_id = t.id)`.as('item_count'),
    ])
    .orderBy(sql`lower(t.name)`)
    .orderBy('t.id')
    .limit(TAGS_MAX)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, itemCount: Number(r.item_count), createdAt: r.created_at }));
}

/** A new tag (refused beside the name when empty, too long, or already a tag of the community). Returns its id. */
export async function createTag(deps: BankDeps, viewer: BankViewer, nameInput: unknown): Promise<number> {
  ensureStaff(viewer);
  const name = tagNameOf(nameInput);
  return bankTransaction(deps.db, async (trx) => {
    const taken = await selectInCommunity(trx, 'bank_tags', deps.community).select('id').where(sql`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();
    if (taken) throw refuse('tagTaken', { name }, 'ContentBank.Taken');
    const count = await selectInCommunity(trx, 'bank_tags', deps.community).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    if (Number(count.n) >= TAGS_MAX) throw refuse('tooManyTags', { max: TAGS_MAX });
    const { id } = await insertInCommunity(trx, 'bank_tags', deps.community, { name, created_by: viewer.userId, created_at: deps.clock.now() })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirstOrThrow()
      .catch(() => {
        throw refuse('tagTaken', { name }, 'ContentBank.Taken');
      });
    forgetFilterOptions(deps.community);
    return id;
  });
}

/** Deletes a tag: it leaves every item it was on. */
export async function deleteTag(deps: BankDeps, viewer: BankViewer, tagId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = bankIdOf(tagId);
  const gone = await deleteInCommunity(deps.db, 'bank_tags', deps.community).where('id', '=', id).returning('id').executeTakeFirst();
  if (!gone) throw new AppError('ContentBank.NotFound');
  forgetFilterOptions(deps.community);
}

async function requireTag(deps: BankDeps, tagId: unknown): Promise<number> {
  const id = bankIdOf(tagId);
  const tag = await selectInCommunity(deps.db, 'bank_tags', deps.community).select('id').where('id', '=', id).executeTakeFirst();
  if (!tag) throw new AppError('ContentBank.NotFound');
  return id;
}

/** Puts a tag on an item of the library (again: nothing changes). */
export async function tagItem(deps: BankDeps, viewer: BankViewer, tagId: unknown, key: BankKey): Promise<void> {
  ensureStaff(viewer);
  const id = await requireTag(deps, tagId);
  await requireItem(deps, key);
  await insertInCommunity(deps.db, 'bank_item_tags', deps.community, { tag_id: id, kind: key.kind, item_id: key.id, tagged_by: viewer.userId, created_at: deps.clock.now() })
    .onConflict((oc) => oc.columns(['tag_id', 'kind', 'item_id']).doNothing())
    .execute();
}

/** Takes a tag off an item (not on it: nothing changes). */
export async function untagItem(deps: BankDeps, viewer: BankViewer, tagId: unknown, key: BankKey): Promise<void> {
  ensureStaff(viewer);
  const id = await requireTag(deps, tagId);
  await deleteInCommunity(deps.db, 'bank_item_tags', deps.community).where('tag_id', '=', id).where('kind', '=', key.kind).where('item_id', '=', key.id).execute();
}

/**
 * The item page's "Add a tag": a new tag's name (made now, or the existing tag of that name, whatever
 * its case), else the tag chosen. Returns the tag's id.
 */
export async function addTagToItem(deps: BankDeps, viewer: BankViewer, key: BankKey, input: { tagId?: unknown; newTag?: unknown }): Promise<number> {
  ensureStaff(viewer);
  const typed = typeof input.newTag === 'string' ? input.newTag.trim() : '';
  let id: number;
  if (typed) {
    const name = tagNameOf(typed);
    const existing = await selectInCommunity(deps.db, 'bank_tags', deps.community).select('id').where(sql`lower(name)`, '=', name.toLowerCase()).executeTakeFirst();
    await requireItem(deps, key);
    id = existing?.id ?? (await createTag(deps, viewer, name));
  } else if (input.tagId !== undefined && input.tagId !== '') {
    id = bankIdOf(input.tagId);
  } else {
    throw new AppError('ContentBank.Invalid', { fields: { tagId: { code: 'ContentBank.Invalid', key: 'contentBank.errors.tag' } } });
  }
  await tagItem(deps, viewer, id, key);
  return id;
}
