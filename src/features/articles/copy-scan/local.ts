/**
 * The local copy scanner: the words of a text, the corpus index, and the comparison in windows of
 * 8 words (see `LocalCopyScanner`).
 */
import { oneDecimal, type CopyScanner, type CorpusDocument, type ScanInput, type ScanReport } from './scanner.ts';

// ---------------------------------------------------------------------------------------------
// Words

/**
 * Very common English words: excluded from matching (sharing "of the and" proves nothing) and
 * counted in `totalExcluded`.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below
  between both but by can could did do does doing down during each few for from further had has have
  having he her here hers herself him himself his how i if in into is it it's its itself just me more
  most my myself no nor not now of off on once only or other our ours ourselves out over own same she
  should so some such than that that's the their theirs them themselves then there these they this
  those through to too under until up very was we were what when where which while who whom why will
  with would you your yours yourself yourselves don't doesn't didn't isn't aren't wasn't weren't can't
  won't i'm you're we're they're i've you've we've they've`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words: runs of letters and digits, with inner apostrophes ("don't"). */
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;
/**
 * Quoted passages (attributed material, excluded like stop words): text between curly quotes or
 * straight double quotes, at most 600 characters, so a stray quote mark cannot swallow the text.
 */
const QUOTED = /“[^“”]{1,600}”|"[^"]{1,600}"/g;

const normalise = (text: string) => text.toLowerCase().replace(/[’‘]/g, "'");

/** Every word of a text, lower-cased. */
export function words(text: string): string[] {
  return normalise(text).match(WORD) ?? [];
}

/** The words compared: quoted passages and stop words left out. */
export function contentWords(text: string): string[] {
  const all = normalise(text).replace(QUOTED, ' ').match(WORD) ?? [];
  return all.filter((w) => !STOP_WORDS.has(w));
}

/**
 * Stemming-lite, for "minor changes": accents dropped, then a possessive, a plural or a verb ending
 * ("-ies", "-es" after s/x/ch/sh, "-s", "-ed", "-ing") and a final "e", so that walk / walks /
 * walked / walking, and use / used / using, meet. Deliberately crude; it only has to be consistent.
 */
export function stem(word: string): string {
  let w = word.normalize('NFD').replace(/\p{M}/gu, '');
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.length >= 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length >= 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length >= 3 && w.endsWith('e')) w = w.slice(0, -1);
  return w;
}

// ---------------------------------------------------------------------------------------------
// The local scanner

/** Window length: a run of this many content words is the unit of evidence. */
export const WINDOW = 8;
/** Related meaning: at least this many of a window's 8 stems (75%) found in one corpus window. */
export const RELATED_MIN_SHARED = 6;
/** A stem found more often than this in the corpus is too common to anchor a related-meaning search. */
export const ANCHOR_MAX_POSTINGS = 100;
/** Of the shared stems of a related-meaning window, at least this many must be anchors (not too common). */
export const RELATED_MIN_ANCHORS = 2;
/** Candidates checked per 4-word half of a window, bounding pathological repetitive corpora. */
const MAX_CANDIDATES_PER_HALF = 2000;

const NONE = 0;
const RELATED = 1;
const MINOR = 2;
const IDENTICAL = 3;
const ALL = (1 << WINDOW) - 1;

/** Word ids and stem ids, shared by the corpus and the submission of one scan. */
class Vocabulary {
  private readonly words = new Map<string, number>();
  private readonly stems = new Map<string, number>();
  /** Stem id of each word id. */
  private readonly stemOf: number[] = [];

  get stemCount(): number {
    return this.stems.size;
  }

  /** Fills `raw` and `stems` from `at` on with the ids of `words`. */
  encode(words: readonly string[], raw: Int32Array, stems: Int32Array, at: number) {
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      let id = this.words.get(w);
      if (id === undefined) {
        id = this.words.size;
        this.words.set(w, id);
        const s = stem(w);
        let sid = this.stems.get(s);
        if (sid === undefined) this.stems.set(s, (sid = this.stems.size));
        this.stemOf.push(sid);
      }
      raw[at + i] = id;
      stems[at + i] = this.stemOf[id]!;
    }
  }
}

