import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { HTML_MAX, TITLE_MAX, TOPICS_MAX } from './rules.ts';
import { parseId } from '#src/core/ids.ts';

/**
 * Checking what a member writes (spec section 5, "Forum"). Rich text is sanitised exactly as articles
 * are (cleanRichText); lengths count the plain text of the sanitised HTML, so the count the member
 * sees is the count that is checked. Hostile input (NUL and other control characters) is catalogue
 * code 150; HTML over HTML_MAX is refused before it is even sanitised.
 */

export const field = (key: string, values?: Record<string, unknown>) => ({ code: 'Forum.Invalid' as const, key, values });
export const invalid = (fields: FieldErrors) => new AppError('Forum.Invalid', { fields });

/** Throws code 150 naming each field with a forbidden character (title single-line, body multi-line). */
export function ensureClean(input: Record<string, unknown>, multiline: readonly string[]): void {
  ensureText(input, multiline);
}

export type CleanText = { html: string; text: string };

/**
 * Sanitised HTML and its plain text, or a field error: required (`requiredKey`), or over `max`
 * characters (`tooLongKey` with {num}: how many too many).
 */
export function checkRichText(value: unknown, max: number, keys: { required: string; tooLong: string }): CleanText | { error: ReturnType<typeof field> } {
  if (value != null && typeof value !== 'string') return { error: field(keys.required) };
  const raw = value ?? '';
  if (raw.length > HTML_MAX) return { error: field(keys.tooLong, { num: Math.max(1, raw.length - HTML_MAX) }) };
  const html = cleanRichText(raw).trim();
  const text = plainText(html).trim();
  if (text.length === 0) return { error: field(keys.required) };
  if (text.length > max) return { error: field(keys.tooLong, { num: text.length - max }) };
  return { html, text };
}

/** A post's title: trimmed, required, at most TITLE_MAX characters. */
export function checkTitle(value: unknown): string | { error: ReturnType<typeof field> } {
  if (value != null && typeof value !== 'string') return { error: field('forum.errors.titleRequired') };
  const title = (value ?? '').replace(/\s+/g, ' ').trim();
  if (!title) return { error: field('forum.errors.titleRequired') };
  if (title.length > TITLE_MAX) return { error: field('forum.errors.titleTooLong', { num: title.length - TITLE_MAX }) };
  return title;
}

/** The topic ids a form or API sent: one value or a list, numbers or digit strings, duplicates once. */
export function topicIdsOf(value: unknown): number[] | null {
  const list = value == null || value === '' ? [] : Array.isArray(value) ? value : [value];
  if (list.length > 100) return null;
  const ids: number[] = [];
  for (const v of list) {
    const id = parseId(typeof v === 'string' ? v.trim() : v);
    if (id === null) return null;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * A post's topics: one to TOPICS_MAX ('Only {limit} allowed'), each an open topic of this
 * community (one query), or a field error.
 */
export async function checkTopics(db: Db, community: Tenant, value: unknown): Promise<number[] | { error: ReturnType<typeof field> }> {
  const ids = topicIdsOf(value);
  if (ids === null) return { error: field('forum.errors.topicUnknown') };
  if (ids.length === 0) return { error: field('forum.errors.topicsRequired') };
  if (ids.length > TOPICS_MAX) return { error: field('forum.errors.topicsLimit', { limit: TOPICS_MAX }) };
  const found = await selectInCommunity(db, 'forum_topics', community)
    .select('id')
    .where('archived_at', 'is', null)
    .where('id', 'in', ids)
    .execute();
  if (found.length !== ids.length) return { error: field('forum.errors.topicUnknown') };
  return ids;
}

export const isError = <T>(v: T | { error: ReturnType<typeof field> }): v is { error: ReturnType<typeof field> } =>
  typeof v === 'object' && v !== null && 'error' in v && !Array.isArray(v);
