import t from 'tap';
import { sql } from 'kysely';
import { migrateToLatest } from '#src/db/index.ts';
import { DEMO_ADMIN, seedDemo, SeedRefusedError } from '#src/db/seed.ts';
import { verifyPassword } from '#src/core/passwords.ts';
import { setupDatabase } from '#test/helpers/app.ts';
import { usingPostgres } from '#test/helpers/db.ts';

t.test(`migrations on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, async (t) => {
  const db = await setupDatabase(t);

  await t.test('create every foundation table, and running them again changes nothing', async (t) => {
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'public' order by 1`.execute(db);
    const names = tables.rows.map((r) => r.table_name);
    for (const table of ['communities', 'community_hosts', 'users', 'memberships', 'sessions', 'ads']) t.ok(names.includes(table), table);
    t.same(await migrateToLatest(db), []);
  });

  await t.test('the demo seed creates two communities (and the staff one), an admin and members, and only once', async (t) => {
    t.equal(await seedDemo(db, { production: false }), true);
    t.equal(await seedDemo(db, { production: false }), false);
    const communities = await db.selectFrom('communities').select(['code']).orderBy('code').execute();
    t.same(communities.map((c) => c.code), ['admin', 'harbor', 'summit'], 'the two brands and the network staff community');
    const counts = await db
      .selectFrom('memberships')
      .innerJoin('communities', 'communities.id', 'memberships.community_id')
      .select(['communities.code', db.fn.countAll<number>().as('n')])
      .groupBy('communities.code')
      .execute();
    const by = Object.fromEntries(counts.map((c) => [c.code, Number(c.n)]));
    t.ok(by.summit! >= 13, 'at least twelve members and the admin in the first community');
    t.ok(by.harbor! < by.summit!, 'fewer in the second');
    const admin = await db.selectFrom('users').selectAll().where('email', '=', DEMO_ADMIN.email).executeTakeFirstOrThrow();
    t.match(admin.password_hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/, 'argon2id with OWASP parameters');
    t.ok(await verifyPassword(admin.password_hash!, DEMO_ADMIN.password));
    const roles = await db.selectFrom('memberships').select('roles').where('user_id', '=', admin.id).execute();
    t.same(roles.map((r) => r.roles), [['ADMIN', 'MEMBER'], ['ADMIN', 'MEMBER'], ['ADMIN', 'MEMBER']]);
  });

  await t.test('the demo seed is refused in production', async (t) => {
    await t.rejects(seedDemo(db, { production: true }), SeedRefusedError);
  });

  await t.test('constraints keep bad data out: roles, gate, colours, emails', async (t) => {
    const c = await db.selectFrom('communities').select('id').where('code', '=', 'summit').executeTakeFirstOrThrow();
    const u = await db.selectFrom('users').select('id').where('email', '=', DEMO_ADMIN.email).executeTakeFirstOrThrow();
    await t.rejects(db.insertInto('users').values({ email: DEMO_ADMIN.email.toUpperCase(), username: 'x1', first_name: 'A', last_name: 'B' }).execute(), 'emails are unique whatever their case');
    await t.rejects(db.updateTable('memberships').set({ roles: ['OWNER' as never] }).where('user_id', '=', u.id).execute());
    await t.rejects(db.updateTable('memberships').set({ gate: 'limbo' as never }).where('user_id', '=', u.id).execute());
    await t.rejects(db.updateTable('communities').set({ color_primary: 'red;}' }).where('id', '=', c.id).execute(), 'colours are hex only (they reach a <style>)');
  });
});
