import { AppError } from '#src/core/errors.ts';
import { ensureText } from '#src/core/fields.ts';
import { canScanArticle } from './guardian.ts';
import { displayName } from '#shared/format.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { copyScanView, scanForRequest } from './copy-scan/stored.ts';
import { ARTICLE_STATUSES, type ArticleStatus } from './rules.ts';
import { acceptProductAgreement, getByline, productAgreementStatus, saveByline } from './byline-terms.ts';
import { approveForPublishing, autosaveRevision, createArticle, submitForReview } from './writing.ts';
import { articleView, findArticleInFlight, getArticle, loadArticle, type ArticleDeps, type ArticleRow, type Person } from './queries.ts';
import { assignEditor, editArticleTextFromBoard, editorMoves, listRevisions, listStatusEvents, moveArticle } from './review.ts';
import { createFeedback, listFeedback } from './feedback.ts';
import { latestCopyScan, listCommunityArticles, searchBoard } from './board.ts';
import { listPendingPublication, listPublished } from './publishing.ts';
import { parseId, requireId } from '#src/core/ids.ts';

/**
 * The articles operations of spec section 7 on both schemas: the member's side at /graphql and the
 * editors' side at /graphqlAdmin. Every resolver checks who is asking, then calls the service, which
 * holds the rules; errors reach clients as `extensions.code` through the plugin's formatter.
 */

/** Types both schemas share. Dates are ISO 8601 strings. */
const sharedTypeDefs = /* GraphQL */ `
  enum ArticleStatus { ${ARTICLE_STATUSES.join(' ')} }
  type ArticleRevisionSummary { id: ID!, title: String!, content: String!, updatedAt: String }
  type ArticlePersonRef { id: ID! }
  type Article {
    id: ID!
    status: ArticleStatus!
    statusUpdatedAt: String!
    updatedAt: String!
    "Whether the asker may view the article (its author, staff, or anyone once published)."
    canView: Boolean!
    currentRevision: ArticleRevisionSummary
    editor: ArticlePersonRef
    author: ArticlePersonRef!
    scheduledDate: String
    publishedDate: String
    articleUrl: String
    "Words of the current revision, markup stripped."
    wordCount: Int!
  }
  type ArticleFeedbackAuthorSnapshot { id: ID!, avatar: String, name: String! }
  type ArticleFeedbackAuthor { id: ID!, snapshot: ArticleFeedbackAuthorSnapshot! }
  type ArticleFeedback { id: ID!, remark: String!, createdAt: String!, hasRead: Boolean!, author: ArticleFeedbackAuthor! }
  type ArticleFeedbackEdge { cursor: String!, node: ArticleFeedback! }
  type ArticleFeedbackPageInfo { hasPreviousPage: Boolean!, startCursor: String, endCursor: String }
  type ArticleFeedbackConnection { edges: [ArticleFeedbackEdge!]!, pageInfo: ArticleFeedbackPageInfo! }
  enum CopyScanStatus { COMPLETED PENDING FAILED }
  type CopyScanResult {
    id: ID!
    exportId: String
    status: CopyScanStatus!
    identicalWords: Int
    minorChangedWords: Int
    relatedMeaningWords: Int
    "Percentage 0..100, one decimal."
    aggregatedScore: Float
    "0..1; null when the scanner cannot compute it."
    aiProbability: Float
    createdAt: String!
    updatedAt: String!
    totalExcluded: Int
    totalWords: Int
  }
`;

