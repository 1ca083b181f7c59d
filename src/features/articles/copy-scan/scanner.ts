/**
 * The copy scan of an article submitted for review (issue 4; spec section 3, "Copy-scan result"):
 * what every scanner shares. A `CopyScanner` compares a submitted text with a corpus and reports the
 * spec's counts. Two implementations share the interface:
 *
 * - `LocalCopyScanner` (local.ts): a real, deterministic comparison with the community's other
 *   articles, run in-process. It computes what it can honestly compute (identical, minor changed and
 *   related meaning words, totals, the aggregated score) and leaves `aiProbability` null: nothing
 *   here can tell machine-written text from human text, and a made-up number would mislead the editors.
 * - `HostedCopyScanner` (hosted.ts): an adapter for a hosted scanning service (REST shape documented
 *   on the class), which may also report an AI probability.
 *
 * stored.ts runs a scanner on an article and keeps its result (`runCopyScan`, the job's
 * `refreshPendingScans`, the client shape `copyScanView`).
 */

export type CopyScanStatus = 'COMPLETED' | 'PENDING' | 'FAILED';

export type CorpusDocument = { id: number; text: string };
export type ScanInput = { text: string; corpus: CorpusDocument[] };

/**
 * What a scanner reports. Counts are words of the submitted text; `aggregatedScore` is a percentage
 * 0..100 with one decimal. A COMPLETED report has every count; a PENDING (the hosted service is
 * still working; `exportId` names the scan there) or FAILED one has null counts. `aiProbability`
 * (0..1) is null whenever the scanner cannot truly compute it.
 */
export type ScanReport = {
  exportId: string | null;
  status: CopyScanStatus;
  identicalWords: number | null;
  minorChangedWords: number | null;
  relatedMeaningWords: number | null;
  aggregatedScore: number | null;
  aiProbability: number | null;
  totalWords: number | null;
  totalExcluded: number | null;
};

export interface CopyScanner {
  scan(input: ScanInput): Promise<ScanReport>;
  /** A scanner that can answer PENDING asks again for the result of `exportId` (see refreshPendingScans). */
  poll?(exportId: string): Promise<ScanReport>;
}

export type CopyScanErrorCode = 'HTTP' | 'TIMEOUT' | 'NETWORK' | 'INVALID_RESPONSE';

/** A scan that could not be run: `status` is the HTTP status when the service answered one. */
export class CopyScanError extends Error {
  readonly code: CopyScanErrorCode;
  readonly status: number | null;

  constructor(code: CopyScanErrorCode, message: string, options: { status?: number | null; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CopyScanError';
    this.code = code;
    this.status = options.status ?? null;
  }
}

/** A percentage or probability with the one decimal it is computed and shown with. */
export const oneDecimal = (n: number) => Math.round(n * 10) / 10;
