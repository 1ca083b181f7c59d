import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import type { RawDb as Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { copyScanView, refreshPendingScans, runCopyScan } from '#src/features/articles/copy-scan/stored.ts';
import { CopyScanError, type CopyScanner, type ScanInput, type ScanReport } from '#src/features/articles/copy-scan/scanner.ts';
import { LocalCopyScanner, stem } from '#src/features/articles/copy-scan/local.ts';
import { HostedCopyScanner } from '#src/features/articles/copy-scan/hosted.ts';
import { countWords } from '#src/lib/plain-text.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import { createCommunity, createMember } from '#test/helpers/factories.ts';

const LEADERSHIP = `Leading a distributed team asks for a different rhythm than running an office. Managers who once
relied on hallway conversations now have to write down decisions, explain the reasoning behind them, and
publish that reasoning where every colleague can find it later. Written culture sounds slow, yet the
companies that embraced it early report faster onboarding, fewer repeated debates, and calmer planning
cycles. Another lesson concerns trust: measuring hours online rewards visible busyness, while measuring
shipped outcomes rewards focus. Executives should schedule fewer recurring meetings, protect long blocks of
uninterrupted work, and reserve synchronous calls for conflict, celebration, and genuinely creative
brainstorming. Finally, leaders must budget for travel, because quarterly gatherings build the personal
relationships that keep remote collaboration generous instead of transactional.`;

const LOGISTICS = `Global shipping networks absorbed enormous shocks during recent years, and procurement officers
learned expensive lessons about resilience. Single suppliers located across one ocean looked efficient on
spreadsheets until ports closed and freight rates multiplied tenfold. Many manufacturers now keep
secondary vendors qualified, hold larger safety inventories of critical components, and map their
suppliers' suppliers several tiers deep. Nearshoring attracts investment where labour costs allow it,
particularly in Mexico and Eastern Europe. Software helps as well: demand forecasting models, container
tracking platforms, and automated customs paperwork shorten the delay between a disruption and a response.`;

const GARDENING = `Tomatoes thrive when gardeners water deeply but infrequently, encouraging roots to chase moisture
downward. Mulching with straw keeps soil temperature steady and discourages weeds from sprouting between
rows. Pinch suckers from indeterminate varieties, stake stems before fruit gets heavy, and rotate beds each
spring so fungal blights cannot overwinter. Basil planted nearby reportedly repels whiteflies, although
evidence remains anecdotal.`;

const html = (text: string) => `<p>${text.split(/\n\n/).join('</p><p>')}</p>`;
const local = new LocalCopyScanner();

t.test('stemming-lite brings plurals and tenses together', async (t) => {
  t.equal(stem('walking'), stem('walk'));
  t.equal(stem('walked'), stem('walks'));
  t.equal(stem('used'), stem('using'));
  t.equal(stem('companies'), stem('company'));
  t.equal(stem('matches'), stem('match'));
  t.equal(stem('café'), stem('cafe'));
  t.not(stem('walk'), stem('talk'));
});

t.test('the local scanner finds an article copied verbatim', async (t) => {
  const report = await local.scan({ text: LEADERSHIP, corpus: [{ id: 1, text: LOGISTICS }, { id: 2, text: LEADERSHIP }] });
  const content = report.totalWords! - report.totalExcluded!;
  t.equal(report.status, 'COMPLETED');
  t.equal(report.exportId, null);
  t.equal(report.identicalWords, content, 'every content word is identical');
  t.equal(report.minorChangedWords, 0);
  t.equal(report.relatedMeaningWords, 0);
  t.equal(report.aggregatedScore, 100);
  t.equal(report.totalWords, LEADERSHIP.split(/\s+/).length, 'every word of the text is counted');
});

t.test('only the copied words count, not the words around a copied passage', async (t) => {
  const excerpt = LEADERSHIP.split(/\s+/).slice(20, 90).join(' ');
  const text = `${GARDENING} ${excerpt} ${LOGISTICS}`;
  const report = await local.scan({ text, corpus: [{ id: 2, text: LEADERSHIP }] });
  const copied = local.scanSync({ text: excerpt, corpus: [] });
  t.equal(report.identicalWords, copied.totalWords! - copied.totalExcluded!);
  t.equal(report.minorChangedWords, 0);
  t.equal(report.relatedMeaningWords, 0);
});

t.test('the local scanner reports a lightly edited copy as minor changes', async (t) => {
  const edited = LEADERSHIP.replace('Managers who once', 'Managers that once')
    .replace('report faster onboarding', 'reported faster onboarding')
    .replace('protect long blocks', 'protecting long block')
    .replace('leaders must budget', 'leaders must plan')
    .replace('gatherings build', 'gathering builds');
  const report = await local.scan({ text: edited, corpus: [{ id: 2, text: LEADERSHIP }] });
  t.ok(report.minorChangedWords! > 0, `minor changed words: ${report.minorChangedWords}`);
  t.ok(report.identicalWords! > 0, `identical words: ${report.identicalWords}`);
  t.ok(report.identicalWords! < report.totalWords! - report.totalExcluded!, 'not everything is identical');
  t.ok(report.aggregatedScore! >= 90, `score ${report.aggregatedScore}`);

  // A word substituted every tenth content word: the runs between stay identical, each substitute is a minor change.
  let n = 0;
  const substituted = LEADERSHIP.replace(/[A-Za-z]{5,}/g, (w) => (++n % 10 === 0 ? 'zebra' : w));
  const every10 = await local.scan({ text: substituted, corpus: [{ id: 2, text: LEADERSHIP }] });
  t.ok(every10.minorChangedWords! > 0);
  t.ok(every10.identicalWords! > every10.minorChangedWords!);
});

t.test('the local scanner reports reordered sentences as related meaning', async (t) => {
  const reversed = LEADERSHIP.split(/(?<=[.:])\s+/)
    .map((sentence) => sentence.replace(/[.:,]/g, '').split(/\s+/).reverse().join(' '))
    .join('. ');
  const report = await local.scan({ text: reversed, corpus: [{ id: 2, text: LEADERSHIP }] });
  t.equal(report.identicalWords, 0);
  t.ok(report.relatedMeaningWords! > 0, `related meaning words: ${report.relatedMeaningWords}`);
  t.ok(report.aggregatedScore! > 50, `score ${report.aggregatedScore}`);
});

t.test('the local scanner scores an unrelated text near zero', async (t) => {
  const report = await local.scan({ text: GARDENING, corpus: [{ id: 1, text: LEADERSHIP }, { id: 2, text: LOGISTICS }] });
  t.equal(report.identicalWords, 0);
  t.equal(report.minorChangedWords, 0);
  t.ok(report.aggregatedScore! <= 2, `score ${report.aggregatedScore}`);
  t.ok(report.totalWords! > 50);
});

t.test('stop words and quoted passages are counted as excluded, not matched', async (t) => {
  const plain = await local.scan({ text: 'The cat and the dog sat on a mat', corpus: [] });
  t.equal(plain.totalWords, 9);
  t.equal(plain.totalExcluded, 5, 'the, and, the, on, a');
  t.equal(plain.aggregatedScore, 0);

  const quoted = await local.scan({ text: 'He said "this is quoted text" today', corpus: [] });
  t.equal(quoted.totalWords, 7);
  t.equal(quoted.totalExcluded, 5, 'four quoted words and "he"');

  const short = `An executive once wrote: “${LEADERSHIP.split(/\s+/).slice(0, 60).join(' ')}” I agree with that.`;
  const attributed = await local.scan({ text: short, corpus: [{ id: 2, text: LEADERSHIP }] });
  t.equal(attributed.identicalWords, 0, 'a quoted passage is not a copy');
  t.equal(attributed.aggregatedScore, 0);
  t.equal(attributed.totalExcluded, attributed.totalWords! - 3, 'only "executive", "wrote" and "agree" are compared');
});

t.test('the local scanner leaves the AI probability empty', async (t) => {
  const report = await local.scan({ text: LEADERSHIP, corpus: [{ id: 1, text: LOGISTICS }] });
  t.equal(report.aiProbability, null);
});

t.test('a text shorter than one window and an empty corpus score zero', async (t) => {
  const tiny = await local.scan({ text: 'Remote teams thrive', corpus: [{ id: 1, text: 'Remote teams thrive' }] });
  t.same([tiny.identicalWords, tiny.minorChangedWords, tiny.relatedMeaningWords, tiny.aggregatedScore], [0, 0, 0, 0]);
  const alone = await local.scan({ text: LEADERSHIP, corpus: [] });
  t.equal(alone.aggregatedScore, 0);
  const empty = await local.scan({ text: '', corpus: [] });
  t.same([empty.totalWords, empty.totalExcluded, empty.aggregatedScore], [0, 0, 0]);
});

t.test('a 1000-word text scans against 300 articles of 1000 words (smoke test)', async (t) => {
  let seed = 42;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const syllables = ['ka', 'lo', 'mi', 'ter', 'san', 'vo', 'ri', 'pel', 'du', 'nor', 'ex', 'qua'];
  const vocabulary = Array.from({ length: 3000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  const stops = ['the', 'of', 'and', 'to', 'in', 'a', 'is', 'that'];
  const word = () => (random() < 0.3 ? stops[Math.floor(random() * stops.length)]! : vocabulary[Math.floor(random() * vocabulary.length)]!);
  const doc = () => Array.from({ length: 1000 }, word);
  const corpus = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, text: doc().join(' ') }));
  const source = corpus[41]!.text.split(' ');
  const submission = [...doc().slice(0, 400), ...source.slice(100, 300), ...doc().slice(0, 400)];

  const report = await local.scan({ text: submission.join(' '), corpus });
  t.equal(report.totalWords, 1000);
  t.ok(report.identicalWords! > 100, `identical words: ${report.identicalWords}`);
  t.ok(report.aggregatedScore! > 10 && report.aggregatedScore! < 50, `score ${report.aggregatedScore}`);
});