/** A 32-bit hash of four stem ids (collisions only cost a verification). */
function hash4(a: Int32Array, i: number): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < 4; k++) {
    h = Math.imul(h ^ a[i + k]!, 0x01000193);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/**
 * The corpus's content words end to end (positions are global; a window never crosses from one
 * document into the next), indexed once per scan in linear time and without per-entry allocation:
 * a chained hash table of 4-word stem shingles, and the positions of each stem.
 */
class CorpusIndex {
  readonly raw: Int32Array;
  readonly stems: Int32Array;
  /** Document number, start and end (exclusive) of the document, for each position. */
  readonly docAt: Int32Array;
  readonly docStartAt: Int32Array;
  readonly docEndAt: Int32Array;
  readonly docCount: number;
  /** Shingle table: bucket heads, the next position in the chain, and each position's hash. */
  private readonly heads: Int32Array;
  private readonly next: Int32Array;
  private readonly keys: Uint32Array;
  /** Positions of stem s: postings[postingStart[s] .. postingStart[s + 1]). */
  private readonly postingStart: Int32Array;
  private readonly postings: Int32Array;
  readonly submission: { raw: Int32Array; stems: Int32Array };

  constructor(corpus: readonly CorpusDocument[], submissionWords: readonly string[]) {
    const docs = corpus.map((d) => contentWords(d.text)).filter((words) => words.length >= WINDOW);
    const total = docs.reduce((n, words) => n + words.length, 0);
    const vocabulary = new Vocabulary();
    this.raw = new Int32Array(total);
    this.stems = new Int32Array(total);
    this.docAt = new Int32Array(total);
    this.docStartAt = new Int32Array(total);
    this.docEndAt = new Int32Array(total);
    this.docCount = docs.length;
    let at = 0;
    docs.forEach((words, d) => {
      vocabulary.encode(words, this.raw, this.stems, at);
      this.docAt.fill(d, at, at + words.length);
      this.docStartAt.fill(at, at, at + words.length);
      this.docEndAt.fill(at + words.length, at, at + words.length);
      at += words.length;
    });
    this.submission = { raw: new Int32Array(submissionWords.length), stems: new Int32Array(submissionWords.length) };
    vocabulary.encode(submissionWords, this.submission.raw, this.submission.stems, 0);

    let size = 1024;
    while (size < 2 * total) size *= 2;
    this.heads = new Int32Array(size).fill(-1);
    this.next = new Int32Array(total).fill(-1);
    this.keys = new Uint32Array(total);
    for (let g = 0; g < total; g++) {
      if (g + 4 > this.docEndAt[g]!) continue;
      const h = hash4(this.stems, g);
      const bucket = h & (size - 1);
      this.keys[g] = h;
      this.next[g] = this.heads[bucket]!;
      this.heads[bucket] = g;
    }

    const stemCount = vocabulary.stemCount;
    this.postingStart = new Int32Array(stemCount + 1);
    for (let g = 0; g < total; g++) this.postingStart[this.stems[g]! + 1]!++;
    for (let s = 0; s < stemCount; s++) this.postingStart[s + 1]! += this.postingStart[s]!;
    const fill = this.postingStart.slice(0, stemCount);
    this.postings = new Int32Array(total);
    for (let g = 0; g < total; g++) this.postings[fill[this.stems[g]!]!++] = g;
  }

  /** Positions starting a corpus 4-gram with these stems' hash, in no particular order. */
  *shingle(hash: number): Generator<number> {
    for (let g = this.heads[hash & (this.heads.length - 1)]!; g !== -1; g = this.next[g]!) if (this.keys[g] === hash) yield g;
  }

  postingCount(s: number): number {
    return s + 1 < this.postingStart.length ? this.postingStart[s + 1]! - this.postingStart[s]! : 0;
  }

  postingsOf(s: number): Int32Array {
    return this.postings.subarray(this.postingStart[s]!, this.postingStart[s + 1]!);
  }
}

/**
 * Exact or minor match of submission window i against the corpus: the kind, and which of the 8
 * words it covers (bit k: word i + k). A minor window covers its one changed word only when that
 * word is inside it: a mismatch at either end is more likely the first word after a copied run
 * than a substitution (a real substitution is inside the neighbouring windows).
 */
function matchWindow(index: CorpusIndex, i: number): { kind: number; mask: number } {
  const sub = index.submission;
  let kind = NONE;
  let mask = 0;
  // Two 8-word windows differing in at most one position agree exactly on one of their halves.
  for (const half of [0, 4]) {
    let checked = 0;
    for (const g of index.shingle(hash4(sub.stems, i + half))) {
      if (++checked > MAX_CANDIDATES_PER_HALF) break;
      const start = g - half;
      if (start < index.docStartAt[g]! || start + WINDOW > index.docEndAt[g]!) continue;
      let rawDiff = 0;
      let stemDiff = 0;
      let changed = -1;
      for (let k = 0; k < WINDOW && stemDiff <= 1; k++) {
        if (index.raw[start + k] !== sub.raw[i + k]) rawDiff++;
        if (index.stems[start + k] !== sub.stems[i + k]) {
          stemDiff++;
          changed = k;
        }
      }
      if (rawDiff === 0) return { kind: IDENTICAL, mask: ALL };
      if (stemDiff > 1) continue;
      kind = MINOR;
      mask |= changed === 0 || changed === WINDOW - 1 ? ALL & ~(1 << changed) : ALL;
    }
  }
  return { kind, mask };
}

/** Multiset intersection of the window's stems with the corpus window at `start`: bit k set when bag[k] is shared. */
function shared(bag: Int32Array, stems: Int32Array, start: number): number {
  let used = 0;
  for (let j = 0; j < WINDOW; j++) {
    const s = stems[start + j]!;
    for (let k = 0; k < WINDOW; k++) {
      if (!(used & (1 << k)) && bag[k] === s) {
        used |= 1 << k;
        break;
      }
    }
  }
  return used;
}

function bits(mask: number): number {
  let n = 0;
  for (let m = mask; m; m &= m - 1) n++;
  return n;
}

/**
 * Related meaning (an approximation, stated plainly): submission window i shares at least 6 of its
 * 8 stems, in any order, with one 8-word window of one corpus document; the shared words are
 * covered (bit k: word i + k). Reordered sentences and paraphrases that keep most content words
 * are found; true synonyms are not. At least 2 of the shared stems must be anchors, stems found at
 * most ANCHOR_MAX_POSTINGS times in the corpus: sharing only the community's everyday vocabulary
 * is not reported. Candidate corpus windows are those holding enough anchor positions.
 */
function relatedWindow(index: CorpusIndex, i: number, hits: Int32Array): number {
  const bag = index.submission.stems.subarray(i, i + WINDOW);
  let capped = 0;
  const anchors: number[] = [];
  for (const s of new Set(bag)) {
    const n = index.postingCount(s);
    if (n === 0) continue;
    if (n <= ANCHOR_MAX_POSTINGS) anchors.push(s);
    else for (const b of bag) if (b === s) capped++;
  }
  // A shared window holds at least this many anchor positions.
  const needed = Math.max(RELATED_MIN_ANCHORS, RELATED_MIN_SHARED - capped);
  // Documents with enough anchor positions (hits counted per document, then reset) ...
  const touched: number[] = [];
  for (const s of anchors) {
    for (const g of index.postingsOf(s)) if (hits[index.docAt[g]!]!++ === 0) touched.push(index.docAt[g]!);
  }
  const candidates: number[] = [];
  for (const s of anchors) {
    for (const g of index.postingsOf(s)) if (hits[index.docAt[g]!]! >= needed) candidates.push(g);
  }
  for (const d of touched) hits[d] = 0;
  if (candidates.length < needed) return 0;
  // ... then windows of 8 holding `needed` of them, each verified once.
  candidates.sort((a, b) => a - b);
  let mask = 0;
  let verified = -1;
  for (let a = 0; a + needed - 1 < candidates.length; a++) {
    const first = candidates[a]!;
    const last = candidates[a + needed - 1]!;
    if (last - first >= WINDOW || index.docAt[first] !== index.docAt[last]) continue;
    const hi = Math.min(first, index.docEndAt[first]! - WINDOW);
    for (let start = Math.max(index.docStartAt[first]!, last - WINDOW + 1, verified + 1); start <= hi; start++) {
      const found = shared(bag, index.stems, start);
      if (bits(found) >= RELATED_MIN_SHARED) mask |= found;
      verified = start;
    }
  }
  return mask;
}

/**
 * The local scanner. The submitted text is split into words, runs of letters and digits
 * (`totalWords`; "fish&chips" is two, where the editor's whitespace count sees one); stop words and
 * quoted passages are excluded from matching (`totalExcluded`), in the corpus as well; the
 * remaining content words are compared with the corpus's in windows of 8 consecutive words:
 *
 * - identical: words covered by a window found word for word in a corpus document (a shared run
 *   of at least 8 content words);
 * - minor changed: words, not identical, covered by a window that matches a corpus window in all
 *   positions but one, or in all after stemming-lite (plural, tense, accents); see `matchWindow`;
 * - related meaning: words covered by neither, shared by a window with a corpus window that has
 *   >= 75% of its stems, in any order (see `relatedWindow`).
 *
 * aggregatedScore = 100 * (identical + minor + related) / max(1, totalWords - totalExcluded).
 * Deterministic; the corpus is indexed once per scan (linear in its size), each window costs a
 * bounded number of lookups. aiProbability is null: it cannot be computed here.
 */
export class LocalCopyScanner implements CopyScanner {
  async scan(input: ScanInput): Promise<ScanReport> {
    return this.scanSync(input);
  }

  scanSync(input: ScanInput): ScanReport {
    const content = contentWords(input.text);
    const totalWords = words(input.text).length;
    const totalExcluded = totalWords - content.length;
    const index = new CorpusIndex(input.corpus, content);
    const n = content.length;

    // The best kind of match covering each content word.
    const cover = new Uint8Array(n);
    const windows = Math.max(0, n - WINDOW + 1);
    if (index.docCount > 0) {
      for (let i = 0; i < windows; i++) {
        const { kind, mask } = matchWindow(index, i);
        for (let k = 0; k < WINDOW; k++) if (mask & (1 << k) && cover[i + k]! < kind) cover[i + k] = kind;
      }
      const hits = new Int32Array(index.docCount);
      for (let i = 0; i < windows; i++) {
        let open = false;
        for (let k = i; k < i + WINDOW && !open; k++) open = cover[k] === NONE;
        if (!open) continue;
        const mask = relatedWindow(index, i, hits);
        for (let k = 0; k < WINDOW; k++) if (mask & (1 << k) && cover[i + k] === NONE) cover[i + k] = RELATED;
      }
    }

    let identicalWords = 0;
    let minorChangedWords = 0;
    let relatedMeaningWords = 0;
    for (const c of cover) {
      if (c === IDENTICAL) identicalWords++;
      else if (c === MINOR) minorChangedWords++;
      else if (c === RELATED) relatedMeaningWords++;
    }
    const matched = identicalWords + minorChangedWords + relatedMeaningWords;
    return {
      exportId: null,
      status: 'COMPLETED',
      identicalWords,
      minorChangedWords,
      relatedMeaningWords,
      aggregatedScore: oneDecimal((100 * matched) / Math.max(1, totalWords - totalExcluded)),
      aiProbability: null,
      totalWords,
      totalExcluded,
    };
  }
}
