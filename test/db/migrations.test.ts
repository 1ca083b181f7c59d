import t from 'tap';
import { sql } from 'kysely';
import { migrateToLatest } from '#src/db/index.ts';
import { DEMO_ADMIN, seedDemo, SeedRefusedError } from '#src/features/seed.ts';
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

  await t.test('every table belongs to a community (a NOT NULL community_id), but for the named few', async (t) => {
    // What may live outside a community, and why (docs/architecture.md, "Past one database"): these
    // are the reference tables of a database distributed by community_id, or no product data at all.
    const GLOBAL: Record<string, string> = {
      communities: 'the tenants themselves (a reference table)',
      users: 'one identity across every community a person belongs to (memberships carry the community)',
      auth_events: 'sign-in throttling per address and account, across communities',
      auth_lockouts: 'lockouts per account, across communities',
      sandbox_profiles: "the local sandbox card processor's own store (an outside service's, not ours)",
      sandbox_tokens: "the sandbox card processor's own store",
      sandbox_transactions: "the sandbox card processor's own store",
      kysely_migration: 'the migrator',
      kysely_migration_lock: 'the migrator',
    };
    const tables = await sql<{ table_name: string; tenant: boolean; nullable: boolean }>`
      select t.table_name,
        exists (select 1 from information_schema.columns c where c.table_schema = 'public' and c.table_name = t.table_name and c.column_name = 'community_id') as tenant,
        exists (select 1 from information_schema.columns c where c.table_schema = 'public' and c.table_name = t.table_name and c.column_name = 'community_id' and c.is_nullable = 'YES') as nullable
      from information_schema.tables t where t.table_schema = 'public' and t.table_type = 'BASE TABLE' order by 1`.execute(db);
    t.ok(tables.rows.length > 50, `${tables.rows.length} tables`);
    const outside = tables.rows.filter((r) => !r.tenant).map((r) => r.table_name);
    t.same(outside, Object.keys(GLOBAL).sort(), 'a new table without community_id is named here, with its reason, or it gets the column');
    t.same(tables.rows.filter((r) => r.nullable).map((r) => r.table_name), [], 'community_id is never null (it is the distribution column)');
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
