import type { RawDb } from '#src/db/index.ts';
import type { DemoContext } from '#src/features/area.ts';
import type { OfferRedemption, OfferTier } from '#src/db/types.ts';
import { cleanRichText, textToHtml } from '#src/lib/rich-text.ts';

/**
 * The demo's offers (issue 27): Summit has 10 partners and 20 offers in several categories (3 of them
 * EXEC, one ended, one starting next month, one draft), Harbor a handful; Amara Okafor holds Summit's
 * executive tier, and members have redeemed some offers over the past weeks.
 */

type P = { key: string; name: string; website: string; contact: string; logo: boolean };
type O = {
  partner: string;
  title: string;
  value: string;
  category: string;
  text: string;
  redemption: OfferRedemption;
  code?: string;
  link?: string;
  tier?: OfferTier;
  featured?: boolean;
  position?: number;
  terms?: string;
  /** Days from today: the first day (negative: in the past) and the day after the last. */
  starts?: number;
  ends?: number;
  status?: 'draft' | 'published' | 'withdrawn';
  /** How many members redeemed it. */
  redeemed?: number;
};

const SUMMIT_PARTNERS: P[] = [
  { key: 'ledgerly', name: 'Ledgerly', website: 'https://example.com/partners/ledgerly', contact: 'Maya Chen, partners@ledgerly.example.com', logo: true },
  { key: 'skyway', name: 'Skyway Airlines', website: 'https://example.com/partners/skyway', contact: 'Corporate sales, +1 512 555 0110', logo: true },
  { key: 'northstar', name: 'Northstar Business Banking', website: 'https://example.com/partners/northstar', contact: 'Eli Grant, eli.grant@northstar.example.com', logo: true },
  { key: 'calmly', name: 'Calmly', website: 'https://example.com/partners/calmly', contact: 'teams@calmly.example.com', logo: true },
  { key: 'forge', name: 'Forge Workspaces', website: 'https://example.com/partners/forge', contact: 'Nora Patel, +1 512 555 0188', logo: true },
  { key: 'stacklane', name: 'Stacklane', website: 'https://example.com/partners/stacklane', contact: 'partners@stacklane.example.com', logo: true },
  { key: 'harvest', name: 'Harvest Table', website: 'https://example.com/partners/harvest', contact: 'Events desk, events@harvest.example.com', logo: true },
  { key: 'summitlearn', name: 'Executive Learning Lab', website: 'https://example.com/partners/learning-lab', contact: 'admissions@learninglab.example.com', logo: true },
  { key: 'boardroom', name: 'Boardroom Events', website: 'https://example.com/partners/boardroom', contact: 'Sam Ortiz, sam@boardroom.example.com', logo: true },
  { key: 'pulse', name: 'Pulse Executive Health', website: 'https://example.com/partners/pulse', contact: 'concierge@pulse.example.com', logo: true },
];

