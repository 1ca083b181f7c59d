/** What the roundups' services hand to pages, GraphQL and views (types only: views import nothing else). */
import type { RoundupStatus } from '#src/db/types.ts';
import type { MemberSnapshot } from '#src/features/members/index.ts';

export type { RoundupStatus };

/** The board's filters (the board, its next pages and the CSV export share them). */
export type RoundupQuery = {
  status: RoundupStatus | null;
  /** Words of the title. */
  q: string | null;
  /** Keyset cursor: the id of the last row of the previous page (newest first). */
  after: string | null;
};

export type RoundupRow = {
  id: number;
  title: string;
  /** Sanitised HTML. */
  introHtml: string;
  status: RoundupStatus;
  questionId: number;
  questionTitle: string;
  answerCount: number;
  slug: string | null;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export type RoundupPage = { rows: RoundupRow[]; next: string | null };

/** One answer in a roundup (or one that could be added): its member as they are now, its text. */
export type RoundupAnswerView = {
  answerId: number;
  position: number;
  member: MemberSnapshot;
  bodyHtml: string;
  wordCount: number;
};

export type RoundupMoveView = { id: number; from: RoundupStatus; to: RoundupStatus; actorName: string | null; at: Date };

export type RoundupDetail = RoundupRow & {
  questionBriefHtml: string;
  answers: RoundupAnswerView[];
  /** Accepted answers of the question not yet in the roundup. */
  candidates: RoundupAnswerView[];
  moves: RoundupMoveView[];
  /** The moves allowed from the current status (rules.ts). */
  allowedMoves: RoundupStatus[];
  /** The live page's path once FINAL (under the path prefix). */
  livePath: string | null;
};

/** A question a roundup can be made of: its accepted answers counted. */
export type RoundupQuestionChoice = { id: number; title: string; panelName: string; acceptedCount: number };

/** The public live page of a FINAL roundup. */
export type PublishedRoundup = {
  id: number;
  title: string;
  slug: string;
  introHtml: string;
  questionTitle: string;
  questionBriefHtml: string;
  publishedAt: Date;
  answers: RoundupAnswerView[];
};
