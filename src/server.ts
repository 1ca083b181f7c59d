import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { migrateToLatest, openDatabase } from './db/index.ts';
import { seedDemo } from './features/seed.ts';

let config: Config;
try {
  config = loadConfig();
} catch (e) {
  if (e instanceof ConfigError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}

const { db } = await openDatabase(config);
await migrateToLatest(db);
if (config.seedDemo && !config.isProduction && (await seedDemo(db, { production: false }))) {
  console.log('Seeded the demo communities (credentials in README.md).');
}
const app = await buildApp({ config, db, ownsDb: true });
await app.listen({ port: config.port, host: config.host });
console.log(`Listening on http://${config.host}:${config.port}${config.basePath || '/'} (${config.databaseUrl ? 'PostgreSQL' : 'PGlite in ' + config.dataDir})`);

// Graceful shutdown (SIGTERM from a process manager, or Ctrl-C): stop accepting connections (new
// requests meanwhile get 503), let the requests in flight and the running jobs finish, close the
// database, exit 0. A shutdown that hangs past the grace period exits 1.
const GRACE_MS = 25_000;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      console.error(`Shutdown took longer than ${GRACE_MS / 1000} s: exiting.`);
      process.exit(1);
    }, GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
