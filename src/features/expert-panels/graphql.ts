import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { markAnswer, submitAnswer } from './answers.ts';
import type { EpDeps, EpViewer } from './deps.ts';
import { getQuestion, listMemberQuestions } from './questions.ts';
import type { MemberTab } from './rules.ts';
import type { MemberQuestionRow, MemberQuestionView, RoundupLink } from './types.ts';

/**
 * The member's expert-panel questions on the member schema (/graphql), through the same services as
 * the pages: their questions by tab (a connection, newest sent first), one question with their answer,
 * answering, and marking "can't answer" or ignored. A question not sent to the viewer is
 * 'ExpertPanels.QuestionNotFound'. Answer text is rich-text HTML, sanitised as articles are.
 */
export const expertPanelsMemberTypeDefs = /* GraphQL */ `
  enum ExpertQuestionTab { OPEN IN_REVIEW ANSWERED PUBLISHED }
  enum ExpertAnswerStatus { OPEN CANT_ANSWER IGNORED SUBMITTED ACCEPTED DECLINED }
  enum ExpertAnswerMark { CANT_ANSWER IGNORED }
  "A published roundup: its title and live address (a path on this site, with the app's path prefix)."
  type ExpertRoundupLink { title: String!, url: String! }
  type ExpertPanelRef { id: ID!, name: String!, minWords: Int!, maxWords: Int! }
  "An editor's latest change of the member's text."
  type ExpertAnswerRevision { bodyHtml: String!, wordCount: Int!, createdAt: String! }
  "The viewer's answer to a question."
  type ExpertAnswer {
    status: ExpertAnswerStatus!
    "The current text (sanitised HTML): the member's, or the editor's latest revision."
    bodyHtml: String!
    wordCount: Int!
    submittedAt: String
    editedAt: String
    "The member may still (re)write it: not picked up by an editor, the question open."
    editable: Boolean!
    "The member may still mark it can't answer or ignored."
    markable: Boolean!
    "The member's own last text, when an editor changed it since."
    ownHtml: String
    editorRevision: ExpertAnswerRevision
    decisionNote: String
    decidedAt: String
  }
  "A question sent to the viewer. In expertQuestions lists, briefHtml, guidelinesHtml, panel and answer are null (read expertQuestion for them)."
  type ExpertQuestion {
    id: ID!
    title: String!
    panelName: String!
    deadlineAt: String!
    closed: Boolean!
    status: ExpertAnswerStatus!
    submittedAt: String
    decisionNote: String
    roundup: ExpertRoundupLink
    briefHtml: String
    guidelinesHtml: String
    panel: ExpertPanelRef
    answer: ExpertAnswer
  }
  type ExpertQuestionEdge { cursor: String!, node: ExpertQuestion! }
  type ExpertQuestionPageInfo { hasNextPage: Boolean!, endCursor: String }
  type ExpertQuestionCounts { open: Int!, inReview: Int!, answered: Int!, published: Int! }
  type ExpertQuestionConnection { edges: [ExpertQuestionEdge!]!, pageInfo: ExpertQuestionPageInfo!, counts: ExpertQuestionCounts! }

  extend type Query {
    "The viewer's questions in a tab (default OPEN), newest sent first: first (default 20, at most 100) after the previous page's endCursor."
    expertQuestions(tab: ExpertQuestionTab, first: Int, after: String): ExpertQuestionConnection!
    "A question sent to the viewer; 'ExpertPanels.QuestionNotFound' otherwise."
    expertQuestion(id: ID!): ExpertQuestion!
  }
  extend type Mutation {
    "Submits or changes the viewer's answer (rich-text HTML): it is then in review."
    answerExpertQuestion(questionId: ID!, body: String!): ExpertQuestion!
    "Marks a question not yet answered as can't answer or ignored (the viewer may still answer while it is open)."
    markExpertQuestion(questionId: ID!, mark: ExpertAnswerMark!): ExpertQuestion!
  }
`;

type Args = Record<string, unknown>;

const TABS: Record<string, MemberTab> = { OPEN: 'open', IN_REVIEW: 'in-review', ANSWERED: 'answered', PUBLISHED: 'published' };
const MARKS: Record<string, 'cant_answer' | 'ignored'> = { CANT_ANSWER: 'cant_answer', IGNORED: 'ignored' };

