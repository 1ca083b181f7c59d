import t from 'tap';
import { ConfigError, DEVELOPMENT_SECRET, loadConfig } from '#src/config.ts';

t.test('the defaults serve on port 3000 with PGlite under ./data and no path prefix', async (t) => {
  const c = loadConfig({});
  t.equal(c.port, 3000);
  t.equal(c.host, 'localhost');
  t.equal(c.databaseUrl, undefined);
  t.equal(c.dataDir, './data');
  t.equal(c.basePath, '');
  t.equal(c.publicUrl, 'http://localhost:3000');
  t.equal(c.env, 'development');
  t.ok(Object.isFrozen(c));
});

t.test('PORT, HOST, DATABASE_URL, BASE_PATH and PUBLIC_URL are honoured', async (t) => {
  const c = loadConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: 'postgres://u@db:5432/app', BASE_PATH: '/v2', PUBLIC_URL: 'https://x.example.com/' });
  t.equal(c.port, 8080);
  t.equal(c.host, '0.0.0.0');
  t.equal(c.databaseUrl, 'postgres://u@db:5432/app');
  t.equal(c.basePath, '/v2');
  t.equal(c.publicUrl, 'https://x.example.com');
});

t.test('a bad value stops the start with one readable line naming the variable', async (t) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ BASE_PATH: 'v2/' }, 'BASE_PATH'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ COOKIE_SECRET: 'short' }, 'COOKIE_SECRET'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
  ];
  for (const [env, name] of cases) {
    const error = t.throws(() => loadConfig(env)) as unknown as Error;
    t.type(error, ConfigError);
    t.match(error.message, new RegExp(`^Configuration error: ${name} `), `names ${name}`);
    t.notMatch(error.message, /\n/, 'one line');
  }
});

t.test('production refuses the development secret, and never echoes a secret', async (t) => {
  const error = t.throws(() => loadConfig({ NODE_ENV: 'production' })) as unknown as Error;
  t.match(error.message, 'COOKIE_SECRET');
  t.notMatch(error.message, DEVELOPMENT_SECRET);
  const ok = loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: 'a-production-secret-of-sufficient-length-42', PAYMENT_PROCESSOR: 'sandbox' });
  t.equal(ok.isProduction, true);
  const short = t.throws(() => loadConfig({ COOKIE_SECRET: 'hunter2' })) as unknown as Error;
  t.notMatch(short.message, 'hunter2');
});

t.test('production does not take test cards unasked: PAYMENT_PROCESSOR must be named there', async (t) => {
  const secret = 'a-production-secret-of-sufficient-length-42';
  const error = t.throws(() => loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: secret })) as unknown as Error;
  t.type(error, ConfigError);
  t.match(error.message, /^Configuration error: PAYMENT_PROCESSOR must be set in production/);
  t.notMatch(error.message, /\n/, 'one line');
  t.equal(loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: secret, PAYMENT_PROCESSOR: 'sandbox' }).payments.processor, 'sandbox', 'the sandbox asked for by name');
  const maxio = { PAYMENT_PROCESSOR: 'maxio', MAXIO_URL: 'https://{subDomain}.example.test', MAXIO_API_KEY: 'key', PAYMENT_SIGNING_SECRET: 'x'.repeat(40) };
  t.equal(loadConfig({ NODE_ENV: 'production', COOKIE_SECRET: secret, ...maxio }).payments.processor, 'maxio');
  t.equal(loadConfig({}).payments.processor, 'sandbox', 'development: the sandbox by default');
  t.equal(loadConfig({ NODE_ENV: 'test' }).payments.processor, 'sandbox', 'tests: the sandbox by default');
});
