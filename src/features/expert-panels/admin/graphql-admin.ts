import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import { requireId } from '#src/core/ids.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { epDeps, type EpDeps, type EpViewer } from '../deps.ts';
import type { AnswerDetail, AnswerRow, BatchDetail, BatchRow, PanelDetail, PanelRow, QuestionBoardRow, QuestionRow } from './admin-types.ts';
import { addQuestion, closeQuestion, createBatch, getBatch, listBatches, removeQuestion, reopenQuestion, sendBatch, updateQuestion } from './batches.ts';
import { questionBoard, questionFiltersOf } from './question-board.ts';
import { addPanelMember, createPanel, getPanel, listPanels, removePanelMember, setPanelArchived, updatePanel } from './panels.ts';
import { answerBoard, answerFiltersOf, decideAnswer, decisionOf, editAnswer, getAnswer, startReview } from './review.ts';

/**
 * The editors' expert panels on the staff schema (/graphqlAdmin), through the same services as the
 * pages: panels and their members, batches and questions (send, close, reopen), the answers' board
 * and their review (start, edit, accept or decline with a note), and the questions' board. Rich text arguments are HTML
 * (sanitised by the services). Staff only; another community's ids are NotFound.
 */

export const expertPanelsAdminTypeDefs = /* GraphQL */ `
  type ExpertAdminMember { id: ID!, name: String!, companyName: String, jobTitle: String, avatar: String, isActive: Boolean! }
  type ExpertPanelMember { member: ExpertAdminMember!, email: String!, addedAt: String! }
  type ExpertPanel {
    id: ID!
    name: String!
    topic: String!
    minWords: Int!
    maxWords: Int!
    archived: Boolean!
    memberCount: Int!
    "Only on expertPanel(id)."
    members: [ExpertPanelMember!]
  }
  type ExpertQuestionAdmin { id: ID!, batchId: ID!, title: String!, briefHtml: String!, guidelinesHtml: String!, position: Int!, closed: Boolean!, closedAt: String }
  type ExpertBatch {
    id: ID!
    panelId: ID!
    panelName: String!
    title: String!
    deadlineAt: String!
    "DRAFT or SENT."
    status: String!
    sentAt: String
    questionCount: Int!
    questions: [ExpertQuestionAdmin!]
  }
  type ExpertBatchSent { batch: ExpertBatch!, answersCreated: Int!, members: Int! }
  type ExpertAnswerScan { identicalWords: Int, minorChangedWords: Int, relatedMeaningWords: Int, aggregatedScore: Float, totalWords: Int, scannedAt: String! }
  type ExpertAnswerRevision { id: ID!, byEditor: Boolean!, editorName: String, wordCount: Int!, bodyHtml: String!, createdAt: String! }
  type ExpertAnswerAdmin {
    id: ID!
    questionId: ID!
    questionTitle: String!
    panelId: ID!
    panelName: String!
    member: ExpertAdminMember!
    "OPEN, CANT_ANSWER, IGNORED, SUBMITTED, ACCEPTED or DECLINED."
    status: String!
    wordCount: Int!
    excerpt: String!
    submittedAt: String
    editedAt: String
    reviewStartedAt: String
    reviewerName: String
    decisionNote: String
    decidedAt: String
    scan: ExpertAnswerScan
    "Only on the answers returned by the review mutations."
    bodyHtml: String
    revisions: [ExpertAnswerRevision!]
  }
  type ExpertAnswerPage { answers: [ExpertAnswerAdmin!]!, "The cursor of the next page, or null." next: String }
  enum ExpertAnswerDecision { ACCEPT DECLINE }
  enum ExpertAnswerSort { NEWEST WORDS }
  input ExpertAnswerFilters { status: String, panelId: ID, questionId: ID, q: String, sort: ExpertAnswerSort }
  "A question's answers by status: invited (not answered yet), in review, accepted, declined, can't answer, ignored."
  type ExpertQuestionCounts { invited: Int!, inReview: Int!, accepted: Int!, declined: Int!, cantAnswer: Int!, ignored: Int! }
  type ExpertQuestionBoardRow {
    id: ID!
    title: String!
    panelId: ID!
    panelName: String!
    batchId: ID!
    batchTitle: String!
    deadlineAt: String!
    "DRAFT (batch not sent), OPEN, CLOSED or PAST (deadline passed, not closed)."
    state: ExpertQuestionState!
    closedAt: String
    createdAt: String!
    counts: ExpertQuestionCounts!
    "Answers written: in review, accepted or declined."
    answered: Int!
  }
  type ExpertQuestionPage { questions: [ExpertQuestionBoardRow!]!, "The cursor of the next page, or null." next: String }
  enum ExpertQuestionState { DRAFT OPEN CLOSED PAST }
  enum ExpertQuestionSort { NEWEST DEADLINE ANSWERS }
  input ExpertQuestionFilters { panelId: ID, batchId: ID, state: ExpertQuestionState, q: String, sort: ExpertQuestionSort }
  input ExpertPanelInput { name: String!, topic: String, minWords: Int!, maxWords: Int! }
  input ExpertQuestionInput { title: String!, briefHtml: String, guidelinesHtml: String }
  extend type Query {
    expertPanels: [ExpertPanel!]!
    expertPanel(id: ID!): ExpertPanel!
    expertBatches: [ExpertBatch!]!
    expertBatch(id: ID!): ExpertBatch!
    expertAnswers(filters: ExpertAnswerFilters, first: Int, after: String): ExpertAnswerPage!
    expertAnswer(id: ID!): ExpertAnswerAdmin!
    "Every question of the community's panels and batches (the editors' questions board), in keyset pages."
    expertQuestions(filters: ExpertQuestionFilters, first: Int, after: String): ExpertQuestionPage!
  }
  extend type Mutation {
    createExpertPanel(input: ExpertPanelInput!): ExpertPanel!
    updateExpertPanel(id: ID!, input: ExpertPanelInput!): ExpertPanel!
    archiveExpertPanel(id: ID!, archived: Boolean!): ExpertPanel!
    "By email or username: an active member of the community."
    addExpertPanelMember(panelId: ID!, who: String!): ExpertPanel!
    removeExpertPanelMember(panelId: ID!, userId: ID!): ExpertPanel!
    "deadline: an ISO date and time (UTC when it has no zone), in the future."
    createExpertBatch(panelId: ID!, title: String!, deadline: String!): ExpertBatch!
    addExpertQuestion(batchId: ID!, input: ExpertQuestionInput!): ExpertQuestionAdmin!
    updateExpertQuestion(id: ID!, input: ExpertQuestionInput!): ExpertQuestionAdmin!
    removeExpertQuestion(id: ID!): Boolean!
    sendExpertBatch(id: ID!): ExpertBatchSent!
    closeExpertQuestion(id: ID!): ExpertQuestionAdmin!
    reopenExpertQuestion(id: ID!): ExpertQuestionAdmin!
    startExpertAnswerReview(id: ID!): ExpertAnswerAdmin!
    editExpertAnswer(id: ID!, bodyHtml: String!): ExpertAnswerAdmin!
    decideExpertAnswer(id: ID!, decision: ExpertAnswerDecision!, note: String): ExpertAnswerAdmin!
  }
`;

