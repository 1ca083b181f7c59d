import { sql } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import type { Clock } from '#src/core/clock.ts';
import { AppError, fieldsError, type FieldErrors } from '#src/core/errors.ts';
import {
  canActAsEditor,
  canApproveArticle,
  canEditArticle,
  canEditorEditText,
  canJoinFeedback,
  canViewArticle,
  type ArticlePerson,
} from './guardian.ts';
import { formatDate } from '#src/core/format.ts';
import { ensureText } from '#src/core/fields.ts';
import { parseId } from '#src/core/ids.ts';
import type { Translate } from '#src/core/i18n.ts';
import type { Db } from '#src/db/index.ts';
import type { Notifier } from '#src/features/notifications/notifier.ts';
import { deleteInCommunity, selectInCommunity } from '#src/db/tenancy.ts';
import type { ArticleStatusValue, Community } from '#src/db/types.ts';
import {
  activeBlackout,
  AUTHOR_EDITABLE,
  blackoutDays,
  canMove,
  checkBody,
  checkByline,
  checkTitle,
  IN_FLIGHT,
  nextStatuses,
  PENDING_PUBLICATION,
  PUBLISHED,
  TITLE_MAX,
  type Actor,
  type ArticleStatus,
  type BlackoutWindow,
} from './rules.ts';
import { countWords, plainText } from '#src/lib/plain-text.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';

export type ArticleDeps = { db: Db; clock: Clock; community: Community; t: Translate; notifier: Notifier };
/** Who acts: the member, and whether they are staff (ADMIN) of the community. */
export type Person = ArticlePerson;

export const FEEDBACK_PAGE_SIZE = 20;
export const FEEDBACK_MAX_CHARS = 5000;

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

/** Only staff act as editors (the Guardian's canActAsEditor). */
function ensureEditor(person: Person): void {
  if (!canActAsEditor(person)) throw new AppError('Forbidden');
}

function invalid(field: string, key: string): AppError {
  return new AppError('Articles.Invalid', { fields: { [field]: { code: 'Articles.Invalid', key } } });
}

// ---------------------------------------------------------------------------------------------
// Reading

const ARTICLE_COLUMNS = [
  'articles.id',
  'articles.community_id',
  'articles.author_id',
  'articles.editor_id',
  'articles.status',
  'articles.status_updated_at',
  'articles.current_revision_id',
  'articles.scheduled_date',
  'articles.published_date',
  'articles.article_url',
  'articles.created_at',
  'articles.updated_at',
  'article_revisions.title',
  'article_revisions.content',
  'article_revisions.word_count',
  'article_revisions.author_id as revision_author_id',
  'article_revisions.created_at as revision_created_at',
  'article_revisions.updated_at as revision_updated_at',
] as const;

function articlesQuery(deps: Pick<ArticleDeps, 'db' | 'community'>) {
  return selectInCommunity(deps.db, 'articles', deps.community).leftJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id').select(ARTICLE_COLUMNS);
}

export type ArticleRow = NonNullable<Awaited<ReturnType<ReturnType<typeof articlesQuery>['executeTakeFirst']>>>;

/** The Guardian's canView (spec section 6), as the Article's `canView` field reports it. */
export const canView = (person: Person, article: Pick<ArticleRow, 'author_id' | 'status'>): boolean => canViewArticle(person, article);

/** The spec's Article (section 3) as clients see it. */
export function articleView(article: ArticleRow, person: Person) {
  return {
    id: article.id,
    status: article.status,
    statusUpdatedAt: article.status_updated_at,
    updatedAt: article.updated_at,
    canView: canView(person, article),
    currentRevision: article.current_revision_id
      ? { id: article.current_revision_id, title: article.title ?? '', content: article.content ?? '', updatedAt: article.revision_updated_at }
      : null,
    wordCount: article.word_count ?? 0,
    editor: article.editor_id ? { id: article.editor_id } : null,
    author: { id: article.author_id },
    scheduledDate: article.scheduled_date,
    publishedDate: article.published_date,
    articleUrl: article.article_url,
  };
}

export async function loadArticle(deps: Pick<ArticleDeps, 'db' | 'community'>, id: number): Promise<ArticleRow> {
  const row = await articlesQuery(deps).where('articles.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NotFound');
  return row;
}

/** Loads an article the person may read (canView); others get NotFound, not a hint that it exists. */
export async function getArticle(deps: ArticleDeps, person: Person, id: number): Promise<ArticleRow> {
  const row = await loadArticle(deps, id);
  if (!canView(person, row)) throw new AppError('NotFound');
  return row;
}

