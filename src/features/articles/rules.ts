import { countWords, plainText } from '#src/lib/plain-text.ts';

/**
 * The article rules of spec sections 4, 5 and 9, as pure functions: statuses and who may move an
 * article between them, title/body/byline limits (words counted as lib/plain-text.ts does), and
 * blackout windows. The service applies them; forms, GraphQL and the editor island show the same
 * verdicts.
 */

export const ARTICLE_STATUSES = [
  'DRAFT',
  'EDITING',
  'SUBMITTED_FOR_REVIEW',
  'FIRST_ROUND_EDIT',
  'NEEDS_REVISION',
  'FINAL_EDIT',
  'READY_TO_APPROVE',
  'READY_TO_PUBLISH',
  'MANUALLY_PUBLISHED',
  'SCHEDULED',
  'PUBLISHED',
  'TRASHED',
  'UNASSIGNED',
  'ON_HOLD',
] as const;

export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

export const TITLE_MAX = 254;
export const BODY_MIN_WORDS = 500;
export const BODY_MAX_WORDS = 1000;
export const BYLINE_MAX_CHARS = 140;
export const BYLINE_MAX_LINKS = 1;

/** Statuses in which the author edits the text. */
export const AUTHOR_EDITABLE: readonly ArticleStatus[] = ['DRAFT', 'NEEDS_REVISION'];
/** Statuses in which the editors hold the article (the author sees a read-only page that updates). */
export const EDITORS_AT_WORK: readonly ArticleStatus[] = ['FIRST_ROUND_EDIT', 'FINAL_EDIT'];
/** An article "in flight": the member's current one, not yet handed over for publication. */
export const IN_FLIGHT: readonly ArticleStatus[] = [
  'DRAFT',
  'EDITING',
  'SUBMITTED_FOR_REVIEW',
  'UNASSIGNED',
  'FIRST_ROUND_EDIT',
  'NEEDS_REVISION',
  'FINAL_EDIT',
  'READY_TO_APPROVE',
  'ON_HOLD',
];
export const PENDING_PUBLICATION: readonly ArticleStatus[] = ['READY_TO_PUBLISH', 'SCHEDULED'];
export const PUBLISHED: readonly ArticleStatus[] = ['PUBLISHED', 'MANUALLY_PUBLISHED'];

/** The key of the dashboard's link to the editor: continue writing, open (the editors at work), review and approve. */
export type EditorLink = 'continue' | 'open' | 'reviewApprove';

/**
 * The dashboard's link to the editor, only where the editor page opens for this status (otherwise it
 * sends the member back to the dashboard): the key of its label, or null.
 */
export function editorLinkOf(status: ArticleStatus): EditorLink | null {
  if (AUTHOR_EDITABLE.includes(status)) return 'continue';
  if (EDITORS_AT_WORK.includes(status)) return 'open';
  if (status === 'READY_TO_APPROVE') return 'reviewApprove';
  return null;
}

export type Actor = 'author' | 'editor' | 'system';

/**
 * Allowed moves. The author submits (and resubmits) and approves; the editors move the rest; the
 * scheduler publishes. A published article is never trashed (spec: it cannot be removed).
 */
const MOVES: Record<Actor, Partial<Record<ArticleStatus, readonly ArticleStatus[]>>> = {
  author: {
    DRAFT: ['SUBMITTED_FOR_REVIEW'],
    NEEDS_REVISION: ['SUBMITTED_FOR_REVIEW'],
    READY_TO_APPROVE: ['READY_TO_PUBLISH'],
  },
  editor: {
    DRAFT: ['TRASHED', 'ON_HOLD'],
    SUBMITTED_FOR_REVIEW: ['FIRST_ROUND_EDIT', 'NEEDS_REVISION', 'UNASSIGNED', 'ON_HOLD', 'TRASHED'],
    UNASSIGNED: ['FIRST_ROUND_EDIT', 'ON_HOLD', 'TRASHED'],
    EDITING: ['FIRST_ROUND_EDIT', 'FINAL_EDIT', 'ON_HOLD', 'TRASHED'],
    FIRST_ROUND_EDIT: ['NEEDS_REVISION', 'FINAL_EDIT', 'ON_HOLD', 'TRASHED'],
    NEEDS_REVISION: ['FIRST_ROUND_EDIT', 'ON_HOLD', 'TRASHED'],
    FINAL_EDIT: ['READY_TO_APPROVE', 'NEEDS_REVISION', 'ON_HOLD', 'TRASHED'],
    READY_TO_APPROVE: ['FINAL_EDIT', 'ON_HOLD'],
    // Back to proofreading after the member approved: the member approves the corrected text again.
    READY_TO_PUBLISH: ['SCHEDULED', 'MANUALLY_PUBLISHED', 'PUBLISHED', 'FINAL_EDIT', 'ON_HOLD'],
    SCHEDULED: ['READY_TO_PUBLISH', 'MANUALLY_PUBLISHED', 'PUBLISHED'],
    // ON_HOLD returns only to the status it was held from (see heldFrom below), or to the trash.
    ON_HOLD: ['TRASHED'],
    TRASHED: ['DRAFT'],
  },
  system: {
    SCHEDULED: ['PUBLISHED'],
  },
};