type Args = Record<string, any>;

function staffCall(ctx: GraphQLContext): { deps: EpDeps; viewer: EpViewer } {
  ctx.guardian.ensureAdmin();
  return { deps: epDeps(ctx.request), viewer: { userId: ctx.guardian.userId!, isStaff: true } };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const memberOut = (m: AnswerRow['member']) => ({ id: m.id, name: m.name, companyName: m.companyName, jobTitle: m.jobTitle, avatar: m.avatar, isActive: m.isActive });
const panelOut = (p: PanelRow | PanelDetail) => ({
  ...p,
  members: 'members' in p ? p.members.map((m) => ({ member: memberOut(m.member), email: m.email, addedAt: m.addedAt.toISOString() })) : null,
});
const questionOut = (q: QuestionRow) => ({ ...q, closed: q.closedAt !== null, closedAt: iso(q.closedAt) });
const batchOut = (b: BatchRow | BatchDetail) => ({
  ...b,
  status: b.status.toUpperCase(),
  deadlineAt: b.deadlineAt.toISOString(),
  sentAt: iso(b.sentAt),
  questions: 'questions' in b ? b.questions.map(questionOut) : null,
});
const answerOut = (a: AnswerRow | AnswerDetail) => ({
  ...a,
  member: memberOut(a.member),
  status: a.status.toUpperCase(),
  submittedAt: iso(a.submittedAt),
  editedAt: iso(a.editedAt),
  reviewStartedAt: iso(a.reviewStartedAt),
  decidedAt: iso(a.decidedAt),
  bodyHtml: 'bodyHtml' in a ? a.bodyHtml : null,
  revisions: 'revisions' in a ? a.revisions.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) : null,
});

const boardQuestionOut = (q: QuestionBoardRow) => ({
  ...q,
  state: q.state.toUpperCase(),
  deadlineAt: q.deadlineAt.toISOString(),
  closedAt: iso(q.closedAt),
  createdAt: q.createdAt.toISOString(),
  counts: { invited: q.counts.open, inReview: q.counts.submitted, accepted: q.counts.accepted, declined: q.counts.declined, cantAnswer: q.counts.cant_answer, ignored: q.counts.ignored },
});

