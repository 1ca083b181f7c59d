// Sign-in throughput with the right password. (The wrong-password flood is its own module: flood.ts.)
import { DEMO_MEMBER_PASSWORD } from '#src/features/seed.ts';
import {
  DEMO_MEMBER_EMAIL,
  HOST,
  LOAD,
  latencyOf,
  post,
  round1,
  serverOf,
  sharedCsrf,
  startCannon,
  statusCounts,
  type BenchModule,
  type CsrfPair,
  type Latency,
  type LoadRequest,
} from './lib.ts';

/** The HTML sign-in form's POST: the fields the password step's form sends, with the token and its cookie. */
const signInBody = (csrf: { token: string }, email: string, password: string) => new URLSearchParams({ email, password, _csrf: csrf.token }).toString();
const signInHeaders = (csrf: { cookie: string }) => ({ accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie });

type SignInResult = {
  path: string;
  /** One member per connection, in this order. */
  emails: string[];
  requestsPerSecond: number;
  totalRequests: number;
  latencyMs: Latency;
  signedIn303: number;
  otherStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  durationSeconds: number;
  warnings: string[];
};

/**
 * Item 2 of issue 3: sign-ins per second with the right password, under LOAD.connections concurrent
 * connections, each signing in its own member (as many members signing in at once would): the
 * per-account-and-address limit counts an attempt as it begins, so more than five concurrent sign-ins
 * of one account from one address would trip it.
 */
async function signInThroughput(port: number, csrf: CsrfPair, emails: string[]): Promise<SignInResult> {
  const headers = signInHeaders(csrf);
  const request: LoadRequest = { method: 'POST', headers, bodies: emails.map((e) => signInBody(csrf, e, DEMO_MEMBER_PASSWORD)) };
  const warnings: string[] = [];
  if (emails.length < LOAD.connections) warnings.push(`only ${emails.length} members for ${LOAD.connections} connections: some sign in on two at once`);
  // One sign-in per member before the load, one at a time: each must answer 303 with the session cookies.
  for (const [i, email] of emails.entries()) {
    const check = await post(port, '/login/password', request.bodies![i]!, headers);
    const setsSession = (check.headers['set-cookie'] ?? []).length > 0;
    if (check.status !== 303 || !setsSession) warnings.push(`${email} answered ${check.status}${setsSession ? '' : ' without a cookie'} before the load, not 303 with the session cookies`);
  }
  const url = `http://${HOST}:${port}/login/password`;
  await startCannon(url, LOAD.warmupSeconds, request).done;
  const r = await startCannon(url, LOAD.durationSeconds, request).done;
  const statuses = statusCounts(r);
  const { '303': signedIn303 = 0, ...otherStatuses } = statuses;
  if (Object.keys(otherStatuses).length) warnings.push(`answered other than 303: ${JSON.stringify(otherStatuses)}`);
  return {
    path: '/login/password',
    emails,
    requestsPerSecond: round1(r.requests.average),
    totalRequests: r.requests.total,
    latencyMs: latencyOf(r),
    signedIn303,
    otherStatuses,
    errors: r.errors,
    timeouts: r.timeouts,
    durationSeconds: r.duration,
    warnings,
  };
}

export const signInModule: BenchModule = {
  name: 'sign-in',
  scope: 'server',
  describe: `sign-in: POST /login/password, right password: ${LOAD.warmupSeconds} s warm-up + ${LOAD.durationSeconds} s, ${LOAD.connections} connections`,
  async run(ctx) {
    const { info } = serverOf(ctx);
    const s = await signInThroughput(info.loadPort, await sharedCsrf(ctx, 'load'), info.signInEmails);
    const others = Object.entries(s.otherStatuses).map(([k, v]) => `${v} × ${k}`);
    if (s.errors) others.push(`${s.errors} errors`);
    if (s.timeouts) others.push(`${s.timeouts} timeouts`);
    return {
      data: s,
      warnings: s.warnings,
      sections: [
        {
          key: 'sign-in',
          title:
            `Sign-in (POST /login/password, the HTML form with the right password; ${LOAD.connections} connections, each signing in its own demo member ` +
            `from ${DEMO_MEMBER_EMAIL} on; ${LOAD.warmupSeconds} s warm-up then ${LOAD.durationSeconds} s)`,
          head: ['sign-ins/s', 'p50 ms', 'p99 ms', 'requests', '303', 'other'],
          rows: [[String(s.requestsPerSecond), String(s.latencyMs.p50), String(s.latencyMs.p99), String(s.totalRequests), String(s.signedIn303), others.join(', ') || 'none']],
          right: [true, true, true, true, true, false],
        },
      ],
    };
  },
};
