import t from 'tap';
import { forgetFilterOptions, listDirectory, listSuggestions, parseDirectoryQuery } from '#src/features/members/directory.ts';
import { systemClock } from '#src/core/clock.ts';
import { setupDatabase } from '#test/helpers/app.ts';

t.test('the demo directory: about sixty Summit members with complete company profiles', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const summit = await db.selectFrom('communities').selectAll().where('code', '=', 'summit').executeTakeFirstOrThrow();
  const harbor = await db.selectFrom('communities').selectAll().where('code', '=', 'harbor').executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.email', 'memberships.community_id', 'memberships.industry', 'memberships.company_employee_count', 'memberships.company_description', 'memberships.link_linkedin', 'memberships.link_website', 'memberships.joined_at', 'memberships.is_founding'])
    .execute();
  const members = rows.filter((r) => r.email !== 'admin@example.com');
  const inSummit = members.filter((r) => r.community_id === summit.id);
  t.ok(inSummit.length >= 58 && inSummit.length <= 62, `${inSummit.length} Summit members`);
  t.equal(members.filter((r) => r.community_id === harbor.id).length, 5);
  for (const m of members) {
    t.ok(m.industry && m.company_employee_count && m.company_description, `${m.email} has a company profile`);
    t.match(m.link_linkedin, /^https:\/\/www\.linkedin\.com\/in\/[a-z0-9-]+$/);
    t.match(m.link_website, /^https:\/\/www\.[a-z0-9]+\.example\.com$/);
  }
  t.ok(new Set(inSummit.map((m) => m.industry)).size >= 10, 'varied industries');
  t.ok(inSummit.filter((m) => m.is_founding).length >= 5, 'founding members');
  const years = inSummit.map((m) => new Date(m.joined_at).getTime());
  t.ok(Math.max(...years) - Math.min(...years) > 600 * 86_400_000, 'joined over about two years');

  // The directory reads it: the misspelt company finds its member; Discover has reasons.
  forgetFilterOptions();
  const deps = { db, community: summit, clock: systemClock };
  const found = await listDirectory(deps, parseDirectoryQuery({ q: 'Lumen Analitics' }));
  t.equal(found.members[0]?.name, 'Amara Okafor');
  const amara = await db.selectFrom('users').select('id').where('email', '=', 'amara.okafor@summit-demo.example.com').executeTakeFirstOrThrow();
  const suggestions = await listSuggestions(deps, amara.id);
  t.same([...new Set(suggestions.map((s) => s.reason))], ['industry', 'city', 'new']);
});
