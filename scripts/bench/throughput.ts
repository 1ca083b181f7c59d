// Requests per second and latency of a signed-in page and of a bare route, on the load app.
import { HOST, LOAD, cannon, get, isSignedInPage, latencyOf, serverOf, statusCounts, type BenchModule, type Latency } from './lib.ts';

const THROUGHPUT_TARGETS = [
  { label: 'Home, signed in  /', path: '/', signedIn: true },
  { label: 'Bare route  /health/live', path: '/health/live', signedIn: false },
];

export type ThroughputResult = {
  target: string;
  path: string;
  signedIn: boolean;
  requestsPerSecond: number;
  totalRequests: number;
  latencyMs: Latency;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
  warnings: string[];
};

async function throughput(port: number, cookie: string, target: { label: string; path: string; signedIn: boolean }): Promise<ThroughputResult> {
  const url = `http://${HOST}:${port}${target.path}`;
  const headers: Record<string, string> = { accept: 'text/html' };
  if (target.signedIn) headers.cookie = cookie;
  // Check once that the target answers what we mean to measure (200; signed in when it should be).
  const warnings: string[] = [];
  const check = await get(port, target.path, headers);
  if (check.status !== 200) warnings.push(`answered ${check.status} before the load`);
  if (target.signedIn && !isSignedInPage(check.body.toString('utf8'))) warnings.push('did not render signed in before the load');
  await cannon(url, LOAD.warmupSeconds, headers);
  const r = await cannon(url, LOAD.durationSeconds, headers);
  return {
    target: target.label,
    path: target.path,
    signedIn: target.signedIn,
    requestsPerSecond: Math.round(r.requests.average),
    totalRequests: r.requests.total,
    latencyMs: latencyOf(r),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: statusCounts(r),
    durationSeconds: r.duration,
    warnings,
  };
}


export const throughputModule: BenchModule = {
  name: 'throughput',
  scope: 'server',
  describe: `load on ${THROUGHPUT_TARGETS.map((t) => t.path).join(' and ')}: ${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s each, ${LOAD.connections} connections`,
  async run(ctx) {
    const { info } = serverOf(ctx);
    const results: ThroughputResult[] = [];
    for (const t of THROUGHPUT_TARGETS) results.push(await throughput(info.loadPort, info.cookie, t));
    return {
      data: results,
      warnings: results.flatMap((t) => t.warnings.map((w) => `${t.target}: ${w}`)),
      sections: [
        {
          key: 'throughput',
          title:
            `Throughput (production mode; autocannon in the bench process, server in a child process; ${LOAD.connections} connections, ` +
            `${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s per target; 127.0.0.1)`,
          head: ['target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'failures'],
          rows: results.map((t) => {
            const bad = t.non2xx + t.errors + t.timeouts;
            return [
              t.target,
              String(t.requestsPerSecond),
              String(t.latencyMs.p50),
              String(t.latencyMs.p99),
              String(t.totalRequests),
              bad ? `${t.non2xx} non-2xx, ${t.errors} errors, ${t.timeouts} timeouts` : 'none',
            ];
          }),
          right: [false, true, true, true, true, false],
        },
      ],
    };
  },
};
