import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { parseId } from '#src/core/ids.ts';
import type { SyndicationItemType } from '#src/db/types.ts';
import type { FeedForm } from './types.ts';

/**
 * A feed's fields as staff type them, checked together (every field's message at once): a title (1 to
 * 120 characters), a slug (2 to 60 of a-z, 0-9 and single hyphens: the address /feeds/{slug}.rss; made
 * from the title when left empty), a description (at most 500 characters, one paragraph), how many
 * items (1 to 100) and what goes in (at least one type: published articles, published roundups).
 */

export const TITLE_MAX = 120;
export const SLUG_MAX = 60;
export const DESCRIPTION_MAX = 500;
export const LIMIT_MAX = 100;
export const DEFAULT_LIMIT = 20;
export const ITEM_TYPES: readonly SyndicationItemType[] = ['article', 'roundup'];
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A feed's columns once its form is accepted. */
export type FeedColumns = { title: string; slug: string; description: string; item_limit: number; types: SyndicationItemType[]; tags: number[]; collections: number[]; enabled: boolean };

/** The most tags, and collections, one feed chooses by. */
export const CHOICES_MAX = 20;

const invalid = (key: string, values?: Record<string, unknown>) => ({ code: 'Syndication.Invalid' as const, key: `syndication.errors.${key}`, values });

export const slugTaken = () => new AppError('Syndication.Invalid', { fields: { slug: invalid('slugTaken') } });

export const isItemType = (v: unknown): v is SyndicationItemType => typeof v === 'string' && (ITEM_TYPES as readonly string[]).includes(v);

/** A slug suggested from a title ("Summit — everything" → "summit-everything"). */
export function slugFrom(title: string): string {
  const whole = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (whole.length <= SLUG_MAX) return whole;
  // Too long: cut at the last whole word that fits.
  const cut = whole.slice(0, SLUG_MAX + 1);
  const end = cut.lastIndexOf('-');
  return (end >= 2 ? cut.slice(0, end) : whole.slice(0, SLUG_MAX)).replace(/-+$/g, '');
}

export const blankFeedForm = (): FeedForm => ({ title: '', slug: '', description: '', limit: String(DEFAULT_LIMIT), types: [...ITEM_TYPES], tags: [], collections: [], enabled: true });

/** Ticked ids, each once in ascending order; null when one is not an id (or too many). */
function idsOf(values: readonly string[] | undefined): number[] | null {
  const ids = new Set<number>();
  for (const v of values ?? []) {
    const id = parseId(v);
    if (id === null) return null;
    ids.add(id);
  }
  return ids.size > CHOICES_MAX ? null : [...ids].sort((a, b) => a - b);
}

export function feedColumnsOf(form: FeedForm): FeedColumns {
  const fields: FieldErrors = {};
  const title = form.title.replace(/\s+/g, ' ').trim();
  const description = form.description.replace(/\s+/g, ' ').trim();
  const slug = (form.slug.trim() || slugFrom(title)).toLowerCase();
  const limitText = form.limit.trim();
  const limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
  const types = [...new Set(form.types)];
  if (!title) fields.title = invalid('titleRequired');
  else if (title.length > TITLE_MAX) fields.title = invalid('tooLong', { max: TITLE_MAX });
  else if (hasForbiddenCharacters(form.title)) fields.title = invalid('characters');
  if (!slug) fields.slug = invalid('slugRequired');
  else if (slug.length < 2 || slug.length > SLUG_MAX || !SLUG.test(slug)) fields.slug = invalid('slugFormat', { max: SLUG_MAX });
  if (description.length > DESCRIPTION_MAX) fields.description = invalid('tooLong', { max: DESCRIPTION_MAX });
  else if (hasForbiddenCharacters(form.description, true)) fields.description = invalid('characters');
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX) fields.limit = invalid('limit', { max: LIMIT_MAX });
  if (types.length === 0) fields.types = invalid('typesRequired');
  else if (!types.every(isItemType)) fields.types = invalid('types');
  const tags = idsOf(form.tags);
  const collections = idsOf(form.collections);
  if (tags === null) fields.tags = invalid('tags', { max: CHOICES_MAX });
  if (collections === null) fields.collections = invalid('collections', { max: CHOICES_MAX });
  if (Object.keys(fields).length) throw new AppError('Syndication.Invalid', { fields });
  return { title, slug, description, item_limit: limit, types: ITEM_TYPES.filter((t) => types.includes(t)), tags: tags!, collections: collections!, enabled: form.enabled };
}
