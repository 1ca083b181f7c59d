import { sql } from 'kysely';
import { ensureText } from '#src/core/fields.ts';
import { parseId } from '#src/core/ids.ts';
import { selectInCommunity } from '#src/db/tenancy.ts';
import type { ArticleStatus } from './rules.ts';
import { articlesQuery, type ArticleDeps, type ArticleRow, type Person } from './queries.ts';
import { ensureEditor } from './shared.ts';

/** The community's articles for the editors: newest status change first, at most 100 (staff only). */
export async function listCommunityArticles(deps: ArticleDeps, person: Person, input: { status?: ArticleStatus | null; first?: number }): Promise<ArticleRow[]> {
  ensureEditor(person);
  let q = articlesQuery(deps)
    .orderBy('articles.status_updated_at', 'desc')
    .orderBy('articles.id', 'desc')
    .limit(Math.min(Math.max(input.first ?? 100, 1), 100));
  if (input.status) q = q.where('articles.status', '=', input.status);
  return q.execute();
}

export const BOARD_PAGE_SIZE = 25;
export const BOARD_SEARCH_WARNING = 100;

export type BoardQuery = {
  status?: ArticleStatus | null;
  /** An editor's id, or 'none' for articles without an editor. */
  editor?: number | 'none' | null;
  /** A member's id: only their articles. */
  author?: number | null;
  /** Words of the title or the member's name. */
  q?: string | null;
  sort?: 'newest' | 'oldest';
  /** Keyset cursor: "<status_updated_at ISO>_<id>" of the last row of the previous page. */
  after?: string | null;
  /** Keyset cursor of the first row of the next page: the page before it (the board's Previous link). */
  before?: string | null;
};

/** A keyset cursor "<ISO time>_<id>", or null when it is not one. */
function boardCursor(value: string | null | undefined): { at: Date; id: number } | null {
  if (!value) return null;
  const [iso, idText] = value.split('_');
  const at = new Date(iso ?? '');
  const id = parseId(idText);
  return !Number.isNaN(at.getTime()) && id !== null ? { at, id } : null;
}

const cursorOf = (row: { status_updated_at: Date | string; id: number }) => `${new Date(row.status_updated_at).toISOString()}_${row.id}`;

/**
 * The board's filters (status, editor, member, words of the title or the member's name), for any
 * query that joins the current revision and the author as `author`: the board, its count, the export.
 */
function boardFilters(query: BoardQuery) {
  ensureText({ q: query.q }); // the search words reach SQL: no NUL or other control character
  return <T extends { where: (...args: any[]) => T }>(qb: T): T => {
    let r = qb;
    if (query.status) r = r.where('articles.status', '=', query.status);
    if (query.editor === 'none') r = r.where('articles.editor_id', 'is', null);
    else if (typeof query.editor === 'number') r = r.where('articles.editor_id', '=', query.editor);
    if (typeof query.author === 'number') r = r.where('articles.author_id', '=', query.author);
    const text = query.q?.trim();
    if (text) {
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      r = r.where((eb: any) => eb.or([eb('article_revisions.title', 'ilike', like), eb(sql<string>`author.first_name || ' ' || author.last_name`, 'ilike', like)]));
    }
    return r;
  };
}

/** The editors' board: filters, search, sort and keyset pagination over the community's articles. */
export async function searchBoard(deps: ArticleDeps, person: Person, query: BoardQuery) {
  ensureEditor(person);
  const newest = query.sort !== 'oldest';
  let q = articlesQuery(deps)
    .innerJoin('users as author', 'author.id', 'articles.author_id')
    .leftJoin('users as editor', 'editor.id', 'articles.editor_id')
    .select(['author.first_name as author_first', 'author.last_name as author_last', 'editor.first_name as editor_first', 'editor.last_name as editor_last']);
  let counter = selectInCommunity(deps.db, 'articles', deps.community)
    .leftJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
    .innerJoin('users as author', 'author.id', 'articles.author_id')
    .select((eb) => eb.fn.countAll<number>().as('n'));
  const filters = boardFilters(query);
  q = filters(q as any) as typeof q;
  counter = filters(counter as any) as typeof counter;
  // Going back (before) reads the rows just ahead of the cursor in the opposite order, then turns them round.
  const before = boardCursor(query.before);
  const after = before ? null : boardCursor(query.after);
  const cursor = before ?? after;
  const forward = before === null;
  const descending = newest === forward;
  if (cursor) {
    const cmp = descending ? '<' : '>';
    q = q.where((eb) => eb.or([eb('articles.status_updated_at', cmp, cursor.at), eb.and([eb('articles.status_updated_at', '=', cursor.at), eb('articles.id', cmp, cursor.id)])]));
  }
  const direction = descending ? 'desc' : 'asc';
  const [rows, total] = await Promise.all([
    q.orderBy('articles.status_updated_at', direction).orderBy('articles.id', direction).limit(BOARD_PAGE_SIZE + 1).execute(),
    counter.executeTakeFirstOrThrow(),
  ]);
  const more = rows.length > BOARD_PAGE_SIZE;
  const page = rows.slice(0, BOARD_PAGE_SIZE);
  if (!forward) page.reverse();
  const first = page[0];
  const last = page.at(-1);
  return {
    rows: page,
    total: Number(total.n),
    tooMany: Boolean(query.q?.trim()) && Number(total.n) > BOARD_SEARCH_WARNING,
    next: (forward ? more : true) && last ? cursorOf(last) : null,
    /** The page before this one: none on the first page. */
    previous: (forward ? cursor !== null : more) && first ? cursorOf(first) : null,
  };
}

/** Staff of the community, for the assign-editor choice. */
export async function listEditors(deps: ArticleDeps) {
  return selectInCommunity(deps.db, 'memberships', deps.community)
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.first_name', 'users.last_name'])
    .where((eb) => eb(eb.val('ADMIN'), '=', eb.fn.any('memberships.roles')))
    .where('memberships.is_active', '=', true)
    .orderBy('users.first_name')
    .execute();
}

export async function latestCopyScan(deps: ArticleDeps, articleId: number) {
  return selectInCommunity(deps.db, 'copy_scans', deps.community).selectAll().where('article_id', '=', articleId).orderBy('id', 'desc').executeTakeFirst();
}

/** The most rows one CSV export carries. */
export const BOARD_EXPORT_MAX = 5000;

/**
 * The board's rows for the CSV export: the same filters and order as searchBoard, every matching row
 * up to BOARD_EXPORT_MAX (no pages), with the names and the author's email.
 */
export async function exportBoard(deps: ArticleDeps, person: Person, query: BoardQuery) {
  ensureEditor(person);
  const direction = query.sort === 'oldest' ? 'asc' : 'desc';
  let q = articlesQuery(deps)
    .innerJoin('users as author', 'author.id', 'articles.author_id')
    .leftJoin('users as editor', 'editor.id', 'articles.editor_id')
    .select([
      'author.first_name as author_first',
      'author.last_name as author_last',
      'author.email as author_email',
      'editor.first_name as editor_first',
      'editor.last_name as editor_last',
    ]);
  q = boardFilters(query)(q as any) as typeof q;
  const rows = await q
    .orderBy('articles.status_updated_at', direction)
    .orderBy('articles.id', direction)
    .limit(BOARD_EXPORT_MAX + 1)
    .execute();
  return { rows: rows.slice(0, BOARD_EXPORT_MAX), truncated: rows.length > BOARD_EXPORT_MAX };
}