/** Merged into the member schema (src/features/areas.ts). */
const articleMemberTypeDefs = /* GraphQL */ `
  ${sharedTypeDefs}
  type ArticleUserSetting { id: ID!, byline: String! }
  type ArticleProductTerms { terms: String }
  type ArticleProductAgreementStatus { createdAt: String! }

  extend type Query {
    "The remarks between the author and the editors, oldest first; page backwards with last and before."
    articleFeedback(articleId: ID!, last: Int, before: String): ArticleFeedbackConnection!
    "The member's current article, not yet handed over for publication."
    articleInFlight: Article
    articlesPendingPublication: [Article!]!
    articlesPublished: [Article!]!
    articleGuidelines: String
    articleUserSetting: ArticleUserSetting
    articleProductTerms: ArticleProductTerms!
    "Null until the member accepts the product agreement."
    articleProductAgreementStatus: ArticleProductAgreementStatus
  }

  extend type Mutation {
    articleCreate: Article!
    "Without articleId, the first autosave creates the member's article."
    articleAutoSaveRevision(articleId: ID, title: String!, content: String!): Article!
    articleUserByline(byline: String!): ArticleUserSetting!
    articleAcceptProductAgreement: ArticleProductAgreementStatus!
    articleFeedbackCreate(articleId: ID!, feedback: String!): ArticleFeedback!
    "agreed: the article agreement was acknowledged; left out, the call itself is the acknowledgement (the spec's client asks first), false is refused."
    articleSendForReview(articleId: ID!, title: String!, content: String!, agreed: Boolean): Article!
    "Scans the article's current revision against the community's other articles: its author once it is submitted (articleSendForReview already scans it), or staff."
    articleScanCreate(articleId: ID!): CopyScanResult!
    "agreed: the approval agreement was acknowledged; left out, the call itself is the acknowledgement, false is refused. revisionId: the currentRevision.id the member read; refused with Articles.ChangedSinceOpened when the text changed since."
    articleApproveForPublishing(id: ID!, agreed: Boolean, revisionId: ID): Article!
  }
`;

/** Merged into the admin schema (which has no mutations of its own). */
const articleAdminTypeDefs = /* GraphQL */ `
  ${sharedTypeDefs}
  type ArticleRevision { id: ID!, title: String!, content: String!, wordCount: Int!, author: ArticlePersonRef!, createdAt: String!, updatedAt: String! }

  type ArticlePerson { id: ID!, name: String! }
  type ArticleBoardRow { article: Article!, title: String!, author: ArticlePerson!, editor: ArticlePerson }
  type ArticleBoardPage {
    rows: [ArticleBoardRow!]!
    "Every article matching the filters."
    total: Int!
    "A search matched more than 100 articles: narrow it."
    tooMany: Boolean!
    "Pass as after for the next page; null on the last."
    nextCursor: String
  }
  enum ArticleBoardSort { newest oldest }
  type ArticleStatusEvent { id: ID!, from: ArticleStatus!, to: ArticleStatus!, "null: the scheduler" actor: ArticlePerson, note: String, createdAt: String! }

  extend type Query {
    "The community's articles, newest status change first (at most 100)."
    articles(status: ArticleStatus, first: Int): [Article!]!
    "The editors' board: the same filters, search, sort and pages (25) as /admin/articles. editorId 'none': no editor."
    articleBoard(status: ArticleStatus, editorId: ID, memberId: ID, search: String, sort: ArticleBoardSort, after: String): ArticleBoardPage!
    "Every move of the article, oldest first, with who and when."
    articleStatusHistory(articleId: ID!): [ArticleStatusEvent!]!
    "The moves an editor may make now."
    articleAllowedMoves(articleId: ID!): [ArticleStatus!]!
    "The latest copy-scan result, or null when the article was never scanned."
    articleCopyScan(articleId: ID!): CopyScanResult
    article(id: ID!): Article!
    "Every revision, oldest first."
    articleRevisions(articleId: ID!): [ArticleRevision!]!
    articleFeedback(articleId: ID!, last: Int, before: String): ArticleFeedbackConnection!
  }

  extend type Mutation {
    "editorId null clears the editor; the editor must be staff of the community."
    articleAssignEditor(articleId: ID!, editorId: ID): Article!
    "scheduledDate (ISO 8601) for SCHEDULED, articleUrl for MANUALLY_PUBLISHED."
    articleMove(articleId: ID!, to: ArticleStatus!, scheduledDate: String, articleUrl: String, note: String): Article!
    articleEditText(articleId: ID!, title: String!, content: String!): Article!
    articleFeedbackCreate(articleId: ID!, feedback: String!): ArticleFeedback!
    articleScanCreate(articleId: ID!): CopyScanResult!
  }
`;

