import type { EpAnswerStatus, RoundupStatus } from '#src/db/types.ts';
import { countWords } from '#src/lib/plain-text.ts';

/**
 * Expert panels' rules (issue 15; spec sections 4, 5, 8): an answer's states and who moves it, the
 * word range a panel sets, the roundup's allowed moves. Pure functions: the services apply them, the
 * pages and GraphQL show the same verdicts.
 */

export const ANSWER_STATUSES = ['open', 'cant_answer', 'ignored', 'submitted', 'accepted', 'declined'] as const satisfies readonly EpAnswerStatus[];
export const ROUNDUP_STATUSES = ['DRAFT', 'EDITOR_REVIEW', 'READY_FOR_PUBLISHING', 'FINAL'] as const satisfies readonly RoundupStatus[];

/** The member's tabs on /expert-panels (spec: open questions; answered, in review, published). */
export const MEMBER_TABS = ['open', 'in-review', 'answered', 'published'] as const;
export type MemberTab = (typeof MEMBER_TABS)[number];

/** Limits of what editors and members type. */
export const PANEL_NAME_MAX = 120;
export const PANEL_TOPIC_MAX = 200;
export const BATCH_TITLE_MAX = 200;
export const QUESTION_TITLE_MAX = 300;
/** Plain-text characters of a brief or guidelines, and of a roundup's introduction. */
export const BRIEF_MAX = 5_000;
export const DECISION_NOTE_MAX = 1_000;
/** The HTML of an answer may be at most this long before it is even sanitised (hostile input). */
export const ANSWER_HTML_MAX = 100_000;
/** Bounds on the word range a panel may set. */
export const WORDS_FLOOR = 0;
export const WORDS_CEILING = 2_000;
export const QUESTIONS_PER_BATCH_MAX = 20;
export const PAGE_SIZE = 20;
/** A reminder goes to members with an open question this long before its batch's deadline. */
export const REMINDER_BEFORE_MS = 48 * 60 * 60 * 1000;
/** An invitation link is good for this long, for the member it names only. */
export const INVITE_TTL_MS = 14 * 24 * 60 * 60 * 1000;

export { countWords };

export type AnswerVerdict = { ok: true; words: number } | { ok: false; reason: 'required' | 'tooShort' | 'tooLong'; words: number; min: number; max: number };

/** An answer's text against its panel's word range (spec: too long, required). */
export function checkAnswer(html: string, range: { min: number; max: number }): AnswerVerdict {
  const words = countWords(html);
  if (words === 0) return { ok: false, reason: 'required', words, ...range };
  if (words > range.max) return { ok: false, reason: 'tooLong', words, ...range };
  if (words < range.min) return { ok: false, reason: 'tooShort', words, ...range };
  return { ok: true, words };
}

/** States in which the member may (re)write their answer: not yet picked up by an editor. */
export const MEMBER_WRITABLE: readonly EpAnswerStatus[] = ['open', 'cant_answer', 'ignored', 'submitted'];

/** Roundup moves allowed (spec section 4): forward one step, or back one step before FINAL. FINAL is final. */
const ROUNDUP_MOVES: Record<RoundupStatus, readonly RoundupStatus[]> = {
  DRAFT: ['EDITOR_REVIEW'],
  EDITOR_REVIEW: ['DRAFT', 'READY_FOR_PUBLISHING'],
  READY_FOR_PUBLISHING: ['EDITOR_REVIEW', 'FINAL'],
  FINAL: [],
};

export const canMoveRoundup = (from: RoundupStatus, to: RoundupStatus) => ROUNDUP_MOVES[from].includes(to);
export const roundupMovesFrom = (from: RoundupStatus): readonly RoundupStatus[] => ROUNDUP_MOVES[from];
export const isRoundupStatus = (v: unknown): v is RoundupStatus => typeof v === 'string' && (ROUNDUP_STATUSES as readonly string[]).includes(v);
export const isAnswerStatus = (v: unknown): v is EpAnswerStatus => typeof v === 'string' && (ANSWER_STATUSES as readonly string[]).includes(v);
