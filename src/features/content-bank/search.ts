import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { parseId } from '#src/core/ids.ts';
import { selectInCommunityAs } from '#src/db/tenancy.ts';
import { ensureStaff, type BankDeps, type BankViewer } from './deps.ts';
import { refreshBankIndex } from './index-refresh.ts';
import { BANK_KINDS, type BankItem, type BankKind, type BankSearchForm, type BankSearchPage, type BankSearchRow, type BankTagRef } from './types.ts';

/**
 * The library's search (issue 29): the members directory's two tiers (decision 0018) on the bank's own
 * index. A search's full-text tier (`search_vector @@ websearch_to_tsquery('simple', q)`, its GIN
 * index) shows the items with a word of the search in their title first, then the others, each class
 * newest first, so that no statement scores every match; then, when the page is not yet full, the
 * trigram tier (`q <% search_text`, title and author: a typo, a word begun) by word similarity, at
 * most TRIGRAM_CANDIDATES of them ranked. With
 * no search, newest first. Filters: kinds, author, a date range, a tag (and, for other areas, tags and
 * collections). Keyset pages: each tier is one statement, whatever the size of the library; the same
 * SQL on PGlite and PostgreSQL. Every statement names the community.
 */

export const PAGE_SIZE = 25;
export const QUERY_MAX = 200;

export type BankQuery = {
  q: string;
  kinds: BankKind[];
  authorId: number | null;
  tagIds: number[];
  collectionIds: number[];
  /** Published at or after (inclusive). */
  from: Date | null;
  /** Published before (exclusive: the day after the form's "to"). */
  to: Date | null;
  after: string | null;
  first: number;
  /** Only items a reader can open (the picker's). */
  linkedOnly?: boolean;
};

export type BankQueryInput = Partial<Record<'q' | 'kind' | 'author' | 'tag' | 'from' | 'to' | 'after', unknown>> & { first?: unknown; kinds?: unknown; tagIds?: unknown; collectionIds?: unknown };

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');
const DAY_MS = 86_400_000;

/** A calendar day 'YYYY-MM-DD' as its first instant (UTC), or null when it is not a real day. */
function dayOf(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value || Number(m[1]) < 1900 || Number(m[1]) > 2200) return null;
  return d;
}

/** The form's fields as typed, for the page to show again. */
export function searchFormOf(input: BankQueryInput): BankSearchForm {
  return { q: text(input.q), kind: text(input.kind), author: text(input.author), tag: text(input.tag), from: text(input.from), to: text(input.to) };
}

/**
 * Parses a search: each refusal by its field ('ContentBank.Invalid', BadRequest 400), never cut or
 * guessed, so a shared address never silently shows something else.
 */
export function parseBankQuery(input: BankQueryInput): BankQuery {
  const fields: FieldErrors = {};
  const refuse = (field: string, key: string, values?: Record<string, unknown>) => {
    fields[field] ??= { code: 'ContentBank.Invalid', key: `contentBank.errors.${key}`, values };
  };
  const form = searchFormOf(input);
  if (form.q.length > QUERY_MAX) refuse('q', 'tooLong', { max: QUERY_MAX });
  else if (hasForbiddenCharacters(form.q)) refuse('q', 'characters');
  const kinds: BankKind[] = [];
  const kindList = input.kinds !== undefined ? (Array.isArray(input.kinds) ? input.kinds : null) : form.kind ? [form.kind] : [];
  if (kindList === null || kindList.length > BANK_KINDS.length) refuse('kind', 'kind');
  else for (const k of kindList) (BANK_KINDS as readonly unknown[]).includes(k) ? kinds.push(k as BankKind) : refuse('kind', 'kind');
  const authorId = form.author ? parseId(form.author) : null;
  if (form.author && authorId === null) refuse('author', 'author');
  const ids = (v: unknown, field: string): number[] => {
    if (v === undefined || v === null) return [];
    const list = Array.isArray(v) ? v : [v];
    if (list.length > 50) refuse(field, 'tooMany', { max: 50 });
    const out = list.map(parseId);
    if (out.some((x) => x === null)) refuse(field, field === 'tag' ? 'tag' : 'collection');
    return out.filter((x): x is number => x !== null);
  };
  const tagIds = input.tagIds !== undefined ? ids(input.tagIds, 'tag') : form.tag ? ids(form.tag, 'tag') : [];
  const collectionIds = ids(input.collectionIds, 'collection');
  const from = form.from ? dayOf(form.from) : null;
  if (form.from && !from) refuse('from', 'date');
  const toDay = form.to ? dayOf(form.to) : null;
  if (form.to && !toDay) refuse('to', 'date');
  if (from && toDay && toDay < from) refuse('to', 'dateOrder');
  const after = text(input.after) || null;
  if (after !== null && !decodeCursor(after)) refuse('after', 'cursor');
  if (Object.keys(fields).length) throw new AppError('ContentBank.Invalid', { fields });
  let first = PAGE_SIZE;
  if (typeof input.first === 'number' && Number.isInteger(input.first)) first = Math.min(Math.max(input.first, 1), 100);
  return { q: form.q, kinds: [...new Set(kinds)], authorId, tagIds: [...new Set(tagIds)], collectionIds: [...new Set(collectionIds)], from, to: toDay ? new Date(toDay.getTime() + DAY_MS) : null, after, first };
}

