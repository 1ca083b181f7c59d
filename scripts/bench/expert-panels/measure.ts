// The expert-panels bench's measures from the bench side: page weight in Chromium, SQL per request and load.
import { isSignedInPage, measurePage, type Latency } from '../lib.ts';
import { weighSignedInPages, type Bytes, type WeighedFile } from '../weight.ts';
import type { Side } from './shared.ts';

export type Weight = { key: string; label: string; path: string; status: number; bytes: Bytes; total: number; files: WeighedFile[]; signedIn: boolean; rowsInHtml: number };

export async function weigh(side: Side): Promise<Weight[]> {
  const pages = [
    { key: 'list', label: 'Questions  /expert-panels', path: '/expert-panels' },
    { key: 'question', label: 'An open question  /expert-panels/{id}', path: `/expert-panels/${side.openQuestion}` },
  ];
  return (await weighSignedInPages(side.probePort, side.cookie, pages)).map(({ html, ...w }) => ({
    ...w,
    signedIn: isSignedInPage(html),
    rowsInHtml: (html.match(/href="\/expert-panels\/\d+"/g) ?? []).length,
  }));
}

// ---- the bench side: SQL and load ----------------------------------------------------------------------

export type Target = { key: string; label: string; path: (s: Side) => string };
export const TARGETS: Target[] = [
  { key: 'list', label: 'Questions, open tab  /expert-panels', path: () => '/expert-panels' },
  { key: 'published', label: 'Questions, published tab', path: () => '/expert-panels?tab=published' },
  { key: 'question', label: 'An open question  /expert-panels/{id}', path: (s) => `/expert-panels/${s.openQuestion}` },
];

export type Measured = { size: number; key: string; label: string; status: number; sql: number | null; requestsPerSecond: number; latencyMs: Latency; failures: string | null };

export async function measure(side: Side, target: Target): Promise<Measured> {
  return { size: side.questions, key: target.key, label: target.label, ...(await measurePage(side, side.cookie, target.path(side))) };
}
