
import { AppError } from '#src/core/errors.ts';
import { htmlToText } from '#src/lib/rich-text.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import type { OfferStatus } from '#src/db/types.ts';
import { ensureStaff, offersTransaction, type OffersDeps, type OffersViewer } from './deps.ts';
import { dayOf, offerColumnsOf } from './offer-input.ts';
import { offerIdOf } from './offers.ts';
import { weekOf } from './queries.ts';
import type { StaffOfferDetail, StaffOfferForm, StaffOfferRow } from './types.ts';

/**
 * The staff's offers (/admin/marketplace, GraphQL's admin operations): the list with each offer's
 * redemption count, one offer's form, status log and redemptions by week, creating and editing, and
 * the status moves (draft → published → withdrawn → published), each logged with who and when.
 */

/** The moves staff may make. */
export const MOVES: Record<OfferStatus, readonly OfferStatus[]> = { draft: ['published'], published: ['withdrawn'], withdrawn: ['published'] };

const STAFF_PAGE = 50;

/** Every offer of the community, newest first, with its redemptions counted; `after` is the last id shown. */
export async function listStaffOffers(deps: OffersDeps, viewer: OffersViewer, input: { status?: OfferStatus | null; after?: number | null } = {}): Promise<{ rows: StaffOfferRow[]; next: number | null }> {
  ensureStaff(viewer);
  let q = selectInCommunityAs(deps.db, 'offers', 'o', deps.community)
    .innerJoin('partners as p', 'p.id', 'o.partner_id')
    .select((eb) => [
      'o.id',
      'o.title',
      'p.name as partner_name',
      'o.category',
      'o.tier',
      'o.status',
      'o.featured',
      'o.position',
      'o.starts_at',
      'o.ends_at',
      eb.selectFrom('offer_redemptions as r').select(eb.fn.countAll<number>().as('n')).whereRef('r.offer_id', '=', 'o.id').as('redemptions'),
    ]);
  if (input.status) q = q.where('o.status', '=', input.status);
  if (input.after) q = q.where('o.id', '<', input.after);
  const rows = await q.orderBy('o.id', 'desc').limit(STAFF_PAGE + 1).execute();
  const page = rows.slice(0, STAFF_PAGE).map((r) => ({
    id: r.id,
    title: r.title,
    partnerName: r.partner_name,
    category: r.category,
    tier: r.tier,
    status: r.status,
    featured: r.featured,
    position: r.position,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    redemptions: Number(r.redemptions ?? 0),
  }));
  return { rows: page, next: rows.length > STAFF_PAGE ? page.at(-1)!.id : null };
}

/** An empty offer form (a new offer). */
export const blankOfferForm = (): StaffOfferForm => ({
  partnerId: '',
  title: '',
  valueLine: '',
  description: '',
  category: '',
  tier: 'everyone',
  redemption: 'code',
  code: '',
  link: '',
  terms: '',
  startsAt: '',
  endsAt: '',
  featured: false,
  position: '0',
});

/** One offer for staff: its form as saved, its status log, and who redeemed it (by week, the latest 50). */
export async function getStaffOffer(deps: OffersDeps, viewer: OffersViewer, offerId: unknown): Promise<StaffOfferDetail> {
  ensureStaff(viewer);
  const id = offerIdOf(offerId);
  const o = await selectInCommunity(deps.db, 'offers', deps.community).selectAll().where('id', '=', id).executeTakeFirst();
  if (!o) throw new AppError('Offers.NotFound');
  const [events, byWeek, recent] = await Promise.all([
    selectInCommunityAs(deps.db, 'offer_status_events', 'e', deps.community)
      .leftJoin('users as u', 'u.id', 'e.actor_id')
      .select(['e.from_status', 'e.to_status', 'e.created_at', 'u.first_name', 'u.last_name'])
      .where('e.offer_id', '=', id)
      .orderBy('e.created_at', 'desc')
      .orderBy('e.id', 'desc')
      .execute(),
    selectInCommunityAs(deps.db, 'offer_redemptions', 'r', deps.community)
      .select([weekOf.as('week'), (eb) => eb.fn.countAll<number>().as('n')])
      .where('r.offer_id', '=', id)
      .groupBy(weekOf)
      .orderBy(weekOf, 'desc')
      .execute(),
    redeemers(deps, id, 50),
  ]);
  return {
    id: o.id,
    status: o.status,
    form: {
      partnerId: String(o.partner_id),
      title: o.title,
      valueLine: o.value_line,
      description: htmlToText(o.description_html),
      category: o.category,
      tier: o.tier,
      redemption: o.redemption,
      code: o.code ?? '',
      link: o.link ?? '',
      terms: o.terms,
      startsAt: dayOf(o.starts_at),
      endsAt: dayOf(o.ends_at, true),
      featured: o.featured,
      position: String(o.position),
    },
    events: events.map((e) => ({ from: e.from_status, to: e.to_status, at: e.created_at, actorName: e.first_name ? `${e.first_name} ${e.last_name}` : null })),
    redemptions: {
      total: byWeek.reduce((n, w) => n + Number(w.n), 0),
      byWeek: byWeek.map((w) => ({ week: w.week, count: Number(w.n) })),
      recent: recent.map((r) => ({ name: r.name, email: r.email, at: r.at })),
    },
  };
}

