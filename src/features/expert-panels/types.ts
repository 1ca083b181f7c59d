/**
 * Types the member side of expert panels shares with its views and its GraphQL (types only: no code).
 * The services (questions.ts, answers.ts) return these; views get them as plain data (HTML already
 * sanitised, decisions already made).
 */
import type { EpAnswerStatus } from '#src/db/types.ts';
import type { MemberTab } from './rules.ts';

export type { EpAnswerStatus, MemberTab };

/** A published roundup an answer is in: its title and live address (an application path). */
export type RoundupLink = { title: string; path: string };

/** A row of the member's questions (`/expert-panels`). */
export type MemberQuestionRow = {
  questionId: number;
  title: string;
  panelName: string;
  deadlineAt: Date;
  closed: boolean;
  /** The member's answer's state. */
  status: EpAnswerStatus;
  /** The member may still mark it "can't answer" or "ignore" (not yet answered, question open). */
  markable: boolean;
  sentAt: Date;
  submittedAt: Date | null;
  /** The editor's note on an accepted or declined answer. */
  decisionNote: string | null;
  /** Set when the answer is in a published (FINAL) roundup. */
  roundup: RoundupLink | null;
  /** This row's keyset cursor (the next page starts after it). */
  cursor: string;
};

export type MemberQuestionsPage = {
  tab: MemberTab;
  rows: MemberQuestionRow[];
  /** The cursor of the next (older) page, or null on the last. */
  next: string | null;
  /** How many questions each tab holds. */
  counts: Record<MemberTab, number>;
};

/** An editor's latest change of the member's text. */
export type EditorRevision = { bodyHtml: string; wordCount: number; at: Date };

/** One question as the member it was sent to sees it (`/expert-panels/{questionId}`). */
export type MemberQuestionView = {
  id: number;
  title: string;
  briefHtml: string;
  guidelinesHtml: string;
  panel: { id: number; name: string; minWords: number; maxWords: number };
  deadlineAt: Date;
  closed: boolean;
  answer: {
    status: EpAnswerStatus;
    /** The current text (the member's, or an editor's latest revision). */
    bodyHtml: string;
    wordCount: number;
    submittedAt: Date | null;
    editedAt: Date | null;
    /** The member may still (re)write it: a writable state, no editor has picked it up, the question is open. */
    editable: boolean;
    /** The member may still mark it "can't answer" or ignore it. */
    markable: boolean;
    /** The member's own last text, when an editor has changed it since. */
    ownHtml: string | null;
    /** The editor's latest revision, when an editor changed the text after the member's last. */
    editorRevision: EditorRevision | null;
    decisionNote: string | null;
    decidedAt: Date | null;
  };
  /** The published roundup the answer is in. */
  roundup: RoundupLink | null;
};

export type AnswerMark = 'cant_answer' | 'ignored';

/** An active panel a member may join by themselves (onboarding's ep-landing step), and whether they are on it. */
export type JoinablePanel = { id: number; name: string; topic: string; joined: boolean };
