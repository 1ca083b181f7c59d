import t from 'tap';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { setupDatabase, startApp } from '#test/helpers/app.ts';

/**
 * docs/api.md cannot rot: its `sh` examples run verbatim, in order, as one shell session against a
 * server listening on a port, with the demo data the document's defaults name. Only BASE is given.
 */

const DOC = path.resolve(import.meta.dirname, '../docs/api.md');
const run = promisify(execFile);

/** The shell blocks of a Markdown file, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

t.test('the curl examples of docs/api.md work as written', async (t) => {
  const blocks = shellBlocks(readFileSync(DOC, 'utf8'));
  t.ok(blocks.length >= 8, `the document has its examples (${blocks.length})`);
  t.ok(blocks.every((b) => b.includes('curl') || b.includes('BASE=')), 'each block calls the server (or sets where it is)');

  const db = await setupDatabase(t, { seeded: true });
  const { app } = await startApp(t, db, { env: { DEFAULT_COMMUNITY: 'summit' } });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });

  // One session: TOKEN and REFRESH set by one block are used by the next. Any failing command fails it.
  const script = ['set -euo pipefail', ...blocks.map((b, i) => `printf '\\n--- block ${i + 1}\\n'\n${b}`)].join('\n');
  const { stdout } = await run('bash', ['-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', BASE: address },
    timeout: 60_000,
  }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`the examples failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  });
  const outputs = stdout.split(/^--- block \d+\n/m).slice(1).map((o) => o.trim());
  const of = (snippet: string) => outputs[blocks.findIndex((b) => b.includes(snippet))] ?? '';

  t.same(JSON.parse(of('LOGIN=$(curl')), { displayName: 'Amara Okafor', roles: ['MEMBER'] }, 'the sign-in answers the member');
  t.same(JSON.parse(of('login(username: $u')), { data: { login: { user: { displayName: 'Amara Okafor' }, roles: ['MEMBER'] } } }, 'so does the GraphQL login');
  t.match(JSON.parse(of('/rest/login/one-time"')), { channel: 'EMAIL' }, 'a code is sent');
  t.match(JSON.parse(of('{ me { id email')), { data: { me: { email: 'amara.okafor@summit-demo.example.com', name: { formatted: 'Amara Okafor' }, communityCode: 'summit' } } }, 'the bearer signs the member in on GraphQL');
  const inFlight = JSON.parse(of('articleInFlight'));
  t.ok(inFlight.data && 'articleInFlight' in inFlight.data && !inFlight.errors, 'a GET query with the bearer answers a member’s query');
  t.match(JSON.parse(of('available-communities')), { availableCommunities: [{ code: 'harbor' }, { code: 'admin' }, { code: 'summit' }] }, 'a REST call');
  t.same(JSON.parse(of('PAIR=$(curl -sS --fail-with-body "$BASE/rest/token-refresh"')), { user: 'Amara Okafor', roles: ['MEMBER'] }, 'the refresh answers a pair');
  t.equal(of('/rest/logout').split('\n')[0], 'signed out: 204');
  t.same(JSON.parse(of('/rest/logout').split('\n')[1]!), { data: { me: null } }, 'after sign-out the token signs no one in');
  t.same(JSON.parse(of('| jq -c \'{memberName, outstandingBalance, showNoBalanceDue}\'')), { memberName: 'Jonah Whitaker', outstandingBalance: 600000, showNoBalanceDue: false }, 'the overdue balance');
  t.same(of('CARD_TOKEN=$(curl').split('\n').map((l) => JSON.parse(l)), [true, { outstandingBalance: 0, showNoBalanceDue: false }], 'paid with a sandbox token: nothing owed, just paid');
  t.same(JSON.parse(of('expertQuestions(tab: OPEN')), { open: 2, inReview: 1, answered: 2, published: 1 }, "the member's expert-panel tabs");
  t.equal(of('expertQuestions(filters:'), '3', "the staff's questions board: the open batch's three");
  t.equal(of('memberFeed {'), '2', "the member's feed: the pinned announcement and her group's, unseen");
  t.same(JSON.parse(of('announcements(state: LIVE)')), ['Founders Peer Group: hiring plans session', 'Annual summit: save the date'], "the staff's live announcements");
  t.same(JSON.parse(of('syndicationFeeds {')), ['summit-everything', 'expert-roundups'], "the staff's syndication feeds");
  t.same(of('If-None-Match: $ETAG').split('\n').map((l, i) => (i === 0 ? JSON.parse(l) : l)), [{ title: 'Summit — everything', items: 2 }, '304'], 'a public feed, then 304 with its validator');
  t.same(JSON.parse(of('trackEvent(category')), { data: { trackEvent: true } }, 'trackEvent, as the spec names it');
  t.same(JSON.parse(of('/rest/events"')), { accepted: 2 }, "an app's batch of events");
  t.equal(of('insightSeries(series'), '7', "a week of Harbor's page views, for its admin");
  t.match(JSON.parse(of('graphqlAdmin')), { data: { me: { email: 'admin@example.com', communityCode: 'summit', roles: ['ADMIN', 'MEMBER'] } } }, 'an admin’s bearer on /graphqlAdmin');
  t.same(JSON.parse(of('contentBankSearch(query')), { kind: 'ROUNDUP', title: 'Pricing moves that paid off: three leaders on what changed their revenue', tags: [{ name: 'Finance' }] }, "the content bank's search");
  t.same(JSON.parse(of('/rest/admin/content-bank/assets')), { kind: 'PDF', title: 'Board pack', contentType: 'application/pdf' }, 'an asset uploaded with REST');
});
