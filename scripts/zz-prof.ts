import { loadConfig } from '#src/config.ts';
import { buildApp } from '#src/app.ts';
import { createDatabase, migrateToLatest } from '#src/db/index.ts';
import { seedDemo } from '#src/features/seed.ts';
import { sessionTokenFor } from './bench/sessions.ts';
const { db } = await createDatabase({ kind: 'postgres', url: process.argv[2]!, poolSize: 5 } as never);
await migrateToLatest(db);
await seedDemo(db, { production: false });
const config = loadConfig({ NODE_ENV: 'production', PAYMENT_PROCESSOR: 'sandbox', COOKIE_SECRET: 'x'.repeat(40), SEED_DEMO: 'false', LOG_LEVEL: 'silent', DATABASE_URL: process.argv[2], JOB_WORKERS: 'false' });
const app = await buildApp({ config, db, jobWorkers: false });
await app.ready();
const community = await db.selectFrom('communities').selectAll().where('code', '=', 'summit').executeTakeFirstOrThrow();
const cookie = `auth=${await sessionTokenFor(app, community, 'admin@example.com')}`;
for (const url of ['/admin']) {
  for (let i = 0; i < 10; i++) await app.inject({ url, headers: { accept: 'text/html', cookie } });
  const t0 = performance.now();
  for (let i = 0; i < 300; i++) await app.inject({ url, headers: { accept: 'text/html', cookie } });
  console.log(url, ((performance.now() - t0) / 100).toFixed(1), 'ms');
}
await app.close();
await db.destroy();
