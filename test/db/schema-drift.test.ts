import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import t from 'tap';
import { freshDatabase, usingPostgres } from '#test/helpers/db.ts';
import { SCHEMA_FILE, schemaDiff, schemaSource } from '../../scripts/db-types.ts';

// src/db/schema.ts is generated from the migrated schema (`npm run db:types`). A migration that adds,
// drops or changes a column without regenerating it fails here, with the diff to apply.
t.test(`src/db/schema.ts is what the migrations give (${usingPostgres() ? 'PostgreSQL' : 'PGlite'})`, async (t) => {
  const { db, drop } = await freshDatabase();
  t.teardown(drop);
  const generated = await schemaSource(db as unknown as Kysely<any>);
  const diff = schemaDiff(readFileSync(SCHEMA_FILE, 'utf8'), generated);
  if (diff) {
    t.comment(diff);
    t.fail('src/db/schema.ts has drifted from the migrations (the diff above): run `npm run db:types`');
  } else t.pass('src/db/schema.ts matches the migrated schema');
});
