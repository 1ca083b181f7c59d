import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs } from '#src/db/tenancy.ts';
import { pageSize } from '#src/lib/cursor.ts';
import { hasExecTier, offersTransaction, type OffersDeps, type OffersViewer } from './deps.ts';
import { afterKey, availabilityOf, cursorOf, decodeListCursor, likeOf, liveAt, logoOf, PAGE_SIZE, searchOf } from './queries.ts';
import { OFFER_CATEGORIES, type ExecPageView, type OfferCard, type OfferListPage, type OfferRedeemView, type OfferView } from './types.ts';

/**
 * The member's offers (issue 27): the list (live offers, featured first, by category and search,
 * keyset pages), one offer, redeeming it (once per member), and the EXEC page. Every read is scoped to
 * the request's community; another community's offer, or a draft, is 'Offers.NotFound'.
 */

const notFound = () => new AppError('Offers.NotFound');

/** An offer id from a path or an argument: anything but an id is the same answer as an unknown offer. */
export function offerIdOf(value: unknown): number {
  const id = parseId(value);
  if (id === null) throw notFound();
  return id;
}

/** A category filter: one of the known ones, else none (an old link's unknown category shows everything). */
export const categoryOf = (value: unknown): string | null => (typeof value === 'string' && (OFFER_CATEGORIES as readonly string[]).includes(value) ? value : null);

type ListInput = { category?: unknown; q?: unknown; after?: unknown; first?: unknown; tier?: 'exec' };

async function listCards(deps: OffersDeps, exec: boolean, input: ListInput): Promise<{ cards: OfferCard[]; next: string | null; category: string | null; q: string | null; after: string | null }> {
  const category = categoryOf(input.category);
  const q = searchOf(input.q);
  const after = decodeListCursor(input.after);
  const size = pageSize(input.first, PAGE_SIZE, 50);
  let query = selectInCommunityAs(deps.db, 'offers', 'o', deps.community)
    .innerJoin('partners as p', 'p.id', 'o.partner_id')
    .select(['o.id', 'o.title', 'o.value_line', 'o.category', 'o.tier', 'o.featured', 'o.position', 'o.ends_at', 'p.id as partner_id', 'p.name as partner_name', 'p.logo'])
    .where(liveAt(deps.clock.now()));
  if (input.tier === 'exec') query = query.where('o.tier', '=', 'exec');
  else if (!exec) query = query.where('o.tier', '=', 'everyone');
  if (category) query = query.where('o.category', '=', category);
  if (q) {
    const like = likeOf(q);
    query = query.where((eb) => eb.or([eb('o.title', 'ilike', like), eb('o.value_line', 'ilike', like), eb('p.name', 'ilike', like)]));
  }
  if (after) query = query.where(afterKey(after));
  const rows = await query.orderBy('o.featured', 'desc').orderBy('o.position', 'asc').orderBy('o.id', 'desc').limit(size + 1).execute();
  const cards = rows.slice(0, size).map((r) => ({
    id: r.id,
    title: r.title,
    valueLine: r.value_line,
    category: r.category,
    tier: r.tier,
    featured: r.featured,
    partnerId: r.partner_id,
    partnerName: r.partner_name,
    logo: logoOf(r.logo),
    endsAt: r.ends_at,
    cursor: cursorOf(r),
  }));
  const next = rows.length > size ? cards.at(-1)!.cursor : null;
  return { cards, next, category, q, after: after ? (input.after as string) : null };
}

/** `/offers`: the live offers the member may see (EXEC ones too when they hold the tier). */
export async function listOffers(deps: OffersDeps, viewer: OffersViewer, input: ListInput = {}): Promise<OfferListPage> {
  const exec = await hasExecTier(deps, viewer);
  const { cards, next, category, q, after } = await listCards(deps, exec, input);
  return { cards, next, query: { category, q, after }, exec };
}

/** `/offers/exec`: the EXEC offers for a member of the tier; for anyone else, what EXEC is (and how many offers it holds). */
export async function execOffers(deps: OffersDeps, viewer: OffersViewer, input: ListInput = {}): Promise<ExecPageView> {
  if (await hasExecTier(deps, viewer)) {
    const { cards, next, category, q, after } = await listCards(deps, true, { ...input, tier: 'exec' });
    return { hasTier: true, page: { cards, next, query: { category, q, after }, exec: true } };
  }
  const row = await selectInCommunityAs(deps.db, 'offers', 'o', deps.community)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('o.tier', '=', 'exec')
    .where(liveAt(deps.clock.now()))
    .executeTakeFirst();
  return { hasTier: false, count: Number(row?.n ?? 0) };
}

/** The offer with its partner and the viewer's redemption, in one statement. */
async function loadOffer(deps: OffersDeps, viewer: OffersViewer, id: number) {
  const row = await selectInCommunityAs(deps.db, 'offers', 'o', deps.community)
    .innerJoin('partners as p', 'p.id', 'o.partner_id')
    .leftJoin('offer_redemptions as r', (j) => j.onRef('r.offer_id', '=', 'o.id').on('r.user_id', '=', viewer.userId))
    .select([
      'o.id',
      'o.title',
      'o.value_line',
      'o.description_html',
      'o.category',
      'o.tier',
      'o.redemption',
      'o.code',
      'o.link',
      'o.terms',
      'o.starts_at',
      'o.ends_at',
      'o.featured',
      'o.status',
      'p.id as partner_id',
      'p.name as partner_name',
      'p.website',
      'p.logo',
      'r.created_at as redeemed_at',
    ])
    .where('o.id', '=', id)
    .executeTakeFirst();
  // A draft is the staff's until it is published: to a member it does not exist.
  if (!row || (row.status === 'draft' && !viewer.isStaff)) throw notFound();
  return row;
}