const panelInput = (input: Args) => ({ name: input?.name, topic: input?.topic ?? '', minWords: input?.minWords, maxWords: input?.maxWords });
const questionInput = (input: Args) => ({ title: input?.title, brief: input?.briefHtml ?? '', guidelines: input?.guidelinesHtml ?? '' });

async function questionOf(deps: EpDeps, viewer: EpViewer, batchId: number, id: number) {
  const batch = await getBatch(deps, viewer, batchId);
  return questionOut(batch.questions.find((q) => q.id === id)!);
}

export const expertPanelsAdminGraphQL: GraphQLPart = {
  typeDefs: expertPanelsAdminTypeDefs,
  resolvers: {
    Query: {
      expertPanels: async (_r: unknown, _a: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return (await listPanels(deps, viewer)).map(panelOut);
      },
      expertPanel: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return panelOut(await getPanel(deps, viewer, requireId(args.id)));
      },
      expertBatches: async (_r: unknown, _a: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return (await listBatches(deps, viewer)).map(batchOut);
      },
      expertBatch: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return batchOut(await getBatch(deps, viewer, requireId(args.id)));
      },
      expertAnswers: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const filters = answerFiltersOf((args.filters ?? {}) as Args);
        const page = await answerBoard(deps, viewer, filters, { first: typeof args.first === 'number' ? args.first : undefined, after: typeof args.after === 'string' ? args.after : null });
        return { answers: page.rows.map(answerOut), next: page.next };
      },
      expertAnswer: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        return answerOut(await getAnswer(deps, viewer, requireId(args.id)));
      },
      expertQuestions: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const filters = questionFiltersOf((args.filters ?? {}) as Args);
        const page = await questionBoard(deps, viewer, filters, { first: typeof args.first === 'number' ? args.first : undefined, after: typeof args.after === 'string' ? args.after : null });
        return { questions: page.rows.map(boardQuestionOut), next: page.next };
      },
    },
    Mutation: {
      createExpertPanel: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = await createPanel(deps, viewer, panelInput(args.input));
        return panelOut(await getPanel(deps, viewer, id));
      },
      updateExpertPanel: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        await updatePanel(deps, viewer, id, panelInput(args.input));
        return panelOut(await getPanel(deps, viewer, id));
      },
      archiveExpertPanel: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        await setPanelArchived(deps, viewer, id, args.archived === true);
        return panelOut(await getPanel(deps, viewer, id));
      },
      addExpertPanelMember: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.panelId);
        await addPanelMember(deps, viewer, id, args.who);
        return panelOut(await getPanel(deps, viewer, id));
      },
      removeExpertPanelMember: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.panelId);
        await removePanelMember(deps, viewer, id, requireId(args.userId));
        return panelOut(await getPanel(deps, viewer, id));
      },
      createExpertBatch: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = await createBatch(deps, viewer, { panelId: String(requireId(args.panelId)), title: args.title, deadline: args.deadline });
        return batchOut(await getBatch(deps, viewer, id));
      },
      addExpertQuestion: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const batchId = requireId(args.batchId);
        const id = await addQuestion(deps, viewer, batchId, questionInput(args.input));
        return questionOf(deps, viewer, batchId, id);
      },
      updateExpertQuestion: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        const batchId = await updateQuestion(deps, viewer, id, questionInput(args.input));
        return questionOf(deps, viewer, batchId, id);
      },
      removeExpertQuestion: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        await removeQuestion(deps, viewer, requireId(args.id));
        return true;
      },
      sendExpertBatch: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        const sent = await sendBatch(deps, viewer, id);
        return { batch: batchOut(await getBatch(deps, viewer, id)), answersCreated: sent.answers, members: sent.members };
      },
      closeExpertQuestion: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        return questionOf(deps, viewer, await closeQuestion(deps, viewer, id), id);
      },
      reopenExpertQuestion: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        return questionOf(deps, viewer, await reopenQuestion(deps, viewer, id), id);
      },
      startExpertAnswerReview: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        await startReview(deps, viewer, id);
        return answerOut(await getAnswer(deps, viewer, id));
      },
      editExpertAnswer: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        await editAnswer(deps, viewer, id, { body: args.bodyHtml });
        return answerOut(await getAnswer(deps, viewer, id));
      },
      decideExpertAnswer: async (_r: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = staffCall(ctx);
        const id = requireId(args.id);
        await decideAnswer(deps, viewer, id, decisionOf(args.decision), args.note ?? '');
        return answerOut(await getAnswer(deps, viewer, id));
      },
    },
  },
};