type Args = Record<string, unknown>;

const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/**
 * The agreement of a submission or an approval (decision 0009). Our pages send it from the modal; a
 * client that calls the operation as spec section 7 names it showed its own agreement modal first,
 * so a call without it is the acknowledgement. Only an explicit false is refused.
 */
const agreedIn = (args: Args): boolean => args.agreed == null || args.agreed === true;

/** A feedback cursor (the remark id as a string), or BadRequest.Validation. */
function cursorOf(v: unknown): number | null {
  if (v == null || v === '') return null;
  const id = typeof v === 'string' ? parseId(v) : null;
  if (id === null) throw new AppError('BadRequest.Validation');
  return id;
}

function depsOf(ctx: GraphQLContext): ArticleDeps {
  const app = ctx.request.server;
  return { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t, notifier: app.notifications, jobs: app.jobs };
}

/** The signed-in member (any role) asking on the member schema. */
function member(ctx: GraphQLContext): Person {
  return ctx.guardian.articlePerson;
}

/** Staff asking on the admin schema. */
function staff(ctx: GraphQLContext): Person {
  ctx.guardian.ensureAdmin();
  return ctx.guardian.articlePerson;
}

function articleOut(row: ArticleRow, person: Person) {
  const v = articleView(row, person);
  return {
    ...v,
    statusUpdatedAt: iso(v.statusUpdatedAt),
    updatedAt: iso(v.updatedAt),
    currentRevision: v.currentRevision && { ...v.currentRevision, updatedAt: iso(v.currentRevision.updatedAt) },
    scheduledDate: iso(v.scheduledDate),
    publishedDate: iso(v.publishedDate),
  };
}

async function feedbackConnection(ctx: GraphQLContext, person: Person, args: Args) {
  const last = typeof args.last === 'number' ? args.last : undefined;
  const page = await listFeedback(depsOf(ctx), person, { articleId: requireId(args.articleId), last, before: cursorOf(args.before) });
  return {
    edges: page.remarks.map(({ cursor, ...node }) => ({ cursor, node: { ...node, createdAt: iso(node.createdAt) } })),
    pageInfo: page.pageInfo,
  };
}

async function feedbackCreate(ctx: GraphQLContext, person: Person, args: Args) {
  const created = await createFeedback(depsOf(ctx), person, { articleId: requireId(args.articleId), feedback: args.feedback });
  const user = ctx.identity.user!;
  // The same shape as a remark of articleFeedback.
  return {
    id: created.id,
    remark: created.remark,
    createdAt: iso(created.createdAt),
    hasRead: true,
    author: { id: user.id, snapshot: { id: user.id, name: displayName(user), avatar: user.avatarUrl } },
  };
}

async function scanCreate(ctx: GraphQLContext, args: Args) {
  return scanOut(await scanArticle(ctx, requireId(args.articleId)));
}

/** The copy scan the submit form runs too: a failed scan is stored as FAILED and logged. */
const scanArticle = (ctx: GraphQLContext, articleId: number) => scanForRequest(ctx.request, articleId);

function scanOut(row: Parameters<typeof copyScanView>[0]) {
  const v = copyScanView(row);
  return { ...v, createdAt: iso(v.createdAt), updatedAt: iso(v.updatedAt) };
}

const personName = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();

const isStatus = (v: unknown): v is ArticleStatus => typeof v === 'string' && (ARTICLE_STATUSES as readonly string[]).includes(v);

