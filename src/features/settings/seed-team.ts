import type { RawDb } from '#src/db/index.ts';
import type { SupportContactType } from '#src/db/types.ts';

type Contact = {
  type: SupportContactType;
  name: string;
  email: string;
  /** National format, US: the fictional 555-01xx numbers, which libphonenumber accepts as valid. */
  mobile?: string;
  office?: string;
  extension?: string;
};

/** Demo members' team contacts, by community code and username. */
const SEEDS: Record<string, Record<string, Contact[]>> = {
  summit: {
    'amara.okafor': [
      { type: 'ea', name: 'Jordan Ellis', email: 'jordan.ellis@lumen.example.com', mobile: '(512) 555-0117', office: '(512) 555-0100', extension: '214' },
      { type: 'pr', name: 'Nadia Petrova', email: 'nadia@brightpress.example.com', office: '(512) 555-0133' },
    ],
    'daniel.reyes': [{ type: 'ea', name: 'Carmen Ortiz', email: 'carmen.ortiz@northfield.example.com', mobile: '(312) 555-0148' }],
    'priya.raman': [{ type: 'pr', name: 'Theo Bennett', email: 'theo.bennett@cobalthealth.example.com', office: '(617) 555-0162', extension: '31' }],
    'marcus.lindqvist': [
      { type: 'ea', name: 'Olivia Park', email: 'olivia.park@fjordcapital.example.com', mobile: '(212) 555-0175', office: '(212) 555-0190', extension: '1002' },
      { type: 'pr', name: 'Samuel Wright', email: 'swright@harborcomms.example.com', mobile: '(212) 555-0129' },
    ],
  },
  harbor: {
    'rosa.delgado': [{ type: 'ea', name: 'Megan Doyle', email: 'megan.doyle@saltmarsh.example.com', mobile: '(207) 555-0153' }],
    'aisha.bello': [{ type: 'pr', name: 'Kofi Asante', email: 'kofi@anchorpay.example.com', office: '(410) 555-0186', extension: '7' }],
  },
};

/** Adds the demo members' executive assistants and PR contacts. Called from seedDemo inside its transaction. */
export async function seedTeam(trx: RawDb, ctx: { byCode: Record<string, number> }): Promise<void> {
  for (const [code, members] of Object.entries(SEEDS)) {
    const communityId = ctx.byCode[code];
    if (!communityId) continue;
    const users = await trx
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .select(['users.id', 'users.username'])
      .where('memberships.community_id', '=', communityId)
      .where('users.username', 'in', Object.keys(members))
      .execute();
    for (const u of users) {
      for (const c of members[u.username] ?? []) {
        await trx
          .insertInto('support_contacts')
          .values({
            community_id: communityId,
            user_id: u.id,
            type: c.type,
            name: c.name,
            email: c.email,
            mobile_country_code: c.mobile ? 'US' : null,
            mobile_number: c.mobile ?? null,
            office_country_code: c.office ? 'US' : null,
            office_number: c.office ?? null,
            office_extension: c.office ? (c.extension ?? null) : null,
          })
          .execute();
      }
    }
  }
}