// ---- cursors ----------------------------------------------------------------------------------

/**
 * A page position: newest first ["n", published ms, entry id]; a search's full-text tier ["f", class,
 * published ms, entry id] (class 2 a title match, 1 any other); its trigram tier ["r", score, entry
 * id] (score a numeric with 6 decimals, kept as text so that it compares exactly).
 */
type NewestKey = { kind: 'n'; at: number; id: number };
type TextKey = { kind: 'f'; cls: 1 | 2; at: number; id: number };
type RankKey = { kind: 'r'; score: string; id: number };
type Key = NewestKey | TextKey | RankKey;

export function encodeCursor(key: Key): string {
  const parts = key.kind === 'n' ? ['n', key.at, key.id] : key.kind === 'f' ? ['f', key.cls, key.at, key.id] : ['r', key.score, key.id];
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0 && v <= 2_147_483_647;
const isAt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= -62_135_596_800_000 && v <= 253_402_300_799_999;

export function decodeCursor(cursor: string): Key | null {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parts)) return null;
  if (parts[0] === 'n' && parts.length === 3 && isAt(parts[1]) && isId(parts[2])) return { kind: 'n', at: parts[1], id: parts[2] };
  if (parts[0] === 'f' && parts.length === 4 && (parts[1] === 1 || parts[1] === 2) && isAt(parts[2]) && isId(parts[3])) return { kind: 'f', cls: parts[1], at: parts[2], id: parts[3] };
  if (parts[0] === 'r' && parts.length === 3 && typeof parts[1] === 'string' && /^\d{1,6}(\.\d{1,6})?$/.test(parts[1]) && isId(parts[2])) return { kind: 'r', score: parts[1], id: parts[2] };
  return null;
}

// ---- the query --------------------------------------------------------------------------------

/** The community's entries a tier may show: the filters applied. */
function candidates(deps: BankDeps, query: BankQuery) {
  let q = selectInCommunityAs(deps.db, 'bank_entries', 'e', deps.community);
  if (query.kinds.length) q = q.where('e.kind', 'in', query.kinds);
  if (query.authorId !== null) q = q.where('e.author_id', '=', query.authorId);
  if (query.linkedOnly) q = q.where('e.url', 'is not', null);
  if (query.from) q = q.where('e.published_at', '>=', query.from);
  if (query.to) q = q.where('e.published_at', '<', query.to);
  for (const tagId of query.tagIds) {
    q = q.where(sql<SqlBool>`exists (select 1 from bank_item_tags it where it.community_id = e.community_id and it.tag_id = ${tagId} and it.kind = e.kind and it.item_id = e.item_id)`);
  }
  if (query.collectionIds.length) {
    q = q.where(
      sql<SqlBool>`exists (select 1 from bank_collection_items ci where ci.community_id = e.community_id and ci.collection_id in (${sql.join(query.collectionIds)}) and ci.kind = e.kind and ci.item_id = e.item_id)`,
    );
  }
  return q;
}

type KeyRow = { eid: number; at: Date; cls: number | null; score: string | null };
type PageRow = KeyRow & {
  kind: BankKind;
  item_id: number;
  title: string;
  summary: string;
  author_id: number | null;
  author_name: string;
  published_at: Date;
  url: string | null;
  staff_path: string;
  first_name: string | null;
  last_name: string | null;
  tags: BankTagRef[] | string | null;
};

/** The tags of an entry `p`, as JSON, by name. */
export const tagsOfEntry = (alias: string) =>
  sql<BankTagRef[] | null>`(select json_agg(json_build_object('id', t.id, 'name', t.name) order by lower(t.name), t.id)
    from bank_item_tags it join bank_tags t on t.id = it.tag_id and t.community_id = it.community_id
    where it.community_id = ${sql.ref(`${alias}.community_id`)} and it.kind = ${sql.ref(`${alias}.kind`)} and it.item_id = ${sql.ref(`${alias}.item_id`)})`;

