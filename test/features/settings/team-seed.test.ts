import t from 'tap';
import { checkContact } from '#src/features/settings/team.ts';
import { setupDatabase } from '#test/helpers/app.ts';

t.test('the demo team contacts: summit and harbor members with assistants and PR contacts that pass the rules', async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const rows = await db
    .selectFrom('support_contacts')
    .innerJoin('communities', 'communities.id', 'support_contacts.community_id')
    .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'support_contacts.user_id').onRef('memberships.community_id', '=', 'support_contacts.community_id'))
    .select(['communities.code', 'support_contacts.type', 'support_contacts.name', 'support_contacts.email', 'support_contacts.mobile_country_code', 'support_contacts.mobile_number', 'support_contacts.office_country_code', 'support_contacts.office_number', 'support_contacts.office_extension'])
    .execute();
  const summit = rows.filter((r) => r.code === 'summit');
  const harbor = rows.filter((r) => r.code === 'harbor');
  t.ok(summit.length >= 5, `${summit.length} in summit, each the member's own`);
  t.ok(harbor.length >= 2, `${harbor.length} in harbor`);
  t.ok(rows.some((r) => r.type === 'ea') && rows.some((r) => r.type === 'pr'), 'both types');
  for (const r of rows) {
    t.match(r.email, /@[a-z0-9.]+\.example\.com$/, `${r.name}: an example.com address`);
    const checked = checkContact({
      name: r.name,
      email: r.email,
      mobilePhone: { countryCode: r.mobile_country_code, number: r.mobile_number },
      officePhone: { countryCode: r.office_country_code, number: r.office_number, extension: r.office_extension },
    });
    t.same(checked.errors, {}, `${r.name}: valid as the form would take it`);
    t.equal(checked.values?.mobilePhone?.number ?? null, r.mobile_number, `${r.name}: stored as the form stores it`);
  }
});