export async function findArticleInFlight(deps: ArticleDeps, userId: number): Promise<ArticleRow | undefined> {
  return articlesQuery(deps)
    .where('articles.author_id', '=', userId)
    .where('articles.status', 'in', IN_FLIGHT as ArticleStatusValue[])
    .orderBy('articles.id', 'desc')
    .executeTakeFirst();
}

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

export async function listPendingPublication(deps: ArticleDeps, userId: number): Promise<ArticleRow[]> {
  return articlesQuery(deps)
    .where('articles.author_id', '=', userId)
    .where('articles.status', 'in', PENDING_PUBLICATION as ArticleStatusValue[])
    .orderBy('articles.status_updated_at', 'desc')
    .execute();
}

export async function listPublished(deps: ArticleDeps, userId: number): Promise<ArticleRow[]> {
  return articlesQuery(deps)
    .where('articles.author_id', '=', userId)
    .where('articles.status', 'in', PUBLISHED as ArticleStatusValue[])
    .orderBy('articles.published_date', 'desc')
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Agreements, byline, blackout

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
  await deps.db.insertInto('article_agreements').values({ community_id: deps.community.id, user_id: userId, kind: 'PRODUCT', created_at: now }).execute();
  return { createdAt: now };
}

async function ensureProductAgreement(deps: ArticleDeps, userId: number) {
  if (!(await productAgreementStatus(deps, userId))) throw new AppError('Articles.AgreementRequired');
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
  return deps.db
    .insertInto('article_user_settings')
    .values({ community_id: deps.community.id, user_id: userId, byline, updated_at: now })
    .onConflict((oc) => oc.columns(['community_id', 'user_id']).doUpdateSet({ byline, updated_at: now }))
    .returning(['id', 'byline'])
    .executeTakeFirstOrThrow();
}

export async function listBlackouts(deps: Pick<ArticleDeps, 'db' | 'community'>): Promise<BlackoutWindow[]> {
  const rows = await selectInCommunity(deps.db, 'blackout_windows', deps.community).select(['starts_on', 'ends_before']).orderBy('starts_on').execute();
  return rows.map((r) => ({ startsOn: String(r.starts_on), endsBefore: String(r.ends_before) }));
}

export async function addBlackout(deps: ArticleDeps, person: Person, window: BlackoutWindow): Promise<void> {
  ensureEditor(person);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(window.startsOn) || !/^\d{4}-\d{2}-\d{2}$/.test(window.endsBefore) || window.startsOn >= window.endsBefore) {
    throw new AppError(140, { fields: { startsOn: { code: 140, key: 'errors.client.invalidDate' } } });
  }
  await deps.db.insertInto('blackout_windows').values({ community_id: deps.community.id, starts_on: window.startsOn, ends_before: window.endsBefore }).execute();
}

export async function blackoutNow(deps: ArticleDeps): Promise<BlackoutWindow | null> {
  return activeBlackout(deps.clock.now(), await listBlackouts(deps));
}

// ---------------------------------------------------------------------------------------------
// The member's side

function cleanDraft(input: { title?: unknown; content?: unknown }) {
  ensureText({ title: input.title, content: input.content }, ['content']);
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  const content = cleanRichText(typeof input.content === 'string' ? input.content : '');
  if (title.length > TITLE_MAX) throw invalid('title', 'articles.errors.titleTooLong');
  return { title, content, wordCount: countWords(content) };
}

/** Steps that ask something of the author open the editor; the others the dashboard. */
const NOTIFICATION_URL: Partial<Record<string, string>> = { NEEDS_REVISION: '/articles/edit', READY_TO_APPROVE: '/articles/edit', feedback: '/articles/edit' };

/**
 * The author's notification record for a step that concerns them (spec section 3's Notification:
 * url, message, hasRead, createdAt). Written with the step itself where a transaction is given.
 */
async function notifyAuthor(db: Db, deps: Omit<ArticleDeps, 'db'>, article: Pick<ArticleRow, 'author_id' | 'title'>, key: string, values: Record<string, unknown> = {}) {
  const title = article.title?.trim() || deps.t('articles.notifications.untitled');
  await deps.notifier.notify(db, {
    communityId: deps.community.id,
    userId: article.author_id,
    kind: key === 'feedback' ? 'article_feedback' : 'article_progress',
    url: NOTIFICATION_URL[key] ?? '/articles',
    message: deps.t(`articles.notifications.${key}`, { title, ...values }),
    createdAt: deps.clock.now(),
  });
}

