// GraphQL `{ me { id } }` as a client that is not one of our pages calls it (docs/api.md): signed in
// with JSON at POST /rest/login, then `Authorization: Bearer <authToken>` and no cookie (so no CSRF
// token either). Requests per second and latency, on the load app.
import { DEMO_MEMBER_PASSWORD } from '#src/features/seed.ts';
import { DEMO_MEMBER_EMAIL, HOST, LOAD, latencyOf, post, serverOf, startCannon, statusCounts, type BenchModule, type Latency } from './lib.ts';

const QUERY = JSON.stringify({ query: '{ me { id } }' });

export type BearerResult = {
  requestsPerSecond: number;
  totalRequests: number;
  latencyMs: Latency;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
  memberId: string | null;
  warnings: string[];
};

async function bearerMe(port: number): Promise<BearerResult> {
  const warnings: string[] = [];
  // The client's sign-in: JSON, no cookie, no page loaded first.
  const login = await post(port, '/rest/login', JSON.stringify({ username: DEMO_MEMBER_EMAIL, password: DEMO_MEMBER_PASSWORD }), { accept: 'application/json', 'content-type': 'application/json' });
  if (login.status !== 200) throw new Error(`POST /rest/login answered ${login.status}: ${login.body.toString('utf8').slice(0, 200)}`);
  const token = (JSON.parse(login.body.toString('utf8')) as { authToken?: string }).authToken;
  if (!token) throw new Error('POST /rest/login gave no authToken');
  const headers = { accept: 'application/json', 'content-type': 'application/json', authorization: `Bearer ${token}` };

  // Check once that the call is what we mean to measure: 200 and the member's id (not null, not an error).
  const check = await post(port, '/graphql', QUERY, headers);
  let memberId: string | null = null;
  try {
    const answer = JSON.parse(check.body.toString('utf8')) as { data?: { me?: { id?: string | number } | null }; errors?: { message: string }[] };
    memberId = answer.data?.me?.id != null ? String(answer.data.me.id) : null;
    if (answer.errors?.length) warnings.push(`answered errors before the load: ${answer.errors.map((e) => e.message).join('; ')}`);
  } catch {
    warnings.push('answered something that is not JSON before the load');
  }
  if (check.status !== 200) warnings.push(`answered ${check.status} before the load`);
  if (!memberId) warnings.push('`me` was null before the load: the bearer token did not sign the call in');

  const url = `http://${HOST}:${port}/graphql`;
  const request = { method: 'POST' as const, body: QUERY, headers };
  await startCannon(url, LOAD.warmupSeconds, request).done;
  const r = await startCannon(url, LOAD.durationSeconds, request).done;
  return {
    requestsPerSecond: Math.round(r.requests.average),
    totalRequests: r.requests.total,
    latencyMs: latencyOf(r),
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes: statusCounts(r),
    durationSeconds: r.duration,
    memberId,
    warnings,
  };
}

export const bearerModule: BenchModule = {
  name: 'bearer',
  scope: 'server',
  describe: `GraphQL { me { id } } with a bearer token and no cookie: ${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s, ${LOAD.connections} connections`,
  async run(ctx) {
    const { info } = serverOf(ctx);
    const r = await bearerMe(info.loadPort);
    const bad = r.non2xx + r.errors + r.timeouts;
    return {
      data: r,
      warnings: r.warnings,
      sections: [
        {
          key: 'bearer',
          title:
            `API client: POST /graphql { me { id } } with Authorization: Bearer <authToken> and no cookie (production mode; ${LOAD.connections} connections, ` +
            `${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s; 127.0.0.1)`,
          head: ['req/s', 'p50 ms', 'p99 ms', 'requests', 'failures'],
          rows: [[String(r.requestsPerSecond), String(r.latencyMs.p50), String(r.latencyMs.p99), String(r.totalRequests), bad ? `${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts` : 'none']],
          right: [true, true, true, true, false],
        },
      ],
    };
  },
};
