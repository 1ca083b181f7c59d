/**
 * Running a scan and keeping its result: `runCopyScan` loads an article's current revision and the
 * community's other articles (that community only), runs a scanner and stores a `copy_scans` row; a
 * scanner failure is stored as a FAILED row instead of failing the caller. The job's
 * `refreshPendingScans` asks a hosted service again for PENDING scans. `copyScanView` is the spec's
 * client shape.
 */
import type { FastifyRequest } from 'fastify';
import type { Selectable, Updateable } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { CopyScansTable } from '#src/db/types.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { oneDecimal, type CopyScanner, type CopyScanStatus, type ScanReport } from './scanner.ts';

export type CopyScanRow = Selectable<CopyScansTable>;

/** Articles of the community with their current revision (the revision in the same article and community). */
function withCurrentRevision(db: Db, community: Tenant) {
  return selectInCommunity(db, 'articles', community).innerJoin('article_revisions', (join) =>
    join
      .onRef('article_revisions.id', '=', 'articles.current_revision_id')
      .onRef('article_revisions.article_id', '=', 'articles.id')
      .onRef('article_revisions.community_id', '=', 'articles.community_id'),
  );
}

/**
 * Scans an article's current revision against the current revisions of the community's other
 * articles (any status; never another community's) and stores the result. A scanner that throws
 * yields a stored FAILED row with null counts (reported to `onError`), so a submission never fails
 * because its scan did. NotFound when the article has no current revision in this community.
 */
export async function runCopyScan(
  db: Db,
  scanner: CopyScanner,
  community: Tenant,
  articleId: number,
  options: { now?: Date; onError?: (error: unknown) => void } = {},
): Promise<CopyScanRow> {
  const now = options.now ?? new Date();
  const article = await withCurrentRevision(db, community)
    .where('articles.id', '=', articleId)
    .select(['articles.id', 'article_revisions.id as revision_id', 'article_revisions.content'])
    .executeTakeFirst();
  if (!article) throw new AppError('NotFound');
  const others = await withCurrentRevision(db, community)
    .where('articles.id', '!=', articleId)
    .select(['articles.id', 'article_revisions.content'])
    .orderBy('articles.id')
    .execute();

  let report: ScanReport;
  try {
    report = await scanner.scan({ text: plainText(article.content), corpus: others.map((o) => ({ id: o.id, text: plainText(o.content) })) });
  } catch (error) {
    options.onError?.(error);
    report = { exportId: null, status: 'FAILED', identicalWords: null, minorChangedWords: null, relatedMeaningWords: null, aggregatedScore: null, aiProbability: null, totalWords: null, totalExcluded: null };
  }
  return insertInCommunity(db, 'copy_scans', community, {
      article_id: article.id,
      revision_id: article.revision_id,
      export_id: report.exportId,
      status: report.status,
      ...storedCounts(report),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The scan a request asks for (a submission from the form or GraphQL, the editors' Scan again): the
 * app's scanner and clock, the request's community, a scanner failure logged with the request.
 */
export function scanForRequest(request: FastifyRequest, articleId: number): Promise<CopyScanRow> {
  const app = request.server;
  return runCopyScan(app.db, app.copyScanner, request.community, articleId, {
    now: app.clock.now(),
    onError: (err) => request.log.warn({ err }, 'copy scan failed'),
  });
}

/** The counts a report stores: a COMPLETED report's, none for a PENDING or FAILED one. */
function storedCounts(report: ScanReport) {
  const done = report.status === 'COMPLETED';
  return {
    identical_words: done ? report.identicalWords : null,
    minor_changed_words: done ? report.minorChangedWords : null,
    related_meaning_words: done ? report.relatedMeaningWords : null,
    aggregated_score: done ? report.aggregatedScore : null,
    ai_probability: done ? report.aiProbability : null,
    total_words: done ? report.totalWords : null,
    total_excluded: done ? report.totalExcluded : null,
  };
}

/** How long a hosted scan may stay PENDING before the job stops asking and marks it FAILED. */
export const PENDING_SCAN_GIVE_UP_MS = 24 * 60 * 60 * 1000;

/**
 * The job runner's step for hosted scans that answered PENDING: asks the service again for each (the
 * least recently asked first, at most `limit`, every community, within `budgetMs`) and stores the
 * answer in the same row. A scan still PENDING a day after it started becomes FAILED without asking
 * again; one whose poll fails is asked again on a later run, after the others. Returns the ids of the
 * rows it finished.
 */
export async function refreshPendingScans(
  db: Db,
  scanner: CopyScanner,
  options: { now?: Date; limit?: number; budgetMs?: number; onError?: (error: unknown) => void } = {},
): Promise<number[]> {
  if (!scanner.poll) return [];
  const now = options.now ?? new Date();
  const stopAt = Date.now() + (options.budgetMs ?? 20_000);
  // Named cross-community query: a scheduled job scanning the due rows of every community (each row is updated by its id).
  const raw = crossCommunity(db);
  const rows = await raw
    .selectFrom('copy_scans')
    .select(['id', 'export_id', 'created_at'])
    .where('status', '=', 'PENDING')
    .where('export_id', 'is not', null)
    .orderBy('updated_at')
    .orderBy('id')
    .limit(options.limit ?? 50)
    .execute();
  const finished: number[] = [];
  const store = async (id: number, set: Updateable<CopyScansTable>) => raw.updateTable('copy_scans').set(set).where('id', '=', id).where('status', '=', 'PENDING').execute();
  for (const row of rows) {
    if (now.getTime() - new Date(row.created_at).getTime() > PENDING_SCAN_GIVE_UP_MS) {
      await store(row.id, { status: 'FAILED', updated_at: now });
      finished.push(row.id);
      continue;
    }
    if (Date.now() > stopAt) break; // the rest wait for the next run: publishing must not wait
    let report: ScanReport;
    try {
      report = await scanner.poll(row.export_id!);
    } catch (error) {
      options.onError?.(error);
      await store(row.id, { updated_at: now }); // to the back of the queue
      continue;
    }
    if (report.status === 'PENDING') {
      await store(row.id, { updated_at: now });
      continue;
    }
    await store(row.id, { status: report.status === 'COMPLETED' ? 'COMPLETED' : 'FAILED', ...storedCounts(report), updated_at: now });
    finished.push(row.id);
  }
  return finished;
}

/** The spec's Copy-scan result (section 3) as clients see it. */
export function copyScanView(row: CopyScanRow) {
  return {
    id: row.id,
    exportId: row.export_id,
    status: row.status as CopyScanStatus,
    identicalWords: row.identical_words,
    minorChangedWords: row.minor_changed_words,
    relatedMeaningWords: row.related_meaning_words,
    // Stored as `real`: shown with the one decimal it was computed with.
    aggregatedScore: row.aggregated_score === null ? null : oneDecimal(Number(row.aggregated_score)),
    aiProbability: row.ai_probability === null ? null : Number(row.ai_probability),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    totalExcluded: row.total_excluded,
    totalWords: row.total_words,
  };
}

