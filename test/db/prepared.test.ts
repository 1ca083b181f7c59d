import { sql, type QueryExecutorProvider } from 'kysely';
import t from 'tap';
import { MAX_PER_CONNECTION } from '#src/db/prepared.ts';
import { freshDatabase, usingPostgres } from '#test/helpers/db.ts';

// Named prepared statements on the PostgreSQL pool (src/db/prepared.ts, decision 0034). PGlite has
// no pool and sends its statements as it always did.
if (!usingPostgres()) {
  t.pass('PostgreSQL only (set DATABASE_URL)');
} else {
  const { db, drop } = await freshDatabase();
  t.teardown(drop);

  const prepared = async (c: QueryExecutorProvider) =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(c)).rows;

  t.test('a parameterised query is parsed once per connection and reused', async (t) => {
    await db.connection().execute(async (c) => {
      for (let i = 1; i <= 7; i++) {
        const row = await c.selectFrom('communities').select((eb) => eb.val(i).as('n')).where('id', '>', 0).limit(1).executeTakeFirst();
        t.equal(Number(row?.n ?? i), i, `run ${i}: the parameter's own value`);
      }
      const mine = (await prepared(c)).filter((p) => p.statement.includes('"communities"'));
      t.equal(mine.length, 1, 'one named statement for the one text');
      t.match(mine[0]!.name, /^k\d+_\d+$/, 'named by the pool');
    });
  });

  t.test('SQL without parameters stays unnamed (several statements at once still work)', async (t) => {
    await db.connection().execute(async (c) => {
      const before = (await prepared(c)).length;
      await sql.raw('create temporary table if not exists several (n int); insert into several values (1); insert into several values (2)').execute(c);
      const n = await sql<{ n: number }>`select count(*)::int as n from several`.execute(c);
      t.equal(n.rows[0]!.n, 2, 'both inserts ran');
      t.equal((await prepared(c)).length, before, 'nothing named for parameterless SQL');
    });
  });

  t.test(`at most ${MAX_PER_CONNECTION} texts are named per connection; later ones run unnamed`, async (t) => {
    await db.connection().execute(async (c) => {
      for (let i = 0; i < MAX_PER_CONNECTION + 20; i++) {
        const r = await sql<{ v: number }>`select ${i}::int + ${sql.raw(String(i))} as v`.execute(c);
        if (r.rows[0]!.v !== 2 * i) t.fail(`text ${i}: wrong answer ${r.rows[0]!.v}`);
      }
      t.ok((await prepared(c)).length <= MAX_PER_CONNECTION, 'bounded');
      const again = await sql<{ v: number }>`select ${5}::int + ${sql.raw(String(MAX_PER_CONNECTION + 19))} as v`.execute(c);
      t.equal(again.rows[0]!.v, 5 + MAX_PER_CONNECTION + 19, 'an unnamed text past the bound still answers');
    });
  });

  t.test('a table changed under a prepared statement: the query is sent again and answers', async (t) => {
    await sql`create table prepared_probe (id int primary key, a text)`.execute(db);
    await sql`insert into prepared_probe values (1, 'one')`.execute(db);
    await db.connection().execute(async (c) => {
      const read = () => sql<Record<string, unknown>>`select p.* from prepared_probe p where id = ${1}`.execute(c);
      for (let i = 0; i < 6; i++) await read();
      await sql`alter table prepared_probe add column b text default 'bee'`.execute(c);
      const after = await read();
      t.same(after.rows[0], { id: 1, a: 'one', b: 'bee' }, 'the new column is there; no "cached plan must not change result type"');
      const later = await read();
      t.same(later.rows[0], { id: 1, a: 'one', b: 'bee' }, 'and the next run of the same text too');
    });
  });

  t.test('an error inside a transaction rolls it back; the connection goes on', async (t) => {
    await t.rejects(
      db.transaction().execute(async (trx) => {
        await sql`insert into prepared_probe (id, a) values (${2}, ${'two'})`.execute(trx);
        await sql`insert into prepared_probe (id, a) values (${2}, ${'again'})`.execute(trx);
      }),
      { code: '23505' },
      'the duplicate key fails the transaction',
    );
    const rows = await sql<{ n: number }>`select count(*)::int as n from prepared_probe where id = ${2}`.execute(db);
    t.equal(rows.rows[0]!.n, 0, 'rolled back');
    for (let i = 0; i < 12; i++) await sql`select ${i}::int as i`.execute(db);
    t.pass('later statements on the pool answer');
  });
}
