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
 * Sanitised HTML and its plain text; else throws 'Forum.Invalid' naming `name`: required
 * (`keys.required`), or over `max` characters (`keys.tooLong` with {num}: how many too many).
 */
export function checkRichText(value: unknown, max: number, keys: { required: string; tooLong: string }, name = 'body'): CleanText {
  const refuse = (key: string, values?: Record<string, unknown>) => invalid({ [name]: field(key, values) });
  if (value != null && typeof value !== 'string') throw refuse(keys.required);
  const raw = value ?? '';
  if (raw.length > HTML_MAX) throw refuse(keys.tooLong, { num: Math.max(1, raw.length - HTML_MAX) });
  const html = cleanRichText(raw).trim();
  const text = plainText(html).trim();
  if (text.length === 0) throw refuse(keys.required);
  if (text.length > max) throw refuse(keys.tooLong, { num: text.length - max });
  return { html, text };
}

/** A post's title: trimmed, required, at most TITLE_MAX characters; else throws 'Forum.Invalid' naming `title`. */
export function checkTitle(value: unknown): string {
  const refuse = (key: string, values?: Record<string, unknown>) => invalid({ title: field(key, values) });
  if (value != null && typeof value !== 'string') throw refuse('forum.errors.titleRequired');
  const title = (value ?? '').replace(/\s+/g, ' ').trim();
  if (!title) throw refuse('forum.errors.titleRequired');
  if (title.length > TITLE_MAX) throw refuse('forum.errors.titleTooLong', { num: title.length - TITLE_MAX });
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
 * community (one query); else throws 'Forum.Invalid' naming `topicIds`.
 */
export async function checkTopics(db: Db, community: Tenant, value: unknown): Promise<number[]> {
  const refuse = (key: string, values?: Record<string, unknown>) => invalid({ topicIds: field(key, values) });
  const ids = topicIdsOf(value);
  if (ids === null) throw refuse('forum.errors.topicUnknown');
  if (ids.length === 0) throw refuse('forum.errors.topicsRequired');
  if (ids.length > TOPICS_MAX) throw refuse('forum.errors.topicsLimit', { limit: TOPICS_MAX });
  const found = await selectInCommunity(db, 'forum_topics', community)
    .select('id')
    .where('archived_at', 'is', null)
    .where('id', 'in', ids)
    .execute();
  if (found.length !== ids.length) throw refuse('forum.errors.topicUnknown');
  return ids;
}

/**
 * Runs a form's checks together, so that every field's message comes at once: each check's value, or
 * one 'Forum.Invalid' with the fields of every check that refused (any other error passes as it is).
 */
export async function checkAll<T extends readonly unknown[]>(...checks: { [K in keyof T]: () => T[K] | Promise<T[K]> }): Promise<T> {
  const fields: FieldErrors = {};
  const values: unknown[] = [];
  for (const check of checks) {
    try {
      values.push(await check());
    } catch (e) {
      if (!(e instanceof AppError) || e.code !== 'Forum.Invalid' || !e.fields) throw e;
      Object.assign(fields, e.fields);
      values.push(undefined);
    }
  }
  if (Object.keys(fields).length > 0) throw invalid(fields);
  return values as unknown as T;
}
