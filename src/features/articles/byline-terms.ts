import sanitizeHtml from 'sanitize-html';
import { fieldsError, type FieldErrors } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { insertInCommunity, selectInCommunity } from '#src/db/tenancy.ts';
import { checkByline } from './rules.ts';
import { plainText } from '#src/lib/plain-text.ts';
import type { ArticleDeps, Person } from './queries.ts';
import { ensureEditor, invalid } from './shared.ts';

/** Byline paste: paragraphs and links with href only. */
const BYLINE: sanitizeHtml.IOptions = { allowedTags: ['p', 'a'], allowedAttributes: { a: ['href'] }, allowedSchemes: ['http', 'https', 'mailto'] };

export const cleanByline = (html: string) => sanitizeHtml(html, BYLINE);

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What the byline field shows: the editor island's HTML, and the text of the field without JavaScript. */
export type BylineField = { html: string; plain: string };

/**
 * The byline field's values for a stored or just typed byline. Without JavaScript the field shows plain
 * text, or the HTML when the byline has a link (so it round-trips). What comes back after a refused
 * save is what was typed: cleaned like a stored byline.
 */
export function bylineField(value: string): BylineField {
  const isHtml = value.trim().startsWith('<');
  return {
    html: isHtml ? cleanByline(value) : value ? `<p>${escapeHtml(value)}</p>` : '',
    plain: isHtml && !/<a\s/i.test(value) ? plainText(value).trim() : value,
  };
}

/**
 * The byline is one line (spec section 5: "Enter is blocked" in the editor). What arrives without the
 * editor (a textarea, REST, GraphQL) may hold line breaks: each run of them (a typed line break, a
 * `<br>`, a paragraph boundary) is folded into one space, as the editor's single paragraph would read.
 */
export function foldBylineBreaks(html: string): string {
  return html
    .replace(/\s*<br\s*\/?>\s*/gi, ' ')
    .replace(/\s*<\/p>\s*<p(\s[^>]*)?>\s*/gi, ' ')
    .replace(/[ \t]*(\r\n|\r|\n)+[ \t]*/g, ' ');
}

export async function productAgreementStatus(deps: ArticleDeps, userId: number): Promise<{ createdAt: Date } | null> {
  const row = await selectInCommunity(deps.db, 'article_agreements', deps.community)
    .select('created_at')
    .where('user_id', '=', userId)
    .where('kind', '=', 'PRODUCT')
    .orderBy('id')
    .executeTakeFirst();
  return row ? { createdAt: row.created_at } : null;
}

/** Records the product agreement (once; accepting again keeps the first time). */
export async function acceptProductAgreement(deps: ArticleDeps, userId: number): Promise<{ createdAt: Date }> {
  const existing = await productAgreementStatus(deps, userId);
  if (existing) return existing;
  const now = deps.clock.now();
  await insertInCommunity(deps.db, 'article_agreements', deps.community, { user_id: userId, kind: 'PRODUCT', created_at: now }).execute();
  return { createdAt: now };
}

export async function getByline(deps: ArticleDeps, userId: number): Promise<{ id: number; byline: string } | null> {
  const row = await selectInCommunity(deps.db, 'article_user_settings', deps.community).select(['id', 'byline']).where('user_id', '=', userId).executeTakeFirst();
  return row ?? null;
}

export async function saveByline(deps: ArticleDeps, userId: number, input: unknown): Promise<{ id: number; byline: string }> {
  ensureText({ byline: input }, ['byline']);
  const byline = foldBylineBreaks(cleanByline(foldBylineBreaks(typeof input === 'string' ? input : ''))).trim();
  const verdict = checkByline(byline);
  if (!verdict.ok) throw invalid('byline', `articles.errors.byline${verdict.reason[0]!.toUpperCase()}${verdict.reason.slice(1)}`);
  const now = deps.clock.now();
  return insertInCommunity(deps.db, 'article_user_settings', deps.community, { user_id: userId, byline, updated_at: now })
    .onConflict((oc) => oc.columns(['community_id', 'user_id']).doUpdateSet({ byline, updated_at: now }))
    .returning(['id', 'byline'])
    .executeTakeFirstOrThrow();
}

/** The community's publishing program: the terms of the gate, the guidelines, an external application form. */
export type ProgramSettings = { terms: string; guidelines: string; applicationUrl: string };

export const PROGRAM_TEXT_MAX = 20_000;

export async function saveProgramSettings(deps: ArticleDeps, person: Person, input: ProgramSettings): Promise<void> {
  ensureEditor(person);
  ensureText({ terms: input.terms, guidelines: input.guidelines, applicationUrl: input.applicationUrl }, ['terms', 'guidelines']);
  const fields: FieldErrors = {};
  const terms = input.terms.replace(/\r\n?/g, '\n').trim();
  const guidelines = input.guidelines.replace(/\r\n?/g, '\n').trim();
  const url = input.applicationUrl.trim();
  if (!terms) fields.terms = { code: 900, key: 'admin.articles.settings.termsRequired' };
  else if (terms.length > PROGRAM_TEXT_MAX) fields.terms = { code: 'Articles.Invalid', key: 'admin.articles.settings.tooLong' };
  if (guidelines.length > PROGRAM_TEXT_MAX) fields.guidelines = { code: 'Articles.Invalid', key: 'admin.articles.settings.tooLong' };
  if (url && (!/^https:\/\/\S+$/.test(url) || !URL.canParse(url) || url.length > 2000)) fields.applicationUrl = { code: 100, key: 'admin.articles.settings.urlInvalid' };
  if (Object.keys(fields).length) throw fieldsError(fields, 'Articles.Invalid');
  await deps.db
    .updateTable('communities')
    .set({ article_terms: terms, article_guidelines: guidelines || null, article_application_url: url || null })
    .where('id', '=', deps.community.id)
    .execute();
}