const SUMMIT_OFFERS: O[] = [
  { partner: 'Ledgerly', title: 'Bookkeeping for growing companies', value: '20% off the first year', category: 'finance', redemption: 'code', code: 'SUMMIT20', featured: true, position: 1, redeemed: 9, text: 'Ledgerly keeps your books closed every month, with a named bookkeeper and live reports.\n\n- Month-end close within five working days\n- Payroll and sales-tax filings included\n- A **dedicated bookkeeper** who knows your business', terms: 'New Ledgerly customers only. The discount applies to the first 12 monthly invoices.' },
  { partner: 'Skyway Airlines', title: 'Lounge access on every flight', value: 'Lounge access for you and a guest', category: 'travel', redemption: 'concierge', featured: true, position: 2, redeemed: 4, text: 'Members flying Skyway get access to Skyway lounges worldwide, with a guest, whatever the fare class.\n\nThe concierge registers your frequent-flyer number with Skyway; access starts within a week.', terms: 'One guest per visit. Lounge capacity permitting.' },
  { partner: 'Stacklane', title: 'Stacklane Business plan', value: '3 months free', category: 'software', redemption: 'link', link: 'https://example.com/partners/stacklane/summit', featured: true, position: 3, redeemed: 12, text: 'Stacklane brings your team\'s documents, tasks and chat into one place.\n\nFollow the link to start: the three free months are applied when you sign up from it.', terms: 'New workspaces only. After three months the Business plan is billed at the list price unless cancelled.' },
  { partner: 'Calmly', title: 'Calmly for your whole team', value: '50% off team plans', category: 'wellness', redemption: 'code', code: 'CALMSUMMIT50', position: 4, redeemed: 5, text: 'Guided meditation, sleep stories and focus music for every member of your team, with a dashboard for you.', terms: 'Teams of 5 or more. Annual plans only.' },
  { partner: 'Forge Workspaces', title: 'Day passes in 40 cities', value: '10 free day passes a year', category: 'workspace', redemption: 'concierge', position: 5, redeemed: 3, text: 'Work from any Forge space when you travel: a desk, meeting rooms by the hour, and coffee that is better than it needs to be.', terms: 'Passes are valid for 12 months from the request and cannot be transferred.' },
  { partner: 'Northstar Business Banking', title: 'Business account with no monthly fee', value: 'No fees for 2 years', category: 'finance', redemption: 'link', link: 'https://example.com/partners/northstar/summit', position: 6, redeemed: 2, text: 'A business account with unlimited transfers, cards for your team and a relationship manager.', terms: 'Subject to Northstar\'s account opening checks.' },
  { partner: 'Harvest Table', title: 'Private dining for client dinners', value: 'Complimentary wine pairing', category: 'dining', redemption: 'concierge', position: 7, redeemed: 1, text: 'Book a private room at any Harvest Table restaurant for 6 to 20 guests; members get the sommelier\'s wine pairing on the house.', terms: 'Bookings through the concierge at least 5 days ahead.' },
  { partner: 'Executive Learning Lab', title: 'Leadership intensive', value: '25% off tuition', category: 'learning', redemption: 'code', code: 'LEADLAB25', position: 8, redeemed: 2, text: 'A five-day leadership intensive for founders and CEOs, taught by operators, with a cohort of peers.', terms: 'Applies to the 2027 cohorts. Admission is by application.' },
  { partner: 'Boardroom Events', title: 'Founders summit tickets', value: '2 tickets for the price of 1', category: 'events', redemption: 'code', code: 'BOARD2FOR1', position: 9, redeemed: 3, ends: 45, text: 'Two days of talks and roundtables with founders who have scaled past 100 people.', terms: 'While tickets last.' },
  { partner: 'Pulse Executive Health', title: 'Annual executive health check', value: '15% off the full assessment', category: 'wellness', redemption: 'concierge', position: 10, text: 'A half-day assessment with a physician, blood panel, cardiac screening and a written plan.', terms: 'Available in Austin, Boston and New York.' },
  { partner: 'Skyway Airlines', title: 'Upgrade vouchers', value: '2 upgrade vouchers a year', category: 'travel', redemption: 'concierge', position: 11, text: 'Two one-class upgrade vouchers a year on any Skyway flight.', terms: 'Subject to seat availability at booking.' },
  { partner: 'Stacklane', title: 'Stacklane onboarding workshop', value: 'Free 2-hour workshop', category: 'learning', redemption: 'link', link: 'https://example.com/partners/stacklane/workshop', position: 12, text: 'A Stacklane specialist sets up your workspace with your team in a two-hour session.' },
  { partner: 'Calmly', title: 'Calmly personal plan', value: '1 year free', category: 'wellness', redemption: 'code', code: 'CALMYEAR', position: 13, redeemed: 6, text: 'A free year of Calmly Premium for you.' },
  { partner: 'Forge Workspaces', title: 'Meeting room hours', value: '20% off meeting rooms', category: 'workspace', redemption: 'code', code: 'FORGE20', position: 14, text: 'Book Forge meeting rooms by the hour at member rates.' },
  { partner: 'Harvest Table', title: 'Chef\'s table experience', value: 'A seat at the chef\'s table', category: 'dining', redemption: 'concierge', position: 15, starts: 30, text: 'The chef cooks a tasting menu in front of you, course by course. Booking opens next month.' },
  { partner: 'Boardroom Events', title: 'Autumn board dinner', value: '30% off', category: 'events', redemption: 'code', code: 'AUTUMN30', position: 16, starts: -120, ends: -20, redeemed: 2, text: 'An evening with independent directors of growing companies.' },
  { partner: 'Ledgerly', title: 'Year-end tax review', value: 'Free review', category: 'finance', redemption: 'link', link: 'https://example.com/partners/ledgerly/review', position: 17, status: 'draft', text: 'A tax specialist reviews your year-end filing before you submit it.' },
  // EXEC: the executive tier's offers.
  { partner: 'Pulse Executive Health', title: 'Executive health membership', value: 'A physician on call, all year', category: 'wellness', redemption: 'concierge', tier: 'exec', featured: true, position: 1, redeemed: 1, text: 'A named physician you can reach any day, same-week specialist appointments and an annual full assessment.', terms: 'For EXEC members and their partner.' },
  { partner: 'Skyway Airlines', title: 'Skyway Platinum status', value: 'Platinum status, matched', category: 'travel', redemption: 'code', code: 'EXEC-PLAT-7Q', tier: 'exec', position: 2, redeemed: 1, text: 'Skyway matches EXEC members to Platinum status for 12 months: priority everything, and first-class upgrades when seats allow.', terms: 'Status is reviewed after 12 months.' },
  { partner: 'Executive Learning Lab', title: 'CEO peer circle', value: 'A seat in a CEO circle', category: 'learning', redemption: 'concierge', tier: 'exec', position: 3, text: 'Eight CEOs, one facilitator, one day a month: a confidential circle to work through what is hardest.' },
];