const articleMemberResolvers = {
  Query: {
    articleFeedback: (_root: unknown, args: Args, ctx: GraphQLContext) => feedbackConnection(ctx, member(ctx), args),
    articleInFlight: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      const person = member(ctx);
      const row = await findArticleInFlight(depsOf(ctx), person.userId);
      return row ? articleOut(row, person) : null;
    },
    articlesPendingPublication: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      const person = member(ctx);
      return (await listPendingPublication(depsOf(ctx), person.userId)).map((row) => articleOut(row, person));
    },
    articlesPublished: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      const person = member(ctx);
      return (await listPublished(depsOf(ctx), person.userId)).map((row) => articleOut(row, person));
    },
    articleGuidelines: (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      member(ctx);
      return ctx.community.article_guidelines;
    },
    articleUserSetting: async (_root: unknown, _args: Args, ctx: GraphQLContext) => getByline(depsOf(ctx), member(ctx).userId),
    articleProductTerms: (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      member(ctx);
      return { terms: ctx.community.article_terms };
    },
    articleProductAgreementStatus: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      const status = await productAgreementStatus(depsOf(ctx), member(ctx).userId);
      return status && { createdAt: iso(status.createdAt) };
    },
  },
  Mutation: {
    articleCreate: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      const person = member(ctx);
      return articleOut(await createArticle(depsOf(ctx), person.userId), person);
    },
    articleAutoSaveRevision: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = member(ctx);
      const articleId = args.articleId == null ? null : requireId(args.articleId);
      return articleOut(await autosaveRevision(depsOf(ctx), person.userId, { articleId, title: args.title, content: args.content }), person);
    },
    articleUserByline: async (_root: unknown, args: Args, ctx: GraphQLContext) => saveByline(depsOf(ctx), member(ctx).userId, args.byline),
    articleAcceptProductAgreement: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
      const accepted = await acceptProductAgreement(depsOf(ctx), member(ctx).userId);
      return { createdAt: iso(accepted.createdAt) };
    },
    articleFeedbackCreate: (_root: unknown, args: Args, ctx: GraphQLContext) => feedbackCreate(ctx, member(ctx), args),
    articleSendForReview: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = member(ctx);
      const input = { articleId: requireId(args.articleId), title: args.title, content: args.content, agreed: agreedIn(args) };
      // As the form does: the copy scan runs once the submission is stored, before the answer.
      const submitted = await submitForReview(depsOf(ctx), person.userId, input, (article) => scanArticle(ctx, article.id).then(() => undefined));
      return articleOut(submitted, person);
    },
    articleScanCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = member(ctx);
      const article = await getArticle(depsOf(ctx), person, requireId(args.articleId));
      if (!canScanArticle(person, article)) throw new AppError('Forbidden');
      // The submission already ran the scan of this version: the author gets that result, and cannot
      // make the community's corpus be scanned again and again. A failed scan may be asked for again.
      const existing = await latestCopyScan(depsOf(ctx), article.id);
      if (existing && existing.revision_id === article.current_revision_id && existing.status !== 'FAILED') return scanOut(existing);
      return scanCreate(ctx, args);
    },
    articleApproveForPublishing: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = member(ctx);
      const revisionId = args.revisionId == null ? null : requireId(args.revisionId);
      return articleOut(await approveForPublishing(depsOf(ctx), person.userId, { articleId: requireId(args.id), agreed: agreedIn(args), revisionId }), person);
    },
  },
};

export const ADMIN_LIST_MAX = 100;