/**
 * The moves open to an actor. An article ON_HOLD goes back only to the status it was held from
 * (`heldFrom`, read from its history), so a hold is never a way round the member's submission or
 * approval: DRAFT -> ON_HOLD -> READY_TO_PUBLISH would publish a text nobody submitted.
 */
export function nextStatuses(actor: Actor, from: ArticleStatus, heldFrom?: ArticleStatus | null): readonly ArticleStatus[] {
  const moves = MOVES[actor][from] ?? [];
  if (actor === 'editor' && from === 'ON_HOLD' && heldFrom && heldFrom !== 'ON_HOLD' && !moves.includes(heldFrom)) return [heldFrom, ...moves];
  return moves;
}

export function canMove(actor: Actor, from: ArticleStatus, to: ArticleStatus, heldFrom?: ArticleStatus | null): boolean {
  return nextStatuses(actor, from, heldFrom).includes(to);
}

/**
 * Statuses in which the editors may change the text: while it is in their hands, before the member
 * is asked to approve it. From READY_TO_APPROVE on, the text is the one the member approves (or
 * approved), so a correction sends the article back to FINAL_EDIT first.
 */
export const EDITOR_EDITABLE: readonly ArticleStatus[] = ['SUBMITTED_FOR_REVIEW', 'UNASSIGNED', 'EDITING', 'FIRST_ROUND_EDIT', 'FINAL_EDIT'];

export type Verdict = { ok: true } | { ok: false; reason: string };

export function checkTitle(title: string): Verdict {
  const t = title.trim();
  if (t.length === 0) return { ok: false, reason: 'required' };
  if (t.length > TITLE_MAX) return { ok: false, reason: 'tooLong' };
  return { ok: true };
}

export function checkBody(html: string): Verdict {
  const n = countWords(html);
  if (n < BODY_MIN_WORDS) return { ok: false, reason: 'tooShort' };
  if (n > BODY_MAX_WORDS) return { ok: false, reason: 'tooLong' };
  return { ok: true };
}

/** Byline: plain text at most 140 characters (entities decoded), at most one link, not empty. */
export function checkByline(html: string): Verdict {
  const text = plainText(html).replace(/\s+/g, ' ').trim();
  if (text.length === 0) return { ok: false, reason: 'required' };
  if (text.length > BYLINE_MAX_CHARS) return { ok: false, reason: 'tooLong' };
  if ((html.match(/<a\s/gi) ?? []).length > BYLINE_MAX_LINKS) return { ok: false, reason: 'tooManyLinks' };
  return { ok: true };
}

export type BlackoutWindow = { startsOn: string; endsBefore: string };

/** The spec's window: from 2024-12-23 up to, not including, 2025-01-02. */
export const SPEC_BLACKOUT: BlackoutWindow = { startsOn: '2024-12-23', endsBefore: '2025-01-02' };

/** A calendar day (YYYY-MM-DD) as the blackout notice writes it: month/day. */
const monthDay = (day: Date) => `${day.getUTCMonth() + 1}/${day.getUTCDate()}`;

/**
 * The days the blackout notice names, from the community's window (end exclusive): closed from its
 * first day through the day before its end, open again on its end day (decision 0008).
 */
export function blackoutDays(window: BlackoutWindow): { start: string; last: string; back: string } {
  const start = new Date(`${window.startsOn}T00:00:00Z`);
  const back = new Date(`${window.endsBefore}T00:00:00Z`);
  const last = new Date(back.getTime() - 86_400_000);
  return { start: monthDay(start), last: monthDay(last), back: monthDay(back) };
}

/** The blackout that applies at this moment, if any (dates compared in UTC, end exclusive). */
export function activeBlackout(now: Date, windows: readonly BlackoutWindow[]): BlackoutWindow | null {
  const day = now.toISOString().slice(0, 10);
  return windows.find((w) => day >= w.startsOn && day < w.endsBefore) ?? null;
}