/** articleCreate: the member's new draft (one in flight at a time). */
export async function createArticle(deps: ArticleDeps, userId: number): Promise<ArticleRow> {
  await ensureProductAgreement(deps, userId);
  const existing = await findArticleInFlight(deps, userId);
  if (existing) return existing;
  // A community that takes new articles through an external application form (spec section 4).
  if (deps.community.article_application_url) throw new AppError('Articles.ApplicationRequired');
  const now = deps.clock.now();
  let id: number;
  try {
    id = await insertDraft(deps, userId, now);
  } catch (e) {
    // Another request created the member's draft a moment ago (articles_one_in_flight): that one it is.
    if (!isUniqueViolation(e)) throw e;
    const created = await findArticleInFlight(deps, userId);
    if (!created) throw e;
    return created;
  }
  return loadArticle(deps, id);
}

/** Postgres' unique_violation, as both drivers report it. */
export const isUniqueViolation = (e: unknown) => (e as { code?: unknown } | null)?.code === '23505';

async function insertDraft(deps: ArticleDeps, userId: number, now: Date): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const article = await trx
      .insertInto('articles')
      .values({ community_id: deps.community.id, author_id: userId, status: 'DRAFT', status_updated_at: now, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const revision = await trx
      .insertInto('article_revisions')
      .values({ community_id: deps.community.id, article_id: article.id, author_id: userId, title: '', content: '', word_count: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('articles').set({ current_revision_id: revision.id }).where('id', '=', article.id).where('community_id', '=', deps.community.id).execute();
    return article.id;
  });
}

/**
 * Saves a writer's text. The revision being written is updated in place until a status change seals
 * it (the text as it was handed over); then, or when someone else wrote the current one, a new
 * revision starts, so every round is kept.
 */
async function writeRevision(deps: ArticleDeps, article: ArticleRow, authorId: number, draft: { title: string; content: string; wordCount: number }) {
  await deps.db.transaction().execute((trx) => writeRevisionIn(trx as unknown as Db, deps, article, authorId, draft));
}

/** writeRevision inside the caller's transaction (submitting writes the text and moves it in one). */
async function writeRevisionIn(trx: Db, deps: ArticleDeps, article: ArticleRow, authorId: number, draft: { title: string; content: string; wordCount: number }) {
  const now = deps.clock.now();
  const sealed =
    article.current_revision_id !== null &&
    (await selectInCommunity(trx, 'article_status_events', deps.community)
      .select('id')
      .where('article_id', '=', article.id)
      .where('revision_id', '=', article.current_revision_id)
      .executeTakeFirst()) !== undefined;
  const continuing = article.current_revision_id !== null && article.revision_author_id === authorId && !sealed;
  // Still in the status it was read in: a save that lands just after a move (the editors took the
  // article, or gave it back) must not change the text that was handed over. The row stays locked
  // until the transaction ends, so a concurrent save waits and then finds the new status.
  const still = await trx
    .updateTable('articles')
    .set({ updated_at: now })
    .where('id', '=', article.id)
    .where('community_id', '=', deps.community.id)
    .where('status', '=', article.status)
    .executeTakeFirst();
  if (Number(still.numUpdatedRows) !== 1) throw new AppError('Articles.NotEditable');
  if (continuing) {
    await trx
      .updateTable('article_revisions')
      .set({ title: draft.title, content: draft.content, word_count: draft.wordCount, updated_at: now })
      .where('id', '=', article.current_revision_id!)
      .where('community_id', '=', deps.community.id)
      .execute();
  } else {
    const revision = await trx
      .insertInto('article_revisions')
      .values({ community_id: deps.community.id, article_id: article.id, author_id: authorId, title: draft.title, content: draft.content, word_count: draft.wordCount, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.updateTable('articles').set({ current_revision_id: revision.id }).where('id', '=', article.id).where('community_id', '=', deps.community.id).execute();
  }
}

async function authorsEditableArticle(deps: ArticleDeps, userId: number, articleId: number): Promise<ArticleRow> {
  const article = await loadArticle(deps, articleId);
  if (article.author_id !== userId) throw new AppError('NotFound');
  if (!canEditArticle({ userId, isStaff: false }, article)) throw new AppError('Articles.NotEditable');
  return article;
}

/** articleAutoSaveRevision: with no article in flight the first autosave creates one. */
export async function autosaveRevision(deps: ArticleDeps, userId: number, input: { articleId?: number | null; title?: unknown; content?: unknown }): Promise<ArticleRow> {
  const draft = cleanDraft(input);
  const article = input.articleId ? await authorsEditableArticle(deps, userId, input.articleId) : await createArticle(deps, userId);
  if (!input.articleId && !(AUTHOR_EDITABLE as readonly string[]).includes(article.status)) throw new AppError('Articles.NotEditable');
  await writeRevision(deps, article, userId, draft);
  return loadArticle(deps, article.id);
}

/** What stands between the author and Submit (spec section 5); empty when nothing does. */
export async function submitBlockers(deps: ArticleDeps, userId: number, draft: { title: string; content: string }): Promise<Record<string, string>> {
  const blockers: Record<string, string> = {};
  const title = checkTitle(draft.title);
  if (!title.ok) blockers.title = title.reason === 'required' ? 'articles.errors.titleRequired' : 'articles.errors.titleTooLong';
  const body = checkBody(draft.content);
  if (!body.ok) blockers.content = body.reason === 'tooShort' ? 'articles.errors.bodyTooShort' : 'articles.errors.bodyTooLong';
  if (!(await getByline(deps, userId))) blockers.byline = 'articles.errors.bylineMissing';
  return blockers;
}

/** articleSendForReview: the text, the article agreement, the rules, no blackout; then the copy scan. */
export async function submitForReview(
  deps: ArticleDeps,
  userId: number,
  input: { articleId: number; title?: unknown; content?: unknown; agreed?: boolean },
  afterCommit?: (article: ArticleRow) => Promise<void>,
): Promise<ArticleRow> {
  const article = await authorsEditableArticle(deps, userId, input.articleId);
  const draft = cleanDraft(input);
  // The notice names the community's own window (its days travel as the message's values).
  const blackout = await blackoutNow(deps);
  if (blackout) throw new AppError('Articles.Blackout', { values: blackoutDays(blackout) });
  const blockers = await submitBlockers(deps, userId, draft);
  if (Object.keys(blockers).length) {
    throw new AppError('Articles.Invalid', { fields: Object.fromEntries(Object.entries(blockers).map(([f, key]) => [f, { code: 'Articles.Invalid' as const, key }])) });
  }
  if (input.agreed !== true) throw new AppError('Articles.AgreementRequired', { fields: { agreed: { code: 'Articles.AgreementRequired', key: 'articles.errors.agreementRequired' } } });
  const now = deps.clock.now();
  // One transaction: the text submitted is the text handed over (a save from another tab waits for
  // it, then finds the article submitted), and the event names the revision it was written to.
  await deps.db.transaction().execute(async (trx) => {
    const tx = trx as unknown as Db;
    await writeRevisionIn(tx, deps, article, userId, draft);
    const written = await loadArticle({ db: tx, community: deps.community }, article.id);
    await trx.insertInto('article_agreements').values({ community_id: deps.community.id, user_id: userId, kind: 'SUBMISSION', article_id: article.id, created_at: now }).execute();
    await moveInTransaction(tx, deps, written, 'SUBMITTED_FOR_REVIEW', userId, {});
    await notifyAuthor(tx, deps, written, 'SUBMITTED_FOR_REVIEW');
  });
  const submitted = await loadArticle(deps, article.id);
  if (afterCommit) await afterCommit(submitted);
  return submitted;
}

/** articleApproveForPublishing: READY_TO_APPROVE to READY_TO_PUBLISH, with the approval agreement. */
/**
 * articleApproveForPublishing: READY_TO_APPROVE to READY_TO_PUBLISH, with the approval agreement.
 * `revisionId` is the version the member read (the preview sends it): if the editors changed the
 * text since, the approval is refused, so a member never approves a text they have not seen.
 */
export async function approveForPublishing(
  deps: ArticleDeps,
  userId: number,
  input: { articleId: number; agreed?: boolean; revisionId?: number | null },
): Promise<ArticleRow> {
  const article = await loadArticle(deps, input.articleId);
  if (article.author_id !== userId) throw new AppError('NotFound');
  if (!canApproveArticle({ userId, isStaff: false }, article) || !canMove('author', article.status, 'READY_TO_PUBLISH')) throw new AppError('Articles.TransitionRefused');
  if (input.revisionId != null && input.revisionId !== article.current_revision_id) throw new AppError('Articles.ChangedSinceOpened');
  if (input.agreed !== true) throw new AppError('Articles.AgreementRequired', { fields: { agreed: { code: 'Articles.AgreementRequired', key: 'articles.errors.agreementRequired' } } });
  const now = deps.clock.now();
  await deps.db.transaction().execute(async (trx) => {
    await trx.insertInto('article_agreements').values({ community_id: deps.community.id, user_id: userId, kind: 'APPROVAL', article_id: article.id, created_at: now }).execute();
    // The guarded move also pins the revision: a text edit needs a status the move has just left.
    await moveInTransaction(trx as unknown as Db, deps, article, 'READY_TO_PUBLISH', userId, {});
    await notifyAuthor(trx as unknown as Db, deps, article, 'READY_TO_PUBLISH');
  });
  return loadArticle(deps, article.id);
}

// ---------------------------------------------------------------------------------------------
// Status moves (editors and the scheduler)

async function moveInTransaction(
  trx: Db,
  deps: Pick<ArticleDeps, 'community' | 'clock'>,
  article: Pick<ArticleRow, 'id' | 'status' | 'current_revision_id'>,
  to: ArticleStatus,
  actorId: number | null,
  extra: { scheduledDate?: Date; articleUrl?: string; publishedDate?: Date; note?: string },
) {
  const now = deps.clock.now();
  // Only the request that still sees the status it read wins a race.
  const moved = await trx
    .updateTable('articles')
    .set({
      status: to,
      status_updated_at: now,
      updated_at: now,
      ...(extra.scheduledDate !== undefined ? { scheduled_date: extra.scheduledDate } : {}),
      ...(extra.articleUrl !== undefined ? { article_url: extra.articleUrl } : {}),
      ...(extra.publishedDate !== undefined ? { published_date: extra.publishedDate } : {}),
    })
    .where('id', '=', article.id)
    .where('community_id', '=', deps.community.id)
    .where('status', '=', article.status)
    // ...and the text it read: the event names the revision that was handed over.
    .where((eb) => (article.current_revision_id === null ? eb('current_revision_id', 'is', null) : eb('current_revision_id', '=', article.current_revision_id)))
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new AppError('Articles.TransitionRefused');
  await trx
    .insertInto('article_status_events')
    .values({
      community_id: deps.community.id,
      article_id: article.id,
      from_status: article.status,
      to_status: to,
      actor_id: actorId,
      revision_id: article.current_revision_id,
      note: extra.note ?? null,
      created_at: now,
    })
    .execute();
}

const NOTIFY_AUTHOR_ON: readonly ArticleStatus[] = ['FIRST_ROUND_EDIT', 'NEEDS_REVISION', 'FINAL_EDIT', 'READY_TO_APPROVE', 'SCHEDULED', 'MANUALLY_PUBLISHED', 'PUBLISHED', 'ON_HOLD', 'TRASHED'];

/** An editor moves an article along an allowed transition; each move is recorded with who and when. */
export async function moveArticle(
  deps: ArticleDeps,
  person: Person,
  input: { articleId: number; to: ArticleStatus; scheduledDate?: unknown; articleUrl?: unknown; note?: string },
): Promise<ArticleRow> {
  ensureEditor(person);
  ensureText({ scheduledDate: input.scheduledDate, articleUrl: input.articleUrl, note: input.note }, ['note']);
  const article = await loadArticle(deps, input.articleId);
  if (!canMove('editor', article.status, input.to, await heldFrom(deps, article))) throw new AppError('Articles.TransitionRefused');
  const extra: { scheduledDate?: Date; articleUrl?: string; publishedDate?: Date; note?: string } = { note: input.note };
  const now = deps.clock.now();
  if (input.to === 'SCHEDULED') {
    const when = input.scheduledDate instanceof Date ? input.scheduledDate : new Date(String(input.scheduledDate ?? ''));
    if (Number.isNaN(when.getTime()) || when <= now) throw invalid('scheduledDate', 'articles.errors.scheduleInPast');
    extra.scheduledDate = when;
  }
  if (input.to === 'MANUALLY_PUBLISHED') {
    const url = typeof input.articleUrl === 'string' ? input.articleUrl.trim() : '';
    if (!/^https?:\/\/\S+$/.test(url) || !URL.canParse(url)) throw invalid('articleUrl', 'articles.errors.articleUrl');
    extra.articleUrl = url;
    extra.publishedDate = now;
  }
  if (input.to === 'PUBLISHED') extra.publishedDate = now;
  try {
    await deps.db.transaction().execute(async (trx) => {
      await moveInTransaction(trx as unknown as Db, deps, article, input.to, person.userId, extra);
      if (NOTIFY_AUTHOR_ON.includes(input.to)) {
        await notifyAuthor(trx as unknown as Db, deps, article, input.to, input.to === 'SCHEDULED' ? { date: formatDate(extra.scheduledDate!) } : {});
      }
    });
  } catch (e) {
    // Back in flight (out of the trash, back to proofreading after approval) while the member has begun another.
    if (isUniqueViolation(e)) throw new AppError('Articles.OtherInFlight', { cause: e });
    throw e;
  }
  return loadArticle(deps, article.id);
}

/** For an article ON_HOLD: the status it was held from (its last move into ON_HOLD), else null. */
export async function heldFrom(deps: Pick<ArticleDeps, 'db' | 'community'>, article: Pick<ArticleRow, 'id' | 'status'>): Promise<ArticleStatus | null> {
  if (article.status !== 'ON_HOLD') return null;
  const row = await selectInCommunity(deps.db, 'article_status_events', deps.community)
    .select('from_status')
    .where('article_id', '=', article.id)
    .where('to_status', '=', 'ON_HOLD')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return (row?.from_status as ArticleStatus | undefined) ?? null;
}

/** The moves an editor may make now (the board offers exactly these). */
export async function editorMoves(deps: ArticleDeps, person: Person, article: Pick<ArticleRow, 'id' | 'status'>): Promise<readonly ArticleStatus[]> {
  ensureEditor(person);
  return nextStatuses('editor', article.status, await heldFrom(deps, article));
}

/** Assigns (or clears) the editor of an article; the editor must be staff of the community. */
export async function assignEditor(deps: ArticleDeps, person: Person, input: { articleId: number; editorId: number | null }): Promise<ArticleRow> {
  ensureEditor(person);
  const article = await loadArticle(deps, input.articleId);
  if (input.editorId !== null) {
    const editor = await selectInCommunity(deps.db, 'memberships', deps.community).select('roles').where('user_id', '=', input.editorId).where('is_active', '=', true).executeTakeFirst();
    if (!editor?.roles.includes('ADMIN')) throw invalid('editorId', 'articles.errors.editorNotStaff');
  }
  await deps.db.updateTable('articles').set({ editor_id: input.editorId, updated_at: deps.clock.now() }).where('id', '=', article.id).where('community_id', '=', deps.community.id).execute();
  return loadArticle(deps, article.id);
}

/** Editors edit the text while the article is in their hands; every editor round is its own revision. */
export async function editArticleText(deps: ArticleDeps, person: Person, input: { articleId: number; title?: unknown; content?: unknown }): Promise<ArticleRow> {
  const article = await articleForEditorText(deps, person, input.articleId);
  await writeRevision(deps, article, person.userId, cleanDraft(input));
  return loadArticle(deps, article.id);
}

/** The article an editor is about to correct: staff only, and only in EDITOR_EDITABLE statuses. */
async function articleForEditorText(deps: ArticleDeps, person: Person, articleId: number): Promise<ArticleRow> {
  ensureEditor(person);
  const article = await loadArticle(deps, articleId);
  if (!canEditorEditText(person, article)) throw new AppError('Articles.NotEditable');
  return article;
}

/** Every revision of an article, oldest first (editors compare any two). */
export async function listRevisions(deps: ArticleDeps, person: Person, articleId: number) {
  await getArticle(deps, person, articleId);
  return selectInCommunity(deps.db, 'article_revisions', deps.community)
    .select(['id', 'author_id', 'title', 'content', 'word_count', 'created_at', 'updated_at'])
    .where('article_id', '=', articleId)
    .orderBy('id')
    .execute();
}

/** The article's history: every move with who (null: the scheduler) and when, oldest first. */
export async function listStatusEvents(deps: ArticleDeps, person: Person, articleId: number) {
  await getArticle(deps, person, articleId);
  return selectInCommunity(deps.db, 'article_status_events', deps.community)
    .leftJoin('users as actor', 'actor.id', 'article_status_events.actor_id')
    .select([
      'article_status_events.id',
      'article_status_events.from_status',
      'article_status_events.to_status',
      'article_status_events.actor_id',
      'article_status_events.note',
      'article_status_events.created_at',
      'actor.first_name as actor_first',
      'actor.last_name as actor_last',
    ])
    .where('article_status_events.article_id', '=', articleId)
    .orderBy('article_status_events.id')
    .execute();
}

/**
 * The scheduler's job: every SCHEDULED article whose time has come becomes PUBLISHED, in every
 * community. Run by the job runner, never by a page load. Returns the ids it published.
 */
export async function publishDueArticles(db: Db, clock: Clock, t: Translate, notifier: Notifier): Promise<number[]> {
  const due = await db
    .selectFrom('articles')
    .innerJoin('communities', 'communities.id', 'articles.community_id')
    .leftJoin('article_revisions', 'article_revisions.id', 'articles.current_revision_id')
    .select(['articles.id', 'articles.status', 'articles.author_id', 'articles.current_revision_id', 'article_revisions.title', 'articles.community_id'])
    .where('articles.status', '=', 'SCHEDULED')
    .where('articles.scheduled_date', '<=', clock.now())
    .orderBy('articles.id')
    .limit(500)
    .execute();
  const published: number[] = [];
  for (const article of due) {
    const community = { id: article.community_id } as Community;
    try {
      await db.transaction().execute(async (trx) => {
        await moveInTransaction(trx as unknown as Db, { community, clock }, article, 'PUBLISHED', null, { publishedDate: clock.now() });
        await notifyAuthor(trx as unknown as Db, { clock, community, t, notifier }, article, 'PUBLISHED');
      });
    } catch (e) {
      if (e instanceof AppError && e.code === 'Articles.TransitionRefused') continue; // moved meanwhile
      throw e;
    }
    published.push(article.id);
  }
  return published;
}

// ---------------------------------------------------------------------------------------------
// Feedback between the author and the editors

export async function listFeedback(deps: ArticleDeps, person: Person, input: { articleId: number; last?: number; before?: number | null }) {
  const article = await getArticle(deps, person, input.articleId);
  if (!canJoinFeedback(person, article)) throw new AppError('NotFound');
  const last = Math.min(Math.max(input.last ?? FEEDBACK_PAGE_SIZE, 1), 100);
  let q = selectInCommunity(deps.db, 'article_feedback', deps.community)
    .innerJoin('users', 'users.id', 'article_feedback.author_id')
    // The writer's picture in this community (an editor may be staff without a membership here).
    .leftJoin('memberships', (join) => join.onRef('memberships.user_id', '=', 'article_feedback.author_id').onRef('memberships.community_id', '=', 'article_feedback.community_id'))
    .select([
      'article_feedback.id',
      'article_feedback.remark',
      'article_feedback.created_at',
      'article_feedback.read_at',
      'article_feedback.author_id',
      'users.first_name',
      'users.last_name',
      'memberships.avatar_url',
    ])
    .where('article_feedback.article_id', '=', article.id)
    .orderBy('article_feedback.id', 'desc')
    .limit(last + 1);
  if (input.before) q = q.where('article_feedback.id', '<', input.before);
  const rows = await q.execute();
  const page = rows.slice(0, last).reverse();
  return {
    remarks: page.map((r) => ({
      id: r.id,
      remark: r.remark,
      createdAt: r.created_at,
      // Read marks are per side (author, editors): one's own side's remarks are never "new".
      hasRead: r.read_at !== null || r.author_id === person.userId || (article.author_id !== person.userId && r.author_id !== article.author_id),
      author: { id: r.author_id, snapshot: { id: r.author_id, name: `${r.first_name} ${r.last_name}`.trim(), avatar: r.avatar_url ?? null } },
      cursor: String(r.id),
    })),
    pageInfo: { hasPreviousPage: rows.length > last, startCursor: page[0] ? String(page[0].id) : null, endCursor: page.at(-1) ? String(page.at(-1)!.id) : null },
  };
}

export async function createFeedback(deps: ArticleDeps, person: Person, input: { articleId: number; feedback: unknown }) {
  const article = await getArticle(deps, person, input.articleId);
  if (!canJoinFeedback(person, article)) throw new AppError('NotFound');
  ensureText({ feedback: input.feedback }, ['feedback']);
  const remark = typeof input.feedback === 'string' ? input.feedback.trim() : '';
  if (!remark) throw invalid('feedback', 'articles.errors.feedbackEmpty');
  if (remark.length > FEEDBACK_MAX_CHARS) throw invalid('feedback', 'articles.errors.feedbackTooLong');
  const row = await deps.db.transaction().execute(async (trx) => {
    const written = await trx
      .insertInto('article_feedback')
      .values({ community_id: deps.community.id, article_id: article.id, author_id: person.userId, remark, created_at: deps.clock.now() })
      .returning(['id', 'created_at'])
      .executeTakeFirstOrThrow();
    if (person.userId !== article.author_id) await notifyAuthor(trx as unknown as Db, deps, article, 'feedback');
    return written;
  });
  return { id: row.id, remark, createdAt: row.created_at };
}

/**
 * Read marks: the reader has seen everything the other side wrote. The two sides are the author and
 * the editors, so the author marks the editors' remarks and an editor marks the author's: one editor
 * opening the article does not mark another editor's remarks as read by the author.
 */
export async function markFeedbackRead(deps: ArticleDeps, person: Person, articleId: number): Promise<void> {
  const article = await getArticle(deps, person, articleId);
  if (!canJoinFeedback(person, article)) throw new AppError('NotFound');
  const isAuthor = article.author_id === person.userId;
  await deps.db
    .updateTable('article_feedback')
    .set({ read_at: deps.clock.now() })
    .where('community_id', '=', deps.community.id)
    .where('article_id', '=', article.id)
    .where('author_id', isAuthor ? '!=' : '=', article.author_id)
    .where('read_at', 'is', null)
    .execute();
}

// ---- The editors' board: CSV export, blackout windows, the editors' text form ----

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

/** The community's blackout windows with their ids, soonest first (for the admin list). */
export async function listBlackoutWindows(deps: ArticleDeps, person: Person) {
  ensureEditor(person);
  const rows = await selectInCommunity(deps.db, 'blackout_windows', deps.community).select(['id', 'starts_on', 'ends_before']).orderBy('starts_on').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, startsOn: String(r.starts_on), endsBefore: String(r.ends_before) }));
}