const articleAdminResolvers = {
  Query: {
    articles: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      const first = typeof args.first === 'number' ? Math.min(Math.max(Math.trunc(args.first), 1), ADMIN_LIST_MAX) : ADMIN_LIST_MAX;
      const rows = await listCommunityArticles(depsOf(ctx), person, { status: isStatus(args.status) ? args.status : null, first });
      return rows.map((row) => articleOut(row, person));
    },
    article: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      return articleOut(await getArticle(depsOf(ctx), person, requireId(args.id)), person);
    },
    articleRevisions: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      const rows = await listRevisions(depsOf(ctx), person, requireId(args.articleId));
      return rows.map((r) => ({
        id: r.id,
        title: r.title,
        content: r.content,
        wordCount: r.word_count,
        author: { id: r.author_id },
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
      }));
    },
    articleFeedback: (_root: unknown, args: Args, ctx: GraphQLContext) => feedbackConnection(ctx, staff(ctx), args),
    articleBoard: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      // Named as the argument is (the service names the board's field q).
      ensureText({ search: args.search });
      const board = await searchBoard(depsOf(ctx), person, {
        status: isStatus(args.status) ? args.status : null,
        editor: args.editorId === 'none' ? 'none' : args.editorId == null ? null : requireId(args.editorId),
        author: args.memberId == null ? null : requireId(args.memberId),
        q: typeof args.search === 'string' ? args.search.slice(0, 200) : null,
        sort: args.sort === 'oldest' ? 'oldest' : 'newest',
        after: typeof args.after === 'string' ? args.after : null,
      });
      return {
        rows: board.rows.map((row) => ({
          article: articleOut(row, person),
          title: row.title ?? '',
          author: { id: row.author_id, name: personName(row.author_first, row.author_last) },
          editor: row.editor_id ? { id: row.editor_id, name: personName(row.editor_first, row.editor_last) } : null,
        })),
        total: board.total,
        tooMany: board.tooMany,
        nextCursor: board.next,
      };
    },
    articleStatusHistory: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      const events = await listStatusEvents(depsOf(ctx), person, requireId(args.articleId));
      return events.map((e) => ({
        id: e.id,
        from: e.from_status,
        to: e.to_status,
        actor: e.actor_id === null ? null : { id: e.actor_id, name: personName(e.actor_first, e.actor_last) },
        note: e.note,
        createdAt: iso(e.created_at),
      }));
    },
    articleAllowedMoves: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      const deps = depsOf(ctx);
      return editorMoves(deps, person, await loadArticle(deps, requireId(args.articleId)));
    },
    articleCopyScan: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      const deps = depsOf(ctx);
      const article = await getArticle(deps, person, requireId(args.articleId));
      const row = await latestCopyScan(deps, article.id);
      return row ? scanOut(row) : null;
    },
  },
  Mutation: {
    articleAssignEditor: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      const editorId = args.editorId == null ? null : requireId(args.editorId);
      return articleOut(await assignEditor(depsOf(ctx), person, { articleId: requireId(args.articleId), editorId }), person);
    },
    articleMove: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      if (!isStatus(args.to)) throw new AppError('BadRequest.Validation');
      const input = {
        articleId: requireId(args.articleId),
        to: args.to,
        scheduledDate: args.scheduledDate ?? undefined,
        articleUrl: args.articleUrl ?? undefined,
        note: typeof args.note === 'string' ? args.note : undefined,
      };
      return articleOut(await moveArticle(depsOf(ctx), person, input), person);
    },
    articleEditText: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
      const person = staff(ctx);
      return articleOut(await editArticleTextFromBoard(depsOf(ctx), person, { articleId: requireId(args.articleId), title: args.title, content: args.content }), person);
    },
    articleFeedbackCreate: (_root: unknown, args: Args, ctx: GraphQLContext) => feedbackCreate(ctx, staff(ctx), args),
    articleScanCreate: (_root: unknown, args: Args, ctx: GraphQLContext) => {
      staff(ctx);
      return scanCreate(ctx, args);
    },
  },
};

/** The member's articles operations (/graphql). */
export const articleMemberGraphQL: GraphQLPart = { typeDefs: articleMemberTypeDefs, resolvers: articleMemberResolvers };
/** The editors' articles operations (/graphqlAdmin). */
export const articleAdminGraphQL: GraphQLPart = { typeDefs: articleAdminTypeDefs, resolvers: articleAdminResolvers };
