// The articles: the autosave round trip under AUTOSAVE.editors concurrent editors (GraphQL
// articleAutoSaveRevision), and the steps the pages module takes before the editor pages
// (prepareArticlePage: accept the product agreement, save a draft).
import http from 'node:http';
import {
  AUTOSAVE,
  graphqlHeaders,
  percentile,
  post,
  round1,
  serverOf,
  sharedCsrf,
  sqlQueries,
  type BenchModule,
  type CsrfPair,
  type Response,
} from './lib.ts';

/** The mutation the editor island sends (the issue's text). */
const AUTOSAVE_MUTATION =
  'mutation($id: ID, $t: String!, $c: String!) { articleAutoSaveRevision(articleId: $id, title: $t, content: $c) { id status } }';

/** About 500 common English words: a draft made of them gzips about as well as prose (2.1–2.2 : 1). */
const DRAFT_WORDS = `
the of and to a in is it you that he was for on are with as his they be at one have this from or had by not word but what some we can out other were
all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see
him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find any new
work part take get place made live where after back little only round man year came show every good me give our under name very through just form
sentence great think say help low line differ turn cause much mean before move right boy old too same tell does set three want air well also play
small end put home read hand port large spell add even land here must big high such follow act why ask men change went light kind off need house
picture try us again animal point mother world near build self earth father head stand own page should country found answer school grow study still
learn plant cover food sun four between state keep eye never last let thought city tree cross farm hard start might story saw far sea draw left late
run while press close night real life few north open seem together next white children begin got walk example ease paper group always music those both
mark often letter until mile river car feet care second book carry took science eat room friend began idea fish mountain stop once base hear horse cut
sure watch color face wood main enough plain girl usual young ready above ever red list though feel talk bird soon body dog family direct pose leave
song measure door product black short numeral class wind question happen complete ship area half rock order fire south problem piece told knew pass
since top whole king space heard best hour better true during hundred five remember step early hold west ground interest reach fast verb sing listen
six table travel less morning ten simple several vowel toward war lay against pattern slow center love person money serve appear road map rain rule
govern pull cold notice voice unit power town fine certain fly fall lead cry dark machine note wait plan figure star box noun field rest correct able
pound done beauty drive stood contain front teach week final gave green oh quick develop ocean warm free minute strong special mind behind clear tail
produce fact street inch multiply nothing course stay wheel full force blue object decide surface deep moon island foot system busy test record boat
common gold possible plane stead dry wonder laugh thousand ago ran check game shape equate hot miss brought heat snow tire bring yes distant fill east
paint language among`.split(/\s+/).filter(Boolean);

/**
 * About `words` words of rich text in paragraphs of 100 words, different for every (editor, save): the
 * words are picked by a small generator seeded from both, and the first paragraph names the save.
 */
export function draftContent(editor: number, save: number, words = AUTOSAVE.words): string {
  let x = (editor * 7919 + save * 104_729 + 1) >>> 0;
  const next = () => {
    x = (Math.imul(x, 1_664_525) + 1_013_904_223) >>> 0;
    return DRAFT_WORDS[(x >>> 8) % DRAFT_WORDS.length]!; // the high bits: an LCG's low bits repeat quickly
  };
  const paragraphs: string[] = [];
  for (let p = 0; p * 100 < words; p++) {
    const n = Math.min(100, words - p * 100);
    const w = Array.from({ length: n }, next);
    if (p === 0) w.splice(0, 4, 'Draft', `${editor + 1},`, 'save', `${save}:`);
    if (p === 1) w[0] = `<strong>${w[0]}</strong>`;
    paragraphs.push(`<p>${w.join(' ')}.</p>`);
  }
  return paragraphs.join('');
}


export const autosaveBody = (articleId: string | null, title: string, content: string) =>
  JSON.stringify({ query: AUTOSAVE_MUTATION, variables: { id: articleId, t: title, c: content } });

export type AutosaveOutcome = { ok: true; id: string; status: string } | { ok: false; reason: string };

/** A save succeeded when it answers 200 with `data.articleAutoSaveRevision.id` and no `errors`. */
export function autosaveOutcome(res: Response): AutosaveOutcome {
  let json: { data?: { articleAutoSaveRevision?: { id?: unknown; status?: unknown } | null } | null; errors?: { message?: string; extensions?: { code?: unknown } }[] };
  try {
    json = JSON.parse(res.body.toString('utf8')) as typeof json;
  } catch {
    return { ok: false, reason: `HTTP ${res.status}, not JSON` };
  }
  if (json.errors?.length) {
    const e = json.errors[0]!;
    return { ok: false, reason: `HTTP ${res.status}, GraphQL error ${String(e.extensions?.code ?? '')}: ${e.message ?? ''}`.trim() };
  }
  const saved = json.data?.articleAutoSaveRevision;
  if (res.status !== 200 || !saved || saved.id === undefined || saved.id === null) return { ok: false, reason: `HTTP ${res.status} without data.articleAutoSaveRevision.id` };
  return { ok: true, id: String(saved.id), status: String(saved.status) };
}