/** A tier's page (entry ids and their keys, as the derived table `p`) with what the page shows, in order. */
async function pageRows(deps: BankDeps, page: SelectQueryBuilder<any, any, KeyRow>, order: [string, 'asc' | 'desc'][], limit: number | null): Promise<PageRow[]> {
  let q = deps.db
    .selectFrom(page.as('p'))
    .innerJoin('bank_entries as e', 'e.id', 'p.eid')
    .leftJoin('users as u', 'u.id', 'e.author_id')
    .where('e.community_id', '=', deps.community.id)
    .select(['p.eid', 'p.at', 'p.cls', 'p.score', 'e.kind', 'e.item_id', 'e.title', 'e.summary', 'e.author_id', 'e.author_name', 'e.published_at', 'e.url', 'e.staff_path', 'u.first_name', 'u.last_name', tagsOfEntry('e').as('tags')]);
  for (const [column, dir] of order) q = q.orderBy(sql.ref(column), dir);
  if (limit !== null) q = q.limit(limit);
  return (await q.execute()) as PageRow[];
}

const parsedTags = (v: PageRow['tags']): BankTagRef[] => (v == null ? [] : typeof v === 'string' ? (JSON.parse(v) as BankTagRef[]) : v);

/** A page row as an item. */
export function itemOf(r: Omit<PageRow, keyof KeyRow>): BankItem {
  const live = r.first_name ? `${r.first_name} ${r.last_name ?? ''}`.trim() : '';
  return {
    kind: r.kind,
    id: r.item_id,
    title: r.title,
    summary: r.summary,
    authorId: r.author_id,
    authorName: live || r.author_name || null,
    publishedAt: new Date(r.published_at),
    url: r.url,
    staffPath: r.staff_path,
    tags: parsedTags(r.tags),
  };
}

/** One page of the library: a search's ranking when `q` is given, else newest first. The index is brought up to date first. */
export async function searchBank(deps: BankDeps, viewer: BankViewer, query: BankQuery): Promise<BankSearchPage> {
  ensureStaff(viewer);
  await refreshBankIndex(deps.db, deps.community, () => deps.clock.now());
  return searchIndexed(deps, query);
}

/** The same, on the index as it stands (the caller refreshed it). */
export async function searchIndexed(deps: BankDeps, query: BankQuery): Promise<BankSearchPage> {
  const key = query.after ? decodeCursor(query.after) : null;
  const want = query.first + 1;
  let rows: (PageRow & { tier: 'n' | 'f' | 'r' })[];
  let ranked = false;
  if (!query.q) {
    rows = (await newestRows(deps, query, key?.kind === 'n' ? key : null, want)).map((r) => ({ ...r, tier: 'n' as const }));
  } else {
    ranked = true;
    rows = [];
    if (key?.kind !== 'r') rows.push(...(await textRows(deps, query, key?.kind === 'f' ? key : null, want)).map((r) => ({ ...r, tier: 'f' as const })));
    if (rows.length < want) rows.push(...(await trigramRows(deps, query, key?.kind === 'r' ? key : null, want - rows.length)).map((r) => ({ ...r, tier: 'r' as const })));
  }
  const more = rows.length > query.first;
  const page: BankSearchRow[] = rows.slice(0, query.first).map((r) => ({
    ...itemOf(r),
    cursor: encodeCursor(
      r.tier === 'n' ? { kind: 'n', at: new Date(r.at).getTime(), id: r.eid } : r.tier === 'f' ? { kind: 'f', cls: r.cls === 2 ? 2 : 1, at: new Date(r.at).getTime(), id: r.eid } : { kind: 'r', score: normaliseScore(String(r.score)), id: r.eid },
    ),
  }));
  return { rows: page, next: more ? (page.at(-1)?.cursor ?? null) : null, ranked };
}

/** Newest first: the index (community, published_at desc, id desc), after the cursor. */
async function newestRows(deps: BankDeps, query: BankQuery, from: NewestKey | null, limit: number): Promise<PageRow[]> {
  let q = candidates(deps, query).select(['e.id as eid', 'e.published_at as at', sql<number | null>`null::int`.as('cls'), sql<string | null>`null::text`.as('score')]);
  if (from) q = q.where((eb) => eb(eb.refTuple('e.published_at', 'e.id'), '<', eb.tuple(new Date(from.at), from.id)));
  const page = q.orderBy('e.published_at', 'desc').orderBy('e.id', 'desc').limit(limit);
  return pageRows(deps, page as never, [['p.at', 'desc'], ['p.eid', 'desc']], null);
}