// ---------------------------------------------------------------------------------------------
// runCopyScan

/** Published, so one member may hold several (only one article may be in flight). */
async function insertArticle(db: Db, community: Community, authorId: number, contents: string[], now: Date) {
  const article = await db
    .insertInto('articles')
    .values({ community_id: community.id, author_id: authorId, status: 'PUBLISHED', status_updated_at: now, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const revisionIds: number[] = [];
  for (const content of contents) {
    const revision = await db
      .insertInto('article_revisions')
      .values({ community_id: community.id, article_id: article.id, author_id: authorId, title: 'A title', content, word_count: countWords(content), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    revisionIds.push(revision.id);
  }
  await db.updateTable('articles').set({ current_revision_id: revisionIds.at(-1) ?? null }).where('id', '=', article.id).execute();
  return { id: article.id, revisionIds };
}

/** A scanner that records what it was given and delegates to another. */
function recording(inner: CopyScanner) {
  const calls: ScanInput[] = [];
  const scanner: CopyScanner = {
    scan(input) {
      calls.push(input);
      return inner.scan(input);
    },
  };
  return { scanner, calls };
}

t.test('runCopyScan', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const beta = await createCommunity(db, { code: 'beta' });
  const alice = await createMember(db, alpha);
  const bob = await createMember(db, beta);
  const now = new Date('2026-11-22T10:00:00Z');

  const leadership = await insertArticle(db, alpha, alice.id, [html(LEADERSHIP)], now);
  const logistics = await insertArticle(db, beta, bob.id, [html(LOGISTICS)], now);
  const noRevision = await insertArticle(db, alpha, alice.id, [], now);
  const submission = await insertArticle(db, alpha, alice.id, [html(GARDENING), html(`${LEADERSHIP}\n\n${LOGISTICS}`)], now);

  t.test('stores a row and compares only with the same community’s other articles', async (t) => {
    const { scanner, calls } = recording(local);
    const row = await runCopyScan(db, scanner, alpha, submission.id, { now });

    t.equal(calls.length, 1);
    t.same(
      calls[0]!.corpus.map((d) => d.id),
      [leadership.id],
      'the other article of alpha only: not itself, not the one without a revision, not beta’s',
    );
    t.match(calls[0]!.text, /distributed team/, 'the current revision, as plain text');
    t.notMatch(calls[0]!.text, /Tomatoes|<p>/);

    const leadershipAlone = local.scanSync({ text: LEADERSHIP, corpus: [] });
    t.equal(row.identical_words, leadershipAlone.totalWords! - leadershipAlone.totalExcluded!, 'the leadership part, word for word');
    t.equal(row.minor_changed_words, 0);
    t.equal(row.related_meaning_words, 0, 'the logistics part lives in another community');
    t.match(row, {
      community_id: alpha.id,
      article_id: submission.id,
      revision_id: submission.revisionIds[1],
      status: 'COMPLETED',
      export_id: null,
      ai_probability: null,
    });
    t.ok(row.aggregated_score! > 40 && row.aggregated_score! < 70, `score ${row.aggregated_score}`);
    t.equal(row.created_at.getTime(), now.getTime());
    t.equal(row.updated_at.getTime(), now.getTime());

    const stored = await db.selectFrom('copy_scans').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    t.same(copyScanView(stored), copyScanView(row));
  });

  t.test('the client view has the spec’s fields', async (t) => {
    const row = await runCopyScan(db, local, alpha, leadership.id, { now });
    const view = copyScanView(row);
    t.same(Object.keys(view).sort(), [
      'aggregatedScore',
      'aiProbability',
      'createdAt',
      'exportId',
      'id',
      'identicalWords',
      'minorChangedWords',
      'relatedMeaningWords',
      'status',
      'totalExcluded',
      'totalWords',
      'updatedAt',
    ]);
    t.equal(view.status, 'COMPLETED');
    t.equal(view.identicalWords, view.totalWords! - view.totalExcluded!, 'its whole text is in the submission, word for word');
    t.equal(view.aggregatedScore, 100);
    t.equal(view.aiProbability, null);
  });

  t.test('another community’s article is not found', async (t) => {
    await t.rejects(runCopyScan(db, local, beta, submission.id, { now }), { code: 'NotFound' });
    await t.rejects(runCopyScan(db, local, alpha, logistics.id, { now }), { code: 'NotFound' });
    await t.rejects(runCopyScan(db, local, alpha, noRevision.id, { now }), { code: 'NotFound' });
  });

  t.test('a failing scanner stores a FAILED row instead of failing', async (t) => {
    const errors: unknown[] = [];
    const failing: CopyScanner = { scan: async () => Promise.reject(new CopyScanError('HTTP', 'down', { status: 503 })) };
    const row = await runCopyScan(db, failing, alpha, submission.id, { now, onError: (e) => errors.push(e) });
    t.match(row, {
      status: 'FAILED',
      export_id: null,
      identical_words: null,
      minor_changed_words: null,
      related_meaning_words: null,
      aggregated_score: null,
      ai_probability: null,
      total_words: null,
      total_excluded: null,
      revision_id: submission.revisionIds[1],
    });
    t.equal(errors.length, 1);
    t.equal((errors[0] as CopyScanError).status, 503);
  });

  t.test('a pending hosted scan is stored with its export id and no counts', async (t) => {
    const pending: CopyScanner = {
      scan: async (): Promise<ScanReport> => ({
        exportId: 'scan-7',
        status: 'PENDING',
        identicalWords: null,
        minorChangedWords: null,
        relatedMeaningWords: null,
        aggregatedScore: null,
        aiProbability: null,
        totalWords: null,
        totalExcluded: null,
      }),
    };
    const row = await runCopyScan(db, pending, alpha, submission.id, { now });
    t.match(row, { status: 'PENDING', export_id: 'scan-7', identical_words: null, aggregated_score: null });
  });
});

// ---------------------------------------------------------------------------------------------
// The hosted adapter

type Received = { method?: string; url?: string; authorization?: string; contentType?: string; body: unknown };
type Answer = { status: number; body: unknown } | 'hang';

async function fakeService(t: Test, answer: (received: Received) => Answer) {
  const received: Received[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const r: Received = {
      method: req.method,
      url: req.url,
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: text ? JSON.parse(text) : undefined,
    };
    received.push(r);
    const a = answer(r);
    if (a === 'hang') return;
    res.writeHead(a.status, { 'content-type': 'application/json' });
    res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, received };
}

async function scanError(t: Test, promise: Promise<unknown>): Promise<CopyScanError> {
  try {
    await promise;
  } catch (error) {
    t.type(error, CopyScanError);
    return error as CopyScanError;
  }
  t.fail('expected a CopyScanError');
  throw new Error('unreachable');
}

const completed = {
  id: 'scan-123',
  status: 'COMPLETED',
  results: { identical: 40, minorChanged: 5, relatedMeaning: 3, score: 12.345, aiProbability: 0.07, totalWords: 600, totalExcluded: 210 },
};

t.test('the hosted adapter posts the text with the bearer key and maps the answer', async (t) => {
  const service = await fakeService(t, () => ({ status: 200, body: completed }));
  const scanner = new HostedCopyScanner({ baseUrl: service.baseUrl, apiKey: 'key-abc' });
  const report = await scanner.scan({ text: 'Some submitted text', corpus: [{ id: 3, text: 'other' }] });

  t.equal(service.received.length, 1);
  t.match(service.received[0], { method: 'POST', url: '/v1/scans', authorization: 'Bearer key-abc', contentType: 'application/json' });
  t.same(service.received[0]!.body, { text: 'Some submitted text' }, 'the text only, by default');
  t.same(report, {
    exportId: 'scan-123',
    status: 'COMPLETED',
    identicalWords: 40,
    minorChangedWords: 5,
    relatedMeaningWords: 3,
    aggregatedScore: 12.3,
    aiProbability: 0.07,
    totalWords: 600,
    totalExcluded: 210,
  });
});

t.test('the hosted adapter keeps a base path, can send the corpus, and leaves a missing AI probability empty', async (t) => {
  const { aiProbability: _, ...results } = completed.results;
  const service = await fakeService(t, () => ({ status: 201, body: { ...completed, id: 99, results } }));
  const scanner = new HostedCopyScanner({ baseUrl: `${service.baseUrl}/api/`, apiKey: 'k', includeCorpus: true });
  const report = await scanner.scan({ text: 'text', corpus: [{ id: 3, text: 'other' }] });
  t.equal(service.received[0]!.url, '/api/v1/scans');
  t.same(service.received[0]!.body, { text: 'text', corpus: [{ id: 3, text: 'other' }] });
  t.equal(report.exportId, '99');
  t.equal(report.aiProbability, null);
});

t.test('the hosted adapter reports a pending scan so the caller can store it', async (t) => {
  const service = await fakeService(t, () => ({ status: 202, body: { id: 'scan-9', status: 'PENDING' } }));
  const report = await new HostedCopyScanner({ baseUrl: service.baseUrl, apiKey: 'k' }).scan({ text: 'text', corpus: [] });
  t.same(report, {
    exportId: 'scan-9',
    status: 'PENDING',
    identicalWords: null,
    minorChangedWords: null,
    relatedMeaningWords: null,
    aggregatedScore: null,
    aiProbability: null,
    totalWords: null,
    totalExcluded: null,
  });
});

t.test('the hosted adapter turns a 500 into a CopyScanError with the status', async (t) => {
  const service = await fakeService(t, () => ({ status: 500, body: { error: 'boom' } }));
  const error = await scanError(t, new HostedCopyScanner({ baseUrl: service.baseUrl, apiKey: 'k' }).scan({ text: 'text', corpus: [] }));
  t.equal(error.code, 'HTTP');
  t.equal(error.status, 500);
});

t.test('the hosted adapter gives up after its timeout with a CopyScanError', async (t) => {
  const service = await fakeService(t, () => 'hang');
  const error = await scanError(t, new HostedCopyScanner({ baseUrl: service.baseUrl, apiKey: 'k', timeoutMs: 100 }).scan({ text: 'text', corpus: [] }));
  t.equal(error.code, 'TIMEOUT');
  t.equal(error.status, null);
});

t.test('the hosted adapter refuses an answer of another shape', async (t) => {
  const answers: Answer[] = [
    { status: 200, body: 'not json' },
    { status: 200, body: { id: 'x', status: 'COMPLETED' } },
    { status: 200, body: { id: 'x', status: 'EXPLODED', results: completed.results } },
    { status: 200, body: { ...completed, results: { ...completed.results, score: 'high' } } },
  ];
  let i = 0;
  const service = await fakeService(t, () => answers[i++]!);
  const scanner = new HostedCopyScanner({ baseUrl: service.baseUrl, apiKey: 'k' });
  for (let n = 0; n < answers.length; n++) {
    const error = await scanError(t, scanner.scan({ text: 'text', corpus: [] }));
    t.equal(error.code, 'INVALID_RESPONSE');
    t.equal(error.status, 200);
  }
});

t.test('an unreachable hosted service is a CopyScanError too', async (t) => {
  const error = await scanError(t, new HostedCopyScanner({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', timeoutMs: 2000 }).scan({ text: 'text', corpus: [] }));
  t.equal(error.code, 'NETWORK');
  t.equal(error.status, null);
});

t.test('a scan the hosted service answered PENDING is asked for again by the job until it is done', async (t) => {
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha' });
  const alice = await createMember(db, alpha);
  const now = new Date('2026-11-22T10:00:00Z');
  const article = await insertArticle(db, alpha, alice.id, [html(GARDENING)], now);
  const older = await insertArticle(db, alpha, alice.id, [html(LEADERSHIP)], now);

  let pollAnswer: Answer = { status: 200, body: { id: 'scan-1', status: 'PENDING' } };
  const service = await fakeService(t, (r) => {
    if (r.method === 'POST') return { status: 202, body: { id: r.body && (r.body as { text: string }).text.startsWith('Leading') ? 'scan-old' : 'scan-1', status: 'PENDING' } };
    return r.url === '/v1/scans/scan-old' ? { status: 200, body: { id: 'scan-old', status: 'PENDING' } } : pollAnswer;
  });
  const scanner = new HostedCopyScanner({ baseUrl: service.baseUrl, apiKey: 'key-p' });
  const pending = await runCopyScan(db, scanner, alpha, article.id, { now });
  const stale = await runCopyScan(db, scanner, alpha, older.id, { now: new Date(now.getTime() - 25 * 60 * 60 * 1000) });
  t.match(pending, { status: 'PENDING', export_id: 'scan-1' });

  t.same(await refreshPendingScans(db, scanner, { now, budgetMs: -1 }), [stale.id], 'pending for over a day: given up without asking, even with no time left to ask');
  t.same(service.received.filter((r) => r.method === 'GET'), [], 'out of time: nothing asked');
  t.same(await refreshPendingScans(db, scanner, { now }), [], 'still pending: left for the next run');
  t.match(service.received.filter((r) => r.method === 'GET'), [{ url: '/v1/scans/scan-1', authorization: 'Bearer key-p' }]);
  t.match(await db.selectFrom('copy_scans').selectAll().where('id', '=', stale.id).executeTakeFirstOrThrow(), { status: 'FAILED', identical_words: null });

  pollAnswer = { status: 500, body: { error: 'busy' } };
  const errors: unknown[] = [];
  t.same(await refreshPendingScans(db, scanner, { now, onError: (e) => errors.push(e) }), [], 'a failed poll changes nothing');
  t.equal((errors[0] as CopyScanError).status, 500);

  pollAnswer = { status: 200, body: { ...completed, id: 'scan-1' } };
  const later = new Date(now.getTime() + 60_000);
  t.same(await refreshPendingScans(db, scanner, { now: later }), [pending.id]);
  const done = await db.selectFrom('copy_scans').selectAll().where('id', '=', pending.id).executeTakeFirstOrThrow();
  t.match(copyScanView(done), { status: 'COMPLETED', identicalWords: 40, aggregatedScore: 12.3, aiProbability: 0.07, totalWords: 600, totalExcluded: 210, updatedAt: later });
  t.same(await refreshPendingScans(db, scanner, { now: later }), [], 'nothing left to ask for');
  t.same(await refreshPendingScans(db, new LocalCopyScanner(), { now: later }), [], 'the local scanner never leaves a scan pending');
});
