import type { Reaction, ReportReason } from './types.ts';

/**
 * The forum's rules and limits (spec section 5, "Forum"): title and message required, too-long
 * messages refused, a reply cannot be empty and over the limit reports 'Your reply is {num}
 * character(s) too long', a report's description has a length limit, and a post's topics are capped
 * ('Only {limit} allowed'). Lengths count characters of the plain text (markup stripped), so the
 * count the member sees is the count that is checked.
 */
export const TITLE_MAX = 200;
/** A post's message, in plain-text characters. */
export const POST_MAX = 10_000;
/** A reply, in plain-text characters. */
export const REPLY_MAX = 5_000;
/** The HTML of a post or reply may be at most this long before it is even sanitised (hostile input). */
export const HTML_MAX = 100_000;
export const REPORT_DESCRIPTION_MAX = 500;
/** A post has one to TOPICS_MAX topics. */
export const TOPICS_MAX = 3;
export const MODERATION_NOTE_MAX = 1_000;
export const TOPIC_NAME_MAX = 60;

/** An author may edit or delete their own post or reply for this long after writing it. */
export const EDIT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A member whose membership is younger than this has every post and reply wait for a moderator. */
export const NEW_MEMBER_MS = 14 * 24 * 60 * 60 * 1000;
/** Reports by this many different members send a published post or reply back to the queue. */
export const REPORTS_TO_QUEUE = 3;

export const LIST_PAGE_SIZE = 20;
export const REPLIES_PAGE_SIZE = 20;
/** The most @mentions in one post or reply that notify (the rest stay text). */
export const MENTIONS_MAX = 10;

export const REACTIONS = ['insightful', 'celebrate', 'support', 'curious'] as const satisfies readonly Reaction[];
export const REPORT_REASONS = ['spam', 'harassment', 'off_topic', 'confidential', 'other'] as const satisfies readonly ReportReason[];

export const isReaction = (v: unknown): v is Reaction => typeof v === 'string' && (REACTIONS as readonly string[]).includes(v);
export const isReportReason = (v: unknown): v is ReportReason => typeof v === 'string' && (REPORT_REASONS as readonly string[]).includes(v);
