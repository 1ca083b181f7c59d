/** The hosted copy scanner: an adapter for a hosted scanning service's REST API. */
import { z } from 'zod';
import { CopyScanError, oneDecimal, type CopyScanner, type ScanInput, type ScanReport } from './scanner.ts';

const count = z.number().int().nonnegative();
const HostedAnswer = z.object({
  id: z.union([z.string().min(1), z.number()]),
  status: z.string(),
  results: z
    .object({
      identical: count,
      minorChanged: count,
      relatedMeaning: count,
      score: z.number().min(0).max(100),
      aiProbability: z.number().min(0).max(1).nullish(),
      totalWords: count,
      totalExcluded: count,
    })
    .nullish(),
});

export type HostedCopyScannerOptions = {
  /** The service's base address, e.g. `https://scan.example.com` (a path prefix is kept). */
  baseUrl: string;
  apiKey: string;
  /** The whole request, answer included; default 15 s. */
  timeoutMs?: number;
  /**
   * Send the community's other articles with the text (`corpus`), for services that compare with
   * what they are given; off by default: the text alone is sent, and the service compares it with
   * its own index.
   */
  includeCorpus?: boolean;
};

/**
 * Adapter for a hosted scanning service with this generic REST shape:
 *
 *     POST {baseUrl}/v1/scans
 *     authorization: Bearer <apiKey>
 *     content-type: application/json
 *     { "text": "...", "corpus": [{ "id": 1, "text": "..." }] }      // corpus only with includeCorpus
 *
 *     200/201/202 { "id": "scan-123", "status": "COMPLETED" | "PENDING" | "FAILED",
 *                   "results": { "identical": 10, "minorChanged": 2, "relatedMeaning": 1,
 *                                "score": 12.5,            // percentage 0..100
 *                                "aiProbability": 0.03,    // 0..1, optional
 *                                "totalWords": 600, "totalExcluded": 180 } }   // with COMPLETED
 *
 * COMPLETED maps to a full report, `id` to `exportId`, and `aiProbability` passes through (null if
 * absent). PENDING and FAILED map to reports with null counts, so the caller can store them.
 * A PENDING scan is asked for again with
 *
 *     GET {baseUrl}/v1/scans/{id}          (same authorization; the same answer shape)
 *
 * by the job runner (refreshPendingScans). Non-2xx answers, timeouts, network errors and answers of
 * another shape throw a CopyScanError.
 */
export class HostedCopyScanner implements CopyScanner {
  private readonly endpoint: URL;

  constructor(private readonly options: HostedCopyScannerOptions) {
    const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
    this.endpoint = new URL('v1/scans', base);
  }

  async scan(input: ScanInput): Promise<ScanReport> {
    const body = this.options.includeCorpus ? { text: input.text, corpus: input.corpus } : { text: input.text };
    return this.call(this.endpoint, { method: 'POST', body: JSON.stringify(body) });
  }

  async poll(exportId: string): Promise<ScanReport> {
    return this.call(new URL(`${this.endpoint.pathname}/${encodeURIComponent(exportId)}`, this.endpoint), { method: 'GET' });
  }

  private async call(url: URL, init: { method: 'GET' | 'POST'; body?: string }): Promise<ScanReport> {
    const timeoutMs = this.options.timeoutMs ?? 15_000;
    let status: number | undefined;
    let payload: unknown;
    try {
      const res = await fetch(url, {
        method: init.method,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          accept: 'application/json',
        },
        body: init.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = res.status;
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new CopyScanError('HTTP', `The copy-scan service answered ${res.status}`, { status: res.status });
      }
      const text = await res.text();
      try {
        payload = JSON.parse(text);
      } catch (cause) {
        throw new CopyScanError('INVALID_RESPONSE', 'The copy-scan service answered with something other than JSON', { status, cause });
      }
    } catch (error) {
      if (error instanceof CopyScanError) throw error;
      const name = (error as { name?: unknown } | null)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new CopyScanError('TIMEOUT', `The copy-scan service did not answer within ${timeoutMs} ms`, { status, cause: error });
      }
      throw new CopyScanError('NETWORK', `The copy-scan service could not be reached: ${(error as Error)?.message ?? error}`, { status, cause: error });
    }
    return mapHostedAnswer(payload, status);
  }
}

function mapHostedAnswer(payload: unknown, httpStatus: number): ScanReport {
  const parsed = HostedAnswer.safeParse(payload);
  if (!parsed.success) {
    throw new CopyScanError('INVALID_RESPONSE', `Unexpected copy-scan answer: ${parsed.error.message}`, { status: httpStatus });
  }
  const answer = parsed.data;
  const exportId = String(answer.id);
  const scanStatus = answer.status.toUpperCase();
  const empty = { identicalWords: null, minorChangedWords: null, relatedMeaningWords: null, aggregatedScore: null, aiProbability: null, totalWords: null, totalExcluded: null };
  if (scanStatus === 'PENDING' || scanStatus === 'FAILED') return { exportId, status: scanStatus, ...empty };
  if (scanStatus !== 'COMPLETED' || !answer.results) {
    throw new CopyScanError('INVALID_RESPONSE', `Unexpected copy-scan status ${answer.status}${answer.results ? '' : ' without results'}`, { status: httpStatus });
  }
  const r = answer.results;
  return {
    exportId,
    status: 'COMPLETED',
    identicalWords: r.identical,
    minorChangedWords: r.minorChanged,
    relatedMeaningWords: r.relatedMeaning,
    aggregatedScore: oneDecimal(r.score),
    aiProbability: r.aiProbability ?? null,
    totalWords: r.totalWords,
    totalExcluded: r.totalExcluded,
  };
}