type Loaded = Awaited<ReturnType<typeof loadOffer>>;

function redeemView(row: Loaded, conciergeEmail: string): OfferRedeemView {
  const at = row.redeemed_at;
  if (row.redemption === 'code') return at ? { kind: 'code', revealed: true, code: row.code ?? '', at } : { kind: 'code', revealed: false };
  if (row.redemption === 'link') return { kind: 'link', link: row.link ?? '', redeemed: Boolean(at) };
  return at ? { kind: 'concierge', requested: true, at, conciergeEmail } : { kind: 'concierge', requested: false };
}

function viewOf(row: Loaded, exec: boolean, deps: OffersDeps): OfferView {
  const availability = availabilityOf(row, deps.clock.now());
  const locked = row.tier === 'exec' && !exec ? ('exec' as const) : null;
  // What was already revealed stays with the member (their code), even after the offer ends.
  const redeem = locked ? null : availability === 'live' || row.redeemed_at ? redeemView(row, deps.community.concierge_email) : null;
  return {
    id: row.id,
    title: row.title,
    valueLine: row.value_line,
    descriptionHtml: row.description_html,
    category: row.category,
    tier: row.tier,
    terms: row.terms,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    featured: row.featured,
    availability,
    partner: { id: row.partner_id, name: row.partner_name, website: row.website, logo: logoOf(row.logo) },
    redeem,
    locked,
  };
}

/** `/offers/{offerId}`: the offer, how to redeem it, and what the member already revealed or requested. */
export async function getOffer(deps: OffersDeps, viewer: OffersViewer, offerId: unknown): Promise<OfferView> {
  const id = offerIdOf(offerId);
  const [row, exec] = await Promise.all([loadOffer(deps, viewer, id), hasExecTier(deps, viewer)]);
  return viewOf(row, exec, deps);
}

/**
 * Redeems an offer: reveals its code, follows its link, or requests it through the concierge.
 * Recorded once per member and offer (the unique key: a second press, or two at once, records
 * nothing more); the concierge's mail is queued in the same transaction by the press that recorded
 * it, so it goes once. EXEC offers need the tier; an offer not running now is 'Offers.NotAvailable'.
 */
export async function redeemOffer(deps: OffersDeps, viewer: OffersViewer, offerId: unknown): Promise<OfferView> {
  const id = offerIdOf(offerId);
  const [row, exec] = await Promise.all([loadOffer(deps, viewer, id), hasExecTier(deps, viewer)]);
  if (row.tier === 'exec' && !exec) throw new AppError('Offers.ExecOnly');
  if (row.redeemed_at) return viewOf(row, exec, deps);
  if (availabilityOf(row, deps.clock.now()) !== 'live') throw new AppError('Offers.NotAvailable');
  const at = await offersTransaction(deps.db, async (trx) => {
    const inserted = await insertInCommunity(trx, 'offer_redemptions', deps.community, { offer_id: id, user_id: viewer.userId, created_at: deps.clock.now() })
      .onConflict((oc) => oc.columns(['offer_id', 'user_id']).doNothing())
      .returning('created_at')
      .executeTakeFirst();
    if (!inserted) {
      const existing = await selectInCommunity(trx, 'offer_redemptions', deps.community).select('created_at').where('offer_id', '=', id).where('user_id', '=', viewer.userId).executeTakeFirstOrThrow();
      return existing.created_at;
    }
    if (row.redemption === 'concierge') await mailConcierge(deps, trx, viewer, row);
    return inserted.created_at;
  });
  return viewOf({ ...row, redeemed_at: at }, exec, deps);
}

/** The concierge's mail: who asked for which offer, with the member's details to reach them. */
async function mailConcierge(deps: OffersDeps, trx: Parameters<Parameters<typeof offersTransaction>[1]>[0], viewer: OffersViewer, row: Loaded) {
  const member = await selectInCommunity(trx, 'memberships', deps.community)
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.first_name', 'users.last_name', 'users.email', 'users.mobile_country_code', 'users.mobile_number', 'memberships.company_name', 'memberships.job_title'])
    .where('memberships.user_id', '=', viewer.userId)
    .executeTakeFirst();
  const c = deps.community;
  const t = deps.t;
  const name = member ? `${member.first_name} ${member.last_name}`.trim() : `#${viewer.userId}`;
  await deps.messages.mail(trx, {
    to: c.concierge_email,
    from: `"${c.name.replace(/"/g, '')}" <${deps.mailFrom}>`,
    subject: t('offers.mail.subject', { offer: row.title, member: name }),
    text: t('offers.mail.text', {
      member: name,
      email: member?.email ?? '',
      phone: member?.mobile_number ? `${member.mobile_country_code ?? ''} ${member.mobile_number}`.trim() : '—',
      company: member?.company_name ?? '—',
      title: member?.job_title ?? '—',
      offer: row.title,
      valueLine: row.value_line,
      partner: row.partner_name,
      link: `${deps.publicUrl}/admin/marketplace/offers/${row.id}`,
      community: c.name,
    }),
    headers: { 'Reply-To': member?.email ?? c.concierge_email },
  });
}