/** A calendar day written YYYY-MM-DD that exists (no 2025-02-30). */
function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/**
 * Adds a blackout window from the admin form, with a message for each field: both days required and
 * real, the end (the first day submissions are open again) after the start.
 */
export async function addBlackoutWindow(deps: ArticleDeps, person: Person, input: { startsOn: unknown; endsBefore: unknown }): Promise<void> {
  ensureEditor(person);
  ensureText({ startsOn: input.startsOn, endsBefore: input.endsBefore });
  const startsOn = typeof input.startsOn === 'string' ? input.startsOn.trim() : '';
  const endsBefore = typeof input.endsBefore === 'string' ? input.endsBefore.trim() : '';
  const fields: FieldErrors = {};
  const check = (field: string, value: string) => {
    if (!value) fields[field] = { code: 900, key: 'admin.articles.blackouts.required' };
    else if (!isCalendarDay(value)) fields[field] = { code: 140, key: 'admin.articles.blackouts.badDate' };
  };
  check('startsOn', startsOn);
  check('endsBefore', endsBefore);
  if (!fields.startsOn && !fields.endsBefore && endsBefore <= startsOn) fields.endsBefore = { code: 140, key: 'admin.articles.blackouts.endBeforeStart' };
  if (Object.keys(fields).length) throw fieldsError(fields, 'Articles.Invalid');
  await addBlackout(deps, person, { startsOn, endsBefore });
}

