// `npm run test:pglite`: the short list that runs on embedded PGlite in CI, beside the whole suite on
// PostgreSQL. Only what differs between the two databases: the migrations, the database layer, the
// durable queue, start-up and the demo seed, and a smoke test of every area (pages and GraphQL). A
// newcomer's `npm test` (no DATABASE_URL) still runs everything on PGlite; `npm run test:full` runs
// everything on both.
import { spawnSync } from 'node:child_process';

export const PGLITE_LIST = [
  // The migrations and the demo seed (once, and refused in production), constraints.
  'test/db/migrations.test.ts',
  // What counts as the database being out of reach, and the 503 it gives.
  'test/db/faults.test.ts',
  // Prepared statements through each dialect.
  'test/db/prepared.test.ts',
  // The durable queue (pg-boss over PGlite's one connection): crash safety, retries, batches.
  'test/lib/jobs.test.ts',
  // Mail through the queue to a local SMTP server, the outbox.
  'test/lib/messaging.test.ts',
  // Health checks read the database; legacy redirects and the path prefix.
  'test/features/system.test.ts',
  // Tenancy helpers: no query reaches another community.
  'test/features/tenancy.test.ts',
  // Every area's pages and GraphQL on the seeded demo; the README's first command as a process.
  'test/smoke.test.ts',
  // The README's accounts and claims on the seeded demo.
  'test/features/readme-demo.test.ts',
];

const env = { ...process.env };
delete env.DATABASE_URL;
const { status } = spawnSync('npx', ['tap', ...PGLITE_LIST, ...process.argv.slice(2)], { stdio: 'inherit', env });
process.exit(status ?? 1);