/** SQL statements of one autosave, from the probe app's Server-Timing. */
export type AutosaveSql = { firstSaveCreatingTheArticle: number | null; save: number | null };

/**
 * Before an articles page is measured, as the demo member: 'accept-agreement' posts the product
 * agreement's form (POST /articles/agreement, acknowledge=on and the CSRF token), as a member does;
 * 'save-draft' autosaves a draft of AUTOSAVE.words words over GraphQL, as the editor island does:
 * once without an article id (which creates the article), then once more with it, counting the SQL
 * statements of each. Returns what went wrong, for the page's warnings.
 */
export async function prepareArticlePage(
  port: number,
  cookie: string,
  csrf: CsrfPair,
  step: 'accept-agreement' | 'save-draft',
): Promise<{ warnings: string[]; autosaveSql?: AutosaveSql; articleId?: string }> {
  if (step === 'accept-agreement') {
    const res = await post(port, '/articles/agreement', new URLSearchParams({ acknowledge: 'on', _csrf: csrf.token }).toString(), {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `${cookie}; ${csrf.cookie}`,
    });
    const location = String(res.headers.location ?? '');
    const ok = res.status === 303 && location.endsWith('/articles/edit');
    return { warnings: ok ? [] : [`POST /articles/agreement answered ${res.status}${location ? ` → ${location}` : ''}, not 303 → /articles/edit`] };
  }
  const title = 'What a council taught me about growth';
  const first = await post(port, '/graphql', autosaveBody(null, title, draftContent(0, 0)), graphqlHeaders(cookie, csrf));
  const created = autosaveOutcome(first);
  if (!created.ok) return { warnings: [`saving the draft failed: ${created.reason}`] };
  const again = await post(port, '/graphql', autosaveBody(created.id, title, draftContent(0, 1)), graphqlHeaders(cookie, csrf));
  const saved = autosaveOutcome(again);
  return {
    warnings: saved.ok ? [] : [`saving the draft again failed: ${saved.reason}`],
    autosaveSql: { firstSaveCreatingTheArticle: sqlQueries(first), save: sqlQueries(again) },
    articleId: created.id,
  };
}

type AutosaveResult = {
  path: string;
  editors: number;
  editorsCreated: number;
  words: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Saves that succeeded in the measured seconds, per second. */
  savesPerSecond: number;
  /** Saves answered in the measured seconds: succeeded + failed. */
  totalSaves: number;
  succeeded: number;
  failed: number;
  /** The first failure of each kind, with its count. */
  failures: Record<string, number>;
  /** Round trip of every save answered in the measured seconds (failures included), client side. */
  latencyMs: { p50: number; p95: number; p99: number; max: number; mean: number };
  requestBytes: { min: number; max: number };
  /** The articles created by each editor's first save (before the load), and the failures there. */
  setup: { articlesCreated: number; failures: string[] };
  warnings: string[];
};

/**
 * The autosave round trip under AUTOSAVE.editors concurrent editors: each editor (its own member,
 * session and keep-alive connection) first saves once without an article id (the first autosave
 * creates the article), then saves its article again and again, a new text every time, the next save
 * leaving as soon as the previous one answers. Warm-up, then the measured seconds: only saves
 * answered within them count.
 */
