// The local copy scanner (LocalCopyScanner) in the bench process, against communities of growing size.
import { LocalCopyScanner } from '#src/features/articles/index.ts';
import { percentile, type BenchModule } from './lib.ts';

const COPY_SCAN = { corpusSizes: [100, 1000, 3000], corpusWords: 700, submissionWords: 800, copiedWords: 120, samples: 3 };
type CopyScanTiming = { articles: number; corpusWords: number; medianMs: number; maxMs: number; identicalWords: number | null };

/**
 * The local scanner (`LocalCopyScanner`) in this process: one 800-word submission holding a 120-word
 * passage copied from the first article, against communities of 100, 1000 and 3000 other articles of
 * 700 words (a seeded made-up vocabulary of 6000 words, drawn with a Zipf-like skew as prose is). The
 * submit waits for this; reading the articles from the database is not included.
 */
export async function measureCopyScan(): Promise<CopyScanTiming[]> {
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'ber', 'dan', 'gor', 'hal', 'jin', 'mar', 'pel', 'quo', 'ren', 'sul', 'tar', 'wen'];
  const vocabulary = Array.from({ length: 6000 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  const word = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(random() * Math.log(vocabulary.length))) - 1)]!;
  const prose = (n: number) => Array.from({ length: n }, (_, i) => word() + (i % 14 === 13 ? '.' : '')).join(' ');
  const scanner = new LocalCopyScanner();
  const results: CopyScanTiming[] = [];
  for (const articles of COPY_SCAN.corpusSizes) {
    const corpus = Array.from({ length: articles }, (_, i) => ({ id: i + 1, text: prose(COPY_SCAN.corpusWords) }));
    const half = (COPY_SCAN.submissionWords - COPY_SCAN.copiedWords) / 2;
    const text = `${prose(half)} ${corpus[0]!.text.split(' ').slice(100, 100 + COPY_SCAN.copiedWords).join(' ')} ${prose(half)}`;
    const ms: number[] = [];
    let identicalWords: number | null = null;
    for (let i = 0; i < COPY_SCAN.samples; i++) {
      const t = performance.now();
      identicalWords = (await scanner.scan({ text, corpus })).identicalWords;
      ms.push(performance.now() - t);
    }
    results.push({ articles, corpusWords: articles * COPY_SCAN.corpusWords, medianMs: Math.round(percentile(ms, 50)), maxMs: Math.round(Math.max(...ms)), identicalWords });
  }
  return results;
}


export const copyScanModule: BenchModule = {
  name: 'copy-scan',
  scope: 'process',
  describe: `copy scan: the local scanner against ${COPY_SCAN.corpusSizes.join(', ')} articles`,
  async run() {
    const results = await measureCopyScan();
    return {
      data: results,
      warnings: [],
      sections: [
        {
          key: 'copy-scan',
          title:
            `Copy scan (the local scanner in the bench process: a ${COPY_SCAN.submissionWords}-word submission with ${COPY_SCAN.copiedWords} words copied from one article, ` +
            `against the community's other articles of ${COPY_SCAN.corpusWords} words; ${COPY_SCAN.samples} runs each; reading them from the database not included)`,
          head: ['articles', 'corpus words', 'median ms', 'max ms', 'identical words found'],
          rows: results.map((c) => [String(c.articles), String(c.corpusWords), String(c.medianMs), String(c.maxMs), String(c.identicalWords ?? '–')]),
          right: [true, true, true, true, true],
        },
      ],
    };
  },
};
