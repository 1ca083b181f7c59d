import { diffWords } from 'diff';
import { htmlToPlainParagraphs } from './plain.ts';

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };
export type RevisionDiff = { title: DiffPart[]; body: DiffPart[]; added: number; removed: number } | null;

/** Words in a piece of changed text; a lone punctuation mark (a quote, a comma) is not a word. */
const wordsIn = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * A word-level difference between two plain texts. Gives up (null) rather than hold the request for
 * long when two very large texts differ almost everywhere.
 */
export function diffText(before: string, after: string, timeoutMs = 500): DiffPart[] | null {
  const changes = diffWords(before, after, { timeout: timeoutMs });
  if (!changes) return null;
  return changes.map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
}

/**
 * What changed from one revision to another: title and body, compared as the text a reader sees
 * (markup stripped, paragraphs kept apart by a blank line), with the counts of words added and removed.
 */
export function diffRevisions(from: { title: string; content: string }, to: { title: string; content: string }, timeoutMs = 500): RevisionDiff {
  const title = diffText(from.title, to.title, timeoutMs);
  const body = diffText(htmlToPlainParagraphs(from.content), htmlToPlainParagraphs(to.content), timeoutMs);
  if (!title || !body) return null;
  const count = (kind: DiffPart['kind']) => [...title, ...body].filter((p) => p.kind === kind).reduce((n, p) => n + wordsIn(p.text), 0);
  return { title, body, added: count('added'), removed: count('removed') };
}

/** The default pair to compare: the one before the latest, and the latest (ids; oldest first in). */
export function defaultPair(revisionIds: readonly number[]): { from: number; to: number } | null {
  if (revisionIds.length < 2) return null;
  return { from: revisionIds.at(-2)!, to: revisionIds.at(-1)! };
}
