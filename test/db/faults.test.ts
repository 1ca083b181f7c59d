import net from 'node:net';
import t from 'tap';
import { buildApp } from '#src/app.ts';
import { createDatabase } from '#src/db/index.ts';
import { isDatabaseUnavailable } from '#src/db/faults.ts';
import { testConfig } from '#test/helpers/app.ts';

const UNAVAILABLE = 'The service is briefly unavailable. Please try again in a few seconds.';

/** A port on 127.0.0.1 where nothing listens: connections to it are refused. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

t.test('errors that mean the database is out of reach, and errors that do not', async (t) => {
  const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  t.ok(isDatabaseUnavailable(pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')), 'refused connection');
  t.ok(isDatabaseUnavailable(pgError('57P01', 'terminating connection due to administrator command')), 'admin_shutdown');
  t.ok(isDatabaseUnavailable(pgError('57P03', 'the database system is starting up')), 'cannot_connect_now');
  t.ok(isDatabaseUnavailable(pgError('08006')), 'connection failure (class 08)');
  t.ok(isDatabaseUnavailable(new Error('Connection terminated unexpectedly')), 'connection terminated');
  t.ok(isDatabaseUnavailable(pgError('55000', 'database "community" is not currently accepting connections')), 'connections refused for a moment (a restart, maintenance)');
  t.ok(isDatabaseUnavailable(new Error('wrapped', { cause: pgError('ECONNRESET') })), 'a wrapped cause');
  t.ok(isDatabaseUnavailable(new AggregateError([pgError('ECONNREFUSED')], 'all attempts failed')), 'an AggregateError of refusals');
  t.notOk(isDatabaseUnavailable(pgError('23505', 'duplicate key value violates unique constraint')), 'a unique violation is the query’s own');
  t.notOk(isDatabaseUnavailable(pgError('22021', 'invalid byte sequence for encoding "UTF8": 0x00')), 'a bad byte is the input’s');
  t.notOk(isDatabaseUnavailable(new TypeError('x is undefined')), 'a bug is a bug');
});

t.test('with the database out of reach the app answers 503, never 500, and stays live', async (t) => {
  const { db } = await createDatabase({ kind: 'postgres', url: `postgres://postgres@127.0.0.1:${await closedPort()}/nowhere`, poolSize: 2 });
  const app = await buildApp({ config: testConfig({ DEFAULT_COMMUNITY: 'alpha' }), db, ownsDb: true });
  t.teardown(() => app.close());

  const ready = await app.inject({ url: '/health/ready' });
  t.equal(ready.statusCode, 503, '/health/ready: 503');
  t.same(ready.json(), { status: 'unavailable', database: 'unreachable' });
  t.equal((await app.inject({ url: '/health/live' })).statusCode, 200, '/health/live: still 200');

  const page = await app.inject({ url: '/', headers: { accept: 'text/html' } });
  t.equal(page.statusCode, 503, 'a page: 503');
  t.match(page.headers['content-type'], /text\/html/, 'as an HTML error page');
  t.match(page.body, UNAVAILABLE);
  t.match(page.body, 'Try again');
  t.equal(page.headers['retry-after'], '5', 'with Retry-After');

  const rest = await app.inject({ url: '/rest/admin/available-communities', headers: { accept: 'application/json' } });
  t.equal(rest.statusCode, 503, 'a REST call: 503');
  t.same(rest.json(), { error: { code: 'ServiceUnavailable.Database', message: UNAVAILABLE } });

  const gql = await app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload: { query: '{ __typename }' } });
  t.equal(gql.statusCode, 503, 'GraphQL: 503');
  t.equal(gql.json().error?.code ?? gql.json().errors?.[0]?.extensions?.code, 'ServiceUnavailable.Database');
});
