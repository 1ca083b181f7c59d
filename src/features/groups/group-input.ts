import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { cleanRichText, textToHtml } from '#src/lib/rich-text.ts';
import type { GroupVisibility } from '#src/db/types.ts';
import { VISIBILITIES } from './queries.ts';
import type { GroupForm } from './types.ts';

/**
 * A group's fields as staff type them, checked together (every field's message at once): a name (1 to
 * 100 characters), a slug (2 to 60 of a-z, 0-9 and single hyphens, not a word the area's own paths
 * use), an about (plain text with the light formatting of the forum's fields, up to 5000 characters,
 * sanitised into HTML) and one of the four visibilities.
 */

export const NAME_MAX = 100;
export const SLUG_MAX = 60;
export const ABOUT_MAX = 5000;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Words the area's own addresses use under /groups/. */
const RESERVED = new Set(['images', 'post', 'posts', 'new', 'requests']);

const invalid = (key: string, values?: Record<string, unknown>) => ({ code: 'Groups.Invalid' as const, key: `groupsAdmin.errors.${key}`, values });

export const slugTaken = () => new AppError('Groups.Invalid', { fields: { slug: invalid('slugTaken') } });

export function isVisibility(v: unknown): v is GroupVisibility {
  return typeof v === 'string' && (VISIBILITIES as readonly string[]).includes(v);
}

/** A slug suggested from a name ("CFO Circle" → "cfo-circle"). */
export function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/g, '');
}

export function groupColumnsOf(form: GroupForm): { name: string; slug: string; about_text: string; about_html: string; visibility: GroupVisibility } {
  const fields: FieldErrors = {};
  const name = form.name.trim();
  const about = form.about.replace(/\r\n?/g, '\n').trim();
  const slug = (form.slug.trim() || slugFrom(name)).toLowerCase();
  if (!name) fields.name = invalid('nameRequired');
  else if (name.length > NAME_MAX) fields.name = invalid('tooLong', { max: NAME_MAX });
  else if (hasForbiddenCharacters(name)) fields.name = invalid('characters');
  if (!slug) fields.slug = invalid('slugRequired');
  else if (slug.length < 2 || slug.length > SLUG_MAX || !SLUG.test(slug)) fields.slug = invalid('slugFormat', { max: SLUG_MAX });
  else if (RESERVED.has(slug)) fields.slug = invalid('slugReserved');
  if (about.length > ABOUT_MAX) fields.about = invalid('tooLong', { max: ABOUT_MAX });
  else if (hasForbiddenCharacters(about, true)) fields.about = invalid('characters');
  if (!isVisibility(form.visibility)) fields.visibility = invalid('visibility');
  if (Object.keys(fields).length) throw new AppError('Groups.Invalid', { fields });
  return { name, slug, about_text: about, about_html: about ? cleanRichText(textToHtml(about)) : '', visibility: form.visibility as GroupVisibility };
}

/** A pasted list of addresses: split on commas, semicolons, spaces and lines; `Name <a@b>` gives its address; lowercased, once each. */
export function emailsIn(text: string): { emails: string[]; bad: string[] } {
  const emails = new Set<string>();
  const bad: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const part = raw.replace(/^<|>$/g, '').trim().toLowerCase();
    if (!part) continue;
    if (/^[^@\s<>"]+@[^@\s<>"]+\.[^@\s<>"]+$/.test(part) && part.length <= 320 && !hasForbiddenCharacters(part)) emails.add(part);
    else if (part.includes('@')) bad.push(raw.slice(0, 80));
  }
  return { emails: [...emails], bad };
}
