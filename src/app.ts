import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { Config } from './config.ts';
import { systemClock, type Clock } from './core/clock.ts';
import { createTranslator } from './core/i18n.ts';
import { queryCounter, type Db } from './db/index.ts';
import { SessionTokens } from './features/auth/index.ts';
import { CommunityResolver } from './features/communities/index.ts';
import { Assets, STATIC_DIR } from './lib/assets.ts';
import communityPlugin from './plugins/community.ts';
import identityPlugin from './plugins/identity.ts';
import guardianPlugin from './plugins/guardian.ts';
import securityPlugin from './plugins/security.ts';
import compressionPlugin from './plugins/compression.ts';
import renderPlugin from './plugins/render.tsx';
import graphqlPlugin from './features/graphql/plugin.ts';
import jobsPlugin from './plugins/jobs.ts';
import { AREAS } from './features/areas.ts';
import { JobQueue } from './lib/jobs/queue.ts';
import { Sealer } from './lib/jobs/sealed.ts';
import { buildPushServices, Notifier, type PushServices } from './features/notifications/index.ts';
import { Messages } from './lib/messaging/outgoing.ts';
import { HostedCopyScanner, LocalCopyScanner, type CopyScanner } from './features/articles/index.ts';
import { Outbox, OutboxMailer, SmtpMailer, type Mailer } from './lib/messaging/mail.ts';
import { HttpSmsSender, OutboxSms, type SmsSender } from './lib/messaging/sms.ts';
import { buildCardProcessor, type CardProcessor } from './features/payments/index.ts';
import path from 'node:path';
import './plugins/types.ts';

export type AppOptions = {
  config: Config;
  db: Db;
  clock?: Clock;
  /** Close the database when the app closes (the server does; tests share one). */
  ownsDb?: boolean;
  /** Replace the mail or SMS transport (tests of the adapters). */
  mailer?: Mailer;
  sms?: SmsSender;
  /** Replace mobile push and Web Push (tests of the delivery). */
  push?: PushServices;
  copyScanner?: CopyScanner;
  /** Replace the card processor (tests of the adapter against a fake processor). */
  cardProcessor?: CardProcessor;
  /** Run the queue's workers and schedules here (default: config.jobWorkers). */
  jobWorkers?: boolean;
};

/** Builds the whole application on a database that is already migrated. Tests use it directly. */
export async function buildApp({ config, db, clock = systemClock, ownsDb = false, mailer, sms, push, copyScanner, cardProcessor, jobWorkers }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  const base = config.basePath;
  // An empty body is no body: a client that sends `Content-Type: application/json` with nothing after
  // it (spec section 7's payload "none": logout, token-refresh) gets what a body-less request gets,
  // not Fastify's FST_ERR_CTP_EMPTY_JSON_BODY. Anything else is Fastify's own secure parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('clock', clock);
  app.decorate('t', createTranslator('en'));
  app.decorate('communities', new CommunityResolver(db, config.defaultCommunity));
  app.decorate('sessionTokens', new SessionTokens(config.cookieSecret, base, clock));
  app.decorate('assets', new Assets(base, !config.isProduction));
  // Without SMTP_URL (or an SMS provider), messages go to the local outbox: .eml/.txt files under
  // DATA_DIR/outbox (not in tests) and memory, readable at /dev/outbox outside production.
  const outbox = new Outbox(config.env === 'test' ? null : path.resolve(config.dataDir, 'outbox'));
  app.decorate('outbox', outbox);
  // The durable job queue (pg-boss on this database): mail, SMS and timed work survive a crash.
  const jobs = new JobQueue(db, {
    sealer: new Sealer(config.cookieSecret),
    workers: jobWorkers ?? config.jobWorkers,
    onError: (err, context) => app.log.error({ err }, `${context} failed`),
  });
  app.decorate('jobs', jobs);
  app.decorate('messages', new Messages(jobs));
  app.decorate('notifications', new Notifier(jobs));
  if (!config.smtpUrl && config.isProduction) app.log.warn('SMTP_URL is not set: mail goes to the local outbox only');
  app.decorate('mailer', mailer ?? (config.smtpUrl ? new SmtpMailer(config.smtpUrl) : new OutboxMailer(outbox)));
  app.decorate(
    'sms',
    sms ?? (config.sms ? new HttpSmsSender({ baseUrl: config.sms.url, accountSid: config.sms.accountSid, authToken: config.sms.authToken, from: config.sms.from }) : new OutboxSms(outbox)),
  );
  app.decorate('push', push ?? buildPushServices(config, outbox, (message) => app.log.warn(message)));
  // The copy scan: a hosted service when configured, else the local comparison with the community's articles.
  app.decorate('copyScanner', copyScanner ?? (config.copyScan ? new HostedCopyScanner({ baseUrl: config.copyScan.url, apiKey: config.copyScan.apiKey }) : new LocalCopyScanner()));
  // Payments: the sandbox card provider unless PAYMENT_PROCESSOR names the real one (production must
  // name one; the configuration refuses to start otherwise, and the sandbox chosen there is warned of).
  if (config.isProduction && config.payments.processor === 'sandbox' && !cardProcessor) {
    app.log.warn('PAYMENT_PROCESSOR=sandbox in production: the sandbox card processor is on and its test cards (4242 4242 4242 4242) pay for real purchases');
  }
  app.decorate('cardProcessor', cardProcessor ?? buildCardProcessor(config, db, clock));
  if (ownsDb) app.addHook('onClose', async () => db.destroy());
  await app.register(fp(async () => {}, { name: 'db' }));

  // Outside production, count SQL statements per request (Server-Timing), for the bench and for us.
  if (!config.isProduction || process.env.BENCH_QUERY_COUNT === '1') {
    app.addHook('onRequest', (_request, _reply, done) => queryCounter.run({ queries: 0 }, done));
    app.addHook('onSend', async (_request, reply) => {
      const store = queryCounter.getStore();
      if (store) reply.header('server-timing', `db;desc="SQL queries";dur=${store.queries}`);
    });
  }

  // Before any route: it compresses the answers of the routes registered after it.
  await app.register(compressionPlugin);
  await app.register(cookie, { secret: config.cookieSecret });
  await app.register(formbody);
  await app.register(guardianPlugin, {
    pluginRoutes: [
      // Stylesheets, scripts, fonts and images: a page loads many, and a company's members share one
      // address, so they never count against the page rate limit (security.ts).
      { prefix: `${base}/static`, access: 'public', bare: true, rateLimit: false },
      { prefix: `${base}/graphql`, access: 'public', csrf: false },
      { prefix: `${base}/graphqlAdmin`, access: 'admin', csrf: false },
      { prefix: '/graphiql', access: 'public', bare: true },
    ],
  });
  await app.register(securityPlugin);
  await app.register(communityPlugin);
  await app.register(identityPlugin);
  await app.register(renderPlugin);

  await app.register(fastifyStatic, {
    root: STATIC_DIR,
    prefix: `${base}/static/`,
    decorateReply: false,
    index: false,
    // The .br and .gz files the build writes beside each bundle and stylesheet.
    preCompressed: true,
    setHeaders: (res, filePath) => {
      const immutable = filePath.includes(`${STATIC_DIR}/build/`) && !filePath.endsWith('manifest.json');
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  await app.register(graphqlPlugin);
  for (const area of AREAS) {
    for (const routes of area.routes) await app.register(routes, { prefix: base });
  }
  await app.register(jobsPlugin, { areas: AREAS });
  return app;
}
