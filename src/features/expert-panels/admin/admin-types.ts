import type { EpAnswerStatus, EpBatchStatus } from '#src/db/types.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';

/** What the editors' pages and the admin GraphQL show (types only: views import them). */

export type PanelRow = { id: number; name: string; topic: string; minWords: number; maxWords: number; archived: boolean; memberCount: number; createdAt: Date };

export type PanelMemberRow = { member: MemberSnapshot; email: string; addedAt: Date };

export type PanelDetail = PanelRow & { members: PanelMemberRow[] };

export type QuestionRow = {
  id: number;
  batchId: number;
  panelId: number;
  title: string;
  briefHtml: string;
  guidelinesHtml: string;
  position: number;
  closedAt: Date | null;
  /** Answers by status (sent batches). */
  counts: Partial<Record<EpAnswerStatus, number>>;
};

export type BatchRow = {
  id: number;
  panelId: number;
  panelName: string;
  title: string;
  deadlineAt: Date;
  status: EpBatchStatus;
  sentAt: Date | null;
  questionCount: number;
  createdAt: Date;
};

export type BatchDetail = BatchRow & { questions: QuestionRow[] };

/** The copy scan's figures of an answer (the articles' local scanner against the question's other answers). */
export type AnswerScan = {
  identicalWords: number | null;
  minorChangedWords: number | null;
  relatedMeaningWords: number | null;
  aggregatedScore: number | null;
  totalWords: number | null;
  scannedAt: string;
};

export type AnswerRow = {
  id: number;
  questionId: number;
  questionTitle: string;
  panelId: number;
  panelName: string;
  member: MemberSnapshot;
  status: EpAnswerStatus;
  wordCount: number;
  excerpt: string;
  sentAt: Date;
  submittedAt: Date | null;
  editedAt: Date | null;
  reviewStartedAt: Date | null;
  reviewerName: string | null;
  decisionNote: string | null;
  decidedAt: Date | null;
  scan: AnswerScan | null;
};

export type RevisionRow = { id: number; editorName: string | null; byEditor: boolean; wordCount: number; bodyHtml: string; createdAt: Date };

export type AnswerDetail = AnswerRow & {
  bodyHtml: string;
  questionClosed: boolean;
  minWords: number;
  maxWords: number;
  revisions: RevisionRow[];
};

export const ANSWER_SORTS = ['newest', 'words'] as const;
export type AnswerSort = (typeof ANSWER_SORTS)[number];

export type AnswerFilters = { status: EpAnswerStatus | null; panelId: number | null; questionId: number | null; q: string | null; sort: AnswerSort };

export type AnswerPage = { rows: AnswerRow[]; next: string | null };

/** A question's state on the board: its batch not sent (draft), open, closed by an editor, or open but past its batch's deadline. */
export const QUESTION_STATES = ['draft', 'open', 'closed', 'past'] as const;
export type QuestionState = (typeof QUESTION_STATES)[number];

/** Newest first, soonest deadline first, or most answers written (in review, accepted or declined) first. */
export const QUESTION_SORTS = ['newest', 'deadline', 'answers'] as const;
export type QuestionSort = (typeof QUESTION_SORTS)[number];

export type QuestionFilters = { panelId: number | null; batchId: number | null; state: QuestionState | null; q: string | null; sort: QuestionSort };

/** One row of the questions' board: the question, its panel and batch, its state, and its answers by status. */
export type QuestionBoardRow = {
  id: number;
  title: string;
  panelId: number;
  panelName: string;
  batchId: number;
  batchTitle: string;
  deadlineAt: Date;
  state: QuestionState;
  closedAt: Date | null;
  createdAt: Date;
  counts: Record<EpAnswerStatus, number>;
  /** Answers written: in review, accepted or declined. */
  answered: number;
};

export type QuestionPage = { rows: QuestionBoardRow[]; next: string | null };

/** A batch's state on its list: draft, sent (some question still open), or closed (every question closed). */
export const BATCH_STATES = ['draft', 'sent', 'closed'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

export type BatchFilters = { panelId: number | null; state: BatchState | null; q: string | null };

export type BatchBoardRow = BatchRow & { state: BatchState; closedCount: number };

export type BatchPage = { rows: BatchBoardRow[]; next: string | null };