function epOf(ctx: GraphQLContext): { deps: EpDeps; viewer: EpViewer; basePath: string } {
  ctx.guardian.ensureSignedIn();
  const app = ctx.request.server;
  return {
    deps: { db: ctx.db, clock: app.clock, community: ctx.community, t: app.t, notifier: app.notifications, publicUrl: `${app.config.publicUrl}${app.config.basePath}`, jobs: app.jobs },
    viewer: { userId: ctx.guardian.userId!, isStaff: ctx.guardian.isAdmin },
    basePath: app.config.basePath,
  };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const statusOut = (s: string) => s.toUpperCase();
const roundupOut = (r: RoundupLink | null, basePath: string) => (r ? { title: r.title, url: `${basePath}${r.path}` } : null);

function rowOut(r: MemberQuestionRow, basePath: string) {
  return {
    id: String(r.questionId),
    title: r.title,
    panelName: r.panelName,
    deadlineAt: r.deadlineAt.toISOString(),
    closed: r.closed,
    status: statusOut(r.status),
    submittedAt: iso(r.submittedAt),
    decisionNote: r.decisionNote,
    roundup: roundupOut(r.roundup, basePath),
    briefHtml: null,
    guidelinesHtml: null,
    panel: null,
    answer: null,
  };
}

function questionOut(q: MemberQuestionView, basePath: string) {
  const a = q.answer;
  return {
    id: String(q.id),
    title: q.title,
    panelName: q.panel.name,
    deadlineAt: q.deadlineAt.toISOString(),
    closed: q.closed,
    status: statusOut(a.status),
    submittedAt: iso(a.submittedAt),
    decisionNote: a.decisionNote,
    roundup: roundupOut(q.roundup, basePath),
    briefHtml: q.briefHtml,
    guidelinesHtml: q.guidelinesHtml,
    panel: { id: String(q.panel.id), name: q.panel.name, minWords: q.panel.minWords, maxWords: q.panel.maxWords },
    answer: {
      status: statusOut(a.status),
      bodyHtml: a.bodyHtml,
      wordCount: a.wordCount,
      submittedAt: iso(a.submittedAt),
      editedAt: iso(a.editedAt),
      editable: a.editable,
      markable: a.markable,
      ownHtml: a.ownHtml,
      editorRevision: a.editorRevision ? { bodyHtml: a.editorRevision.bodyHtml, wordCount: a.editorRevision.wordCount, createdAt: a.editorRevision.at.toISOString() } : null,
      decisionNote: a.decisionNote,
      decidedAt: iso(a.decidedAt),
    },
  };
}

const optionalString = (v: unknown): string | null => {
  if (v == null) return null;
  if (typeof v !== 'string') throw new AppError('BadRequest.Validation');
  return v;
};

export const expertPanelsMemberGraphQL: GraphQLPart = {
  typeDefs: expertPanelsMemberTypeDefs,
  resolvers: {
    Query: {
      expertQuestions: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = epOf(ctx);
        const tab = args.tab == null ? 'open' : TABS[String(args.tab)];
        const page = await listMemberQuestions(deps, viewer, { tab, first: args.first ?? undefined, after: optionalString(args.after) });
        return {
          edges: page.rows.map((r) => ({ cursor: r.cursor, node: rowOut(r, basePath) })),
          pageInfo: { hasNextPage: page.next !== null, endCursor: page.rows.at(-1)?.cursor ?? null },
          counts: { open: page.counts.open, inReview: page.counts['in-review'], answered: page.counts.answered, published: page.counts.published },
        };
      },
      expertQuestion: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = epOf(ctx);
        return questionOut(await getQuestion(deps, viewer, args.id), basePath);
      },
    },
    Mutation: {
      answerExpertQuestion: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = epOf(ctx);
        return questionOut(await submitAnswer(deps, viewer, args.questionId, { body: args.body }), basePath);
      },
      markExpertQuestion: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer, basePath } = epOf(ctx);
        return questionOut(await markAnswer(deps, viewer, args.questionId, MARKS[String(args.mark)]), basePath);
      },
    },
  },
};
