import { ConfigError, loadConfig } from '#src/config.ts';
import { migrateToLatest, openDatabase } from '#src/db/index.ts';

try {
  const config = loadConfig();
  const { db } = await openDatabase(config);
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
  await db.destroy();
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