/**
 * The full-text tier in two classes, newest first in each: 2 when a word of the search is in the
 * title (`ts_filter(search_vector, '{a}')`, its own GIN index), 1 otherwise. One statement per class,
 * the second only when the first did not fill the page: in one statement the planner would read the
 * second class even when the first filled it, and it cannot tell how many of the matches are in
 * titles (the two conditions are one), so a common word in many titles read the whole library.
 */
async function textRows(deps: BankDeps, query: BankQuery, from: TextKey | null, limit: number): Promise<PageRow[]> {
  const q = query.q.toLowerCase();
  const tsq = sql`websearch_to_tsquery('simple', ${q})`;
  const anyWord = sql`replace(websearch_to_tsquery('simple', ${q})::text, ' & ', ' | ')::tsquery`;
  const inTitle = sql<SqlBool>`ts_filter(e.search_vector, '{a}') @@ ${anyWord}`;
  const rows: PageRow[] = [];
  for (const cls of ([2, 1] as const).filter((c) => !from || c <= from.cls)) {
    if (rows.length >= limit) break;
    let b = candidates(deps, query).where(sql<SqlBool>`e.search_vector @@ ${tsq}`);
    b = cls === 2 ? b.where(inTitle) : b.where(sql<SqlBool>`not (${inTitle})`);
    if (from && from.cls === cls) b = b.where((eb) => eb(eb.refTuple('e.published_at', 'e.id'), '<', eb.tuple(new Date(from.at), from.id)));
    const page = b
      .select(['e.id as eid', 'e.published_at as at', sql<number>`${sql.lit(cls)}::int`.as('cls'), sql<string | null>`null::text`.as('score')])
      .orderBy('e.published_at', 'desc')
      .orderBy('e.id', 'desc')
      .limit(limit - rows.length);
    rows.push(...(await pageRows(deps, page as never, [['p.at', 'desc'], ['p.eid', 'desc']], null)));
  }
  return rows;
}

/**
 * How many trigram candidates the typo tier ranks at most: each is checked and scored (word
 * similarity, tens of microseconds), so a misspelling of a word in thousands of titles would cost
 * thousands of checks; past this many it ranks the first ones the index gives (all of them near
 * spellings), and the tier's cost stops growing with the library.
 */
export const TRIGRAM_CANDIDATES = 200;

/** The trigram tier: the items only `q <% search_text` finds (title and author), by word similarity then entry id. */
async function trigramRows(deps: BankDeps, query: BankQuery, from: RankKey | null, limit: number): Promise<PageRow[]> {
  const q = query.q.toLowerCase();
  const fts = sql<SqlBool>`e.search_vector @@ websearch_to_tsquery('simple', ${q})`;
  const matches = candidates(deps, query)
    .where(sql<SqlBool>`${q} <% e.search_text`)
    .where(sql<SqlBool>`not (${fts})`)
    .select(['e.id as eid', 'e.published_at as at', 'e.search_text'])
    .limit(TRIGRAM_CANDIDATES);
  const score = sql<string>`round(word_similarity(${q}, m.search_text)::numeric, 6)`;
  const scored = deps.db.selectFrom(matches.as('m')).select(['m.eid', 'm.at', sql<number | null>`null::int`.as('cls'), score.as('score')]);
  let page = deps.db.selectFrom(scored.as('r')).selectAll();
  if (from) page = page.where(sql<SqlBool>`(r.score < ${from.score}::numeric or (r.score = ${from.score}::numeric and r.eid > ${from.id}))`);
  page = page.orderBy('r.score', 'desc').orderBy('r.eid', 'asc').limit(limit);
  return pageRows(deps, page as never, [['p.score', 'desc'], ['p.eid', 'asc']], null);
}

/** A numeric as the database printed it ("0.607927", "1.000000"), as the cursor keeps it. */
const normaliseScore = (s: string) => (/^\d{1,6}(\.\d{1,6})?$/.test(s) ? s : Number(s).toFixed(6));

/**
 * The keys of the library's items matching `query`'s filters (kinds, tags, collections), newest first,
 * at most `limit`: what other areas ask (`bankItemKeys`). The index is brought up to date first.
 */
export async function matchingKeys(deps: Pick<BankDeps, 'db' | 'community' | 'clock'>, query: Pick<BankQuery, 'kinds' | 'tagIds' | 'collectionIds'>, limit: number): Promise<{ kind: BankKind; id: number }[]> {
  await refreshBankIndex(deps.db, deps.community, () => deps.clock.now());
  const full: BankQuery = { q: '', authorId: null, from: null, to: null, after: null, first: limit, ...query };
  const rows = await candidates({ ...deps, publicUrl: '' }, full).select(['e.kind', 'e.item_id']).orderBy('e.published_at', 'desc').orderBy('e.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ kind: r.kind, id: r.item_id }));
}
