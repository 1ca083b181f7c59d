import { ConfigError, loadConfig } from '#src/config.ts';
import { migrateToLatest, openDatabase } from '#src/db/index.ts';
import { SeedRefusedError, seedDemo } from '#src/features/seed.ts';

try {
  const config = loadConfig();
  const { db } = await openDatabase(config);
  await migrateToLatest(db);
  const seeded = await seedDemo(db, { production: config.isProduction });
  console.log(seeded ? 'Seeded the demo communities.' : 'The database already has communities: nothing seeded.');
  await db.destroy();
} catch (e) {
  console.error(e instanceof ConfigError || e instanceof SeedRefusedError ? e.message : e);
  process.exit(1);
}