async function autosaveLoad(port: number, cookies: string[], editorsCreated: number, csrf: CsrfPair): Promise<AutosaveResult> {
  const warnings: string[] = [];
  const agents = cookies.map(() => new http.Agent({ keepAlive: true, maxSockets: 1 }));
  const setupFailures: string[] = [];
  try {
    // Each editor's first save creates its article (sequentially, so the setup is not part of the load).
    const articleIds: (string | null)[] = [];
    for (const [i, cookie] of cookies.entries()) {
      const res = await post(port, '/graphql', autosaveBody(null, `Bench draft ${i + 1}`, draftContent(i, 0)), graphqlHeaders(cookie, csrf), agents[i]!).catch(
        (e: Error) => ({ status: 0, headers: {}, body: Buffer.from(JSON.stringify({ errors: [{ message: e.message }] })) }) as Response,
      );
      const outcome = autosaveOutcome(res);
      articleIds.push(outcome.ok ? outcome.id : null);
      if (!outcome.ok) setupFailures.push(`editor ${i + 1}: ${outcome.reason}`);
    }
    if (setupFailures.length) warnings.push(`${setupFailures.length} of ${cookies.length} editors could not create their article: ${setupFailures[0]}`);
    if (new Set(articleIds.filter(Boolean)).size !== articleIds.filter(Boolean).length) warnings.push('two editors were given the same article');

    const latencies: number[] = [];
    const failures: Record<string, number> = {};
    let succeeded = 0;
    let minBytes = Infinity;
    let maxBytes = 0;
    const t0 = performance.now();
    const measureFrom = t0 + AUTOSAVE.warmupSeconds * 1000;
    const stopAt = measureFrom + AUTOSAVE.durationSeconds * 1000;
    const editorLoop = async (i: number) => {
      const id = articleIds[i];
      if (!id) return;
      for (let save = 1; performance.now() < stopAt; save++) {
        const body = autosaveBody(id, `Bench draft ${i + 1}`, draftContent(i, save));
        const started = performance.now();
        let outcome: AutosaveOutcome;
        try {
          outcome = autosaveOutcome(await post(port, '/graphql', body, graphqlHeaders(cookies[i]!, csrf), agents[i]!));
        } catch (e) {
          outcome = { ok: false, reason: `request failed: ${(e as Error).message}` };
        }
        const ended = performance.now();
        if (ended < measureFrom || ended > stopAt) continue;
        const bytes = Buffer.byteLength(body);
        minBytes = Math.min(minBytes, bytes);
        maxBytes = Math.max(maxBytes, bytes);
        latencies.push(ended - started);
        if (outcome.ok) succeeded++;
        else failures[outcome.reason] = (failures[outcome.reason] ?? 0) + 1;
      }
    };
    await Promise.all(cookies.map((_, i) => editorLoop(i)));
    const failed = latencies.length - succeeded;
    if (failed) warnings.push(`${failed} saves failed: ${Object.entries(failures).map(([k, v]) => `${v} × ${k}`).join('; ')}`);
    if (!latencies.length) warnings.push('no save was answered in the measured seconds');
    const pct = (p: number) => (latencies.length ? round1(percentile(latencies, p)) : 0);
    return {
      path: '/graphql',
      editors: cookies.length,
      editorsCreated,
      words: AUTOSAVE.words,
      warmupSeconds: AUTOSAVE.warmupSeconds,
      durationSeconds: AUTOSAVE.durationSeconds,
      savesPerSecond: round1(succeeded / AUTOSAVE.durationSeconds),
      totalSaves: latencies.length,
      succeeded,
      failed,
      failures,
      latencyMs: {
        p50: pct(50),
        p95: pct(95),
        p99: pct(99),
        max: latencies.length ? round1(Math.max(...latencies)) : 0,
        mean: latencies.length ? round1(latencies.reduce((a, b) => a + b, 0) / latencies.length) : 0,
      },
      requestBytes: { min: Number.isFinite(minBytes) ? minBytes : 0, max: maxBytes },
      setup: { articlesCreated: articleIds.filter(Boolean).length, failures: setupFailures },
      warnings,
    };
  } finally {
    for (const a of agents) a.destroy();
  }
}


export const autosaveModule: BenchModule = {
  name: 'autosave',
  scope: 'server',
  describe: `autosave: ${AUTOSAVE.editors} editors at once, POST /graphql articleAutoSaveRevision (~${AUTOSAVE.words} words): ${AUTOSAVE.warmupSeconds} s warm-up + ${AUTOSAVE.durationSeconds} s`,
  async run(ctx) {
    const { info } = serverOf(ctx);
    const a = await autosaveLoad(info.loadPort, info.editorCookies, info.editorsCreated, await sharedCsrf(ctx, 'load'));
    return {
      data: a,
      warnings: a.warnings,
      sections: [
        {
          key: 'autosave',
          title:
            `Autosave (POST /graphql articleAutoSaveRevision, ${AUTOSAVE.editors} editors at once, each its own member, session, article and keep-alive connection, ` +
            `~${AUTOSAVE.words} words that change on every save, the next save as soon as the last answers; ${AUTOSAVE.warmupSeconds} s warm-up then ${AUTOSAVE.durationSeconds} s)`,
          head: ['editors', 'saves/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'saves', 'failed'],
          rows: [
            [
              String(a.editors),
              String(a.savesPerSecond),
              String(a.latencyMs.p50),
              String(a.latencyMs.p95),
              String(a.latencyMs.p99),
              String(a.latencyMs.max),
              String(a.totalSaves),
              String(a.failed),
            ],
          ],
          right: [true, true, true, true, true, true, true, true],
          notes: [
            `failed: answered other than 200 with data.articleAutoSaveRevision.id and no "errors" (or no answer). Request bodies ${a.requestBytes.min}–${a.requestBytes.max} bytes; ` +
              `${a.editors - a.editorsCreated} demo members + ${a.editorsCreated} made for the bench.`,
          ],
        },
      ],
    };
  },
};