/** Who redeemed an offer, newest first (`limit`: all when absent): the page's list and the CSV. */
export async function redeemers(deps: Pick<OffersDeps, 'db' | 'community'>, offerId: number, limit?: number) {
  let q = selectInCommunityAs(deps.db, 'offer_redemptions', 'r', deps.community)
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'r.user_id').onRef('m.community_id', '=', 'r.community_id'))
    .select(['u.first_name', 'u.last_name', 'u.email', 'm.company_name', 'r.created_at'])
    .where('r.offer_id', '=', offerId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc');
  if (limit) q = q.limit(limit);
  const rows = await q.execute();
  return rows.map((r) => ({ name: `${r.first_name} ${r.last_name}`.trim(), email: r.email, company: r.company_name, at: r.created_at }));
}

/** Every redeemer of an offer, for the CSV (staff only; another community's offer is not found). */
export async function redeemersForExport(deps: OffersDeps, viewer: OffersViewer, offerId: unknown) {
  ensureStaff(viewer);
  const id = offerIdOf(offerId);
  const o = await selectInCommunity(deps.db, 'offers', deps.community).select(['id', 'title']).where('id', '=', id).executeTakeFirst();
  if (!o) throw new AppError('Offers.NotFound');
  return { offer: o, rows: await redeemers(deps, id) };
}

/** The partner must be the community's own (else the field's message). */
async function ensurePartner(deps: OffersDeps, trx: OffersDeps['db'], partnerId: number) {
  const p = await selectInCommunity(trx, 'partners', deps.community).select('id').where('id', '=', partnerId).executeTakeFirst();
  if (!p) throw new AppError('Offers.Invalid', { fields: { partnerId: { code: 'Offers.Invalid', key: 'offers.staff.errors.partnerRequired' } } });
}

/** A new offer, a draft; its creation is the log's first line. Returns its id. */
export async function createOffer(deps: OffersDeps, viewer: OffersViewer, form: StaffOfferForm, options: { html?: boolean } = {}): Promise<number> {
  ensureStaff(viewer);
  const columns = offerColumnsOf(form, options);
  return offersTransaction(deps.db, async (trx) => {
    await ensurePartner(deps, trx, columns.partner_id);
    const now = deps.clock.now();
    const { id } = await insertInCommunity(trx, 'offers', deps.community, { ...columns, status: 'draft', created_by: viewer.userId, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    await insertInCommunity(trx, 'offer_status_events', deps.community, { offer_id: id, actor_id: viewer.userId, from_status: null, to_status: 'draft', created_at: now }).execute();
    return id;
  });
}

/** Saves an offer's fields (its status moves separately). */
export async function updateOffer(deps: OffersDeps, viewer: OffersViewer, offerId: unknown, form: StaffOfferForm, options: { html?: boolean } = {}): Promise<number> {
  ensureStaff(viewer);
  const id = offerIdOf(offerId);
  const columns = offerColumnsOf(form, options);
  return offersTransaction(deps.db, async (trx) => {
    await ensurePartner(deps, trx, columns.partner_id);
    const done = await updateInCommunity(trx, 'offers', deps.community).set({ ...columns, updated_at: deps.clock.now() }).where('id', '=', id).executeTakeFirst();
    if (!done.numUpdatedRows) throw new AppError('Offers.NotFound');
    return id;
  });
}

/** Moves an offer's status along an allowed move, logged with who and when; a stale move (someone moved it first) is 'Offers.BadMove'. */
export async function moveOffer(deps: OffersDeps, viewer: OffersViewer, offerId: unknown, to: OfferStatus): Promise<OfferStatus> {
  ensureStaff(viewer);
  const id = offerIdOf(offerId);
  return offersTransaction(deps.db, async (trx) => {
    const o = await selectInCommunity(trx, 'offers', deps.community).select('status').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!o) throw new AppError('Offers.NotFound');
    if (!MOVES[o.status].includes(to)) throw new AppError('Offers.BadMove', { values: { from: o.status, to } });
    const now = deps.clock.now();
    await updateInCommunity(trx, 'offers', deps.community).set({ status: to, updated_at: now }).where('id', '=', id).execute();
    await insertInCommunity(trx, 'offer_status_events', deps.community, { offer_id: id, actor_id: viewer.userId, from_status: o.status, to_status: to, created_at: now }).execute();
    return to;
  });
}