/** Removes one of the community's blackout windows; another community's id is not found. */
export async function deleteBlackout(deps: ArticleDeps, person: Person, id: number): Promise<void> {
  ensureEditor(person);
  const result = await deleteInCommunity(deps.db, 'blackout_windows', deps.community).where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) throw new AppError('NotFound');
}

/**
 * The editors' text form: a round of editing keeps a title and a body (the member's draft may be
 * empty, an article in the editors' hands may not), then editArticleText records the revision.
 */
export async function editArticleTextFromBoard(
  deps: ArticleDeps,
  person: Person,
  input: { articleId: number; title: unknown; content: unknown; baseRevisionId?: number | null },
): Promise<ArticleRow> {
  const article = await articleForEditorText(deps, person, input.articleId);
  ensureText({ title: input.title, content: input.content }, ['content']);
  const fields: Record<string, { code: 'Articles.Invalid'; key: string }> = {};
  // The revision the editor corrected: if the member resubmitted, or another editor saved, since the
  // page was opened, saving would silently replace that text. The form comes back to compare first.
  if (input.baseRevisionId != null && input.baseRevisionId !== article.current_revision_id) {
    throw new AppError('Articles.Invalid', { fields: { content: { code: 'Articles.Invalid', key: 'admin.articles.text.changedSince' } } });
  }
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  if (!title) fields.title = { code: 'Articles.Invalid', key: 'articles.errors.titleRequired' };
  else if (title.length > TITLE_MAX) fields.title = { code: 'Articles.Invalid', key: 'articles.errors.titleTooLong' };
  if (countWords(cleanRichText(typeof input.content === 'string' ? input.content : '')) === 0) fields.content = { code: 'Articles.Invalid', key: 'admin.articles.text.bodyRequired' };
  if (Object.keys(fields).length) throw new AppError('Articles.Invalid', { fields });
  await writeRevision(deps, article, person.userId, cleanDraft(input));
  return loadArticle(deps, article.id);
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
