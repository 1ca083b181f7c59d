import type { RawDb } from '#src/db/index.ts';

/**
 * The demo's network staff community (code `admin`, at admin.localhost): its admins land on the sites
 * page (spec section 2, "Access redirects") and administer every brand from there. The demo admin
 * administers it as well as the brands.
 */
export async function seedSites(trx: RawDb, ctx: { adminId: number }): Promise<void> {
  const staff = await trx
    .insertInto('communities')
    .values({
      code: 'admin',
      name: 'Network Staff',
      app_name: 'Network Staff',
      familiar_name: 'Staff',
      icon: null,
      nav_more: JSON.stringify([]),
      forum_enabled: false,
      concierge_email: 'staff@network.example.com',
      concierge_phone: '+1 512 555 0100',
      copyright_holder: 'Network Staff',
      color_primary: '#2b2b6b',
      color_accent: '#a64b00',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.insertInto('community_hosts').values({ host: 'admin.localhost', community_id: staff.id }).execute();
  await trx
    .insertInto('memberships')
    .values({ community_id: staff.id, user_id: ctx.adminId, roles: ['ADMIN', 'MEMBER'], company_name: 'Community Staff', job_title: 'Community Manager' })
    .execute();
  await trx.insertInto('staff_actions').values({ community_id: staff.id, actor_id: ctx.adminId, member_id: null, action: 'site.create', detail: 'code,name,hosts' }).execute();
}