const HARBOR_PARTNERS: P[] = [
  { key: 'tidewater', name: 'Tidewater Sailing Club', website: 'https://example.com/partners/tidewater', contact: 'club@tidewater.example.com', logo: true },
  { key: 'anchor', name: 'Anchor Coworking', website: 'https://example.com/partners/anchor', contact: '+1 401 555 0120', logo: true },
  { key: 'mooring', name: 'Mooring Design Studio', website: 'https://example.com/partners/mooring', contact: 'hello@mooring.example.com', logo: true },
];

const HARBOR_OFFERS: O[] = [
  { partner: 'Anchor Coworking', title: 'A desk in Providence', value: 'First month free', category: 'workspace', redemption: 'code', code: 'HARBORDESK', featured: true, position: 1, redeemed: 2, text: 'A dedicated desk at Anchor\'s waterfront space, with meeting rooms included.' },
  { partner: 'Tidewater Sailing Club', title: 'Sailing lessons', value: '3 lessons for the price of 2', category: 'events', redemption: 'concierge', position: 2, redeemed: 1, text: 'Learn to sail on Narragansett Bay with Tidewater\'s instructors.' },
  { partner: 'Mooring Design Studio', title: 'Brand identity sprint', value: '15% off', category: 'other', redemption: 'link', link: 'https://example.com/partners/mooring/harbor', position: 3, text: 'A two-week sprint for your logo, type and colours.' },
  { partner: 'Anchor Coworking', title: 'Event space', value: 'Free evening event space', category: 'events', redemption: 'concierge', position: 4, text: 'Host a founders\' evening for up to 60 people, once a year.' },
];

const DAY = 86_400_000;

async function seedCommunity(trx: RawDb, communityId: number, adminId: number, partners: P[], offers: O[]) {
  const today = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z').getTime();
  const rows = await trx
    .insertInto('partners')
    .values(partners.map((p) => ({ community_id: communityId, name: p.name, website: p.website, contact: p.contact, logo: p.logo ? `img/partners/${p.key}.svg` : null })))
    .returning(['id', 'name'])
    .execute();
  const partnerId = new Map(rows.map((r) => [r.name, r.id]));
  const created = new Date(today - 60 * DAY);
  const inserted = await trx
    .insertInto('offers')
    .values(
      offers.map((o) => ({
        community_id: communityId,
        partner_id: partnerId.get(o.partner)!,
        title: o.title,
        value_line: o.value,
        description_html: cleanRichText(textToHtml(o.text)),
        category: o.category,
        tier: o.tier ?? 'everyone',
        redemption: o.redemption,
        code: o.code ?? null,
        link: o.link ?? null,
        terms: o.terms ?? '',
        starts_at: o.starts === undefined ? null : new Date(today + o.starts * DAY),
        ends_at: o.ends === undefined ? null : new Date(today + o.ends * DAY),
        featured: o.featured ?? false,
        position: o.position ?? 0,
        status: o.status ?? 'published',
        created_by: adminId,
        created_at: created,
        updated_at: created,
      })),
    )
    .returning(['id', 'status'])
    .execute();
  await trx
    .insertInto('offer_status_events')
    .values(
      inserted.flatMap((o) => [
        { community_id: communityId, offer_id: o.id, actor_id: adminId, from_status: null, to_status: 'draft' as const, created_at: created },
        ...(o.status === 'draft' ? [] : [{ community_id: communityId, offer_id: o.id, actor_id: adminId, from_status: 'draft' as const, to_status: o.status, created_at: new Date(created.getTime() + DAY) }]),
      ]),
    )
    .execute();
  // Redemptions by members (not the staff), spread over the past seven weeks.
  const members = await trx
    .selectFrom('memberships')
    .select('user_id')
    .where('community_id', '=', communityId)
    .where('is_active', '=', true)
    .where('user_id', '!=', adminId)
    .orderBy('user_id')
    .execute();
  const redemptions = offers.flatMap((o, i) =>
    members.slice(0, Math.min(o.redeemed ?? 0, members.length)).map((m, k) => ({
      community_id: communityId,
      offer_id: inserted[i]!.id,
      user_id: m.user_id,
      created_at: new Date(today - ((i * 5 + k * 3) % 49) * DAY - (k + 1) * 3_600_000),
    })),
  );
  if (redemptions.length) await trx.insertInto('offer_redemptions').values(redemptions).execute();
}

export async function seedOffers(trx: RawDb, demo: DemoContext): Promise<void> {
  const summit = demo.byCode.summit;
  const harbor = demo.byCode.harbor;
  if (summit) {
    await seedCommunity(trx, summit, demo.adminId, SUMMIT_PARTNERS, SUMMIT_OFFERS);
    // Amara Okafor holds Summit's executive tier: the EXEC offers open to her (decision 0052).
    const amara = await trx.selectFrom('users').select('id').where('email', '=', 'amara.okafor@summit-demo.example.com').executeTakeFirst();
    if (amara) await trx.updateTable('memberships').set({ membership_tier: 'Executive' }).where('community_id', '=', summit).where('user_id', '=', amara.id).execute();
  }
  if (harbor) await seedCommunity(trx, harbor, demo.adminId, HARBOR_PARTNERS, HARBOR_OFFERS);
}
