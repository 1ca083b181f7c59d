import { randomBytes } from 'node:crypto';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { renderUpload, type ImageRefusal } from '#src/lib/images.ts';
import { parseId } from '#src/core/ids.ts';
import { ensureStaff, offersTransaction, type OffersDeps, type OffersViewer } from './deps.ts';
import { isWebUrl } from './offer-input.ts';
import { logoOf } from './queries.ts';
import type { PartnerRow } from './types.ts';

/**
 * The community's partners (staff only): name, website, contact, and a logo uploaded the way avatars
 * are (checked by its bytes, never its name or declared type; decoded within limits; fitted into a
 * 240 px box by sharp as WebP and stored in the database, served at /offers/logos/{key}.webp).
 */

export type PartnerForm = { name: string; website: string; contact: string };

export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
const LOGO_MAX_PIXELS = 25_000_000;
const LOGO_MAX_SIDE = 6000;
const LOGO_BOX = 240;
const LOGO_FORMATS = ['jpeg', 'png', 'webp'];

const invalid = (field: string, key: string, values?: Record<string, unknown>) => ({ code: 'Offers.Invalid' as const, key: `offers.partners.errors.${key}`, values });

function partnerColumnsOf(form: PartnerForm) {
  const fields: FieldErrors = {};
  const name = form.name.trim();
  const website = form.website.trim();
  const contact = form.contact.trim();
  if (!name) fields.name = invalid('name', 'nameRequired');
  else if (name.length > 100) fields.name = invalid('name', 'tooLong', { max: 100 });
  else if (hasForbiddenCharacters(name)) fields.name = invalid('name', 'characters');
  if (website && (website.length > 2000 || !isWebUrl(website))) fields.website = invalid('website', 'websiteInvalid');
  if (contact.length > 500) fields.contact = invalid('contact', 'tooLong', { max: 500 });
  else if (hasForbiddenCharacters(contact, true)) fields.contact = invalid('contact', 'characters');
  if (Object.keys(fields).length) throw new AppError('Offers.Invalid', { fields });
  return { name, website: website || null, contact };
}

const nameTaken = () => new AppError('Offers.Invalid', { fields: { name: invalid('name', 'nameTaken') } });
const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === '23505';

export function partnerIdOf(value: unknown): number {
  const id = parseId(value);
  if (id === null) throw new AppError('Offers.PartnerNotFound');
  return id;
}

/** Every partner of the community, by name, with how many offers each has. */
export async function listPartners(deps: OffersDeps, viewer: OffersViewer): Promise<PartnerRow[]> {
  ensureStaff(viewer);
  const rows = await selectInCommunityAs(deps.db, 'partners', 'p', deps.community)
    .select((eb) => ['p.id', 'p.name', 'p.website', 'p.contact', 'p.logo', eb.selectFrom('offers as o').select(eb.fn.countAll<number>().as('n')).whereRef('o.partner_id', '=', 'p.id').as('offers')])
    .orderBy((eb) => eb.fn('lower', ['p.name']))
    .orderBy('p.id')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, website: r.website, contact: r.contact, logo: logoOf(r.logo), offers: Number(r.offers ?? 0) }));
}

export async function createPartner(deps: OffersDeps, viewer: OffersViewer, form: PartnerForm): Promise<number> {
  ensureStaff(viewer);
  const columns = partnerColumnsOf(form);
  try {
    const { id } = await insertInCommunity(deps.db, 'partners', deps.community, columns).returning('id').executeTakeFirstOrThrow();
    return id;
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
}

export async function updatePartner(deps: OffersDeps, viewer: OffersViewer, partnerId: unknown, form: PartnerForm): Promise<number> {
  ensureStaff(viewer);
  const id = partnerIdOf(partnerId);
  const columns = partnerColumnsOf(form);
  try {
    const done = await updateInCommunity(deps.db, 'partners', deps.community).set({ ...columns, updated_at: deps.clock.now() }).where('id', '=', id).executeTakeFirst();
    if (!done.numUpdatedRows) throw new AppError('Offers.PartnerNotFound');
    return id;
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken();
    throw e;
  }
}

/** A partner with no offers may be deleted; one with offers stays (its offers' history points at it). */
export async function deletePartner(deps: OffersDeps, viewer: OffersViewer, partnerId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = partnerIdOf(partnerId);
  await offersTransaction(deps.db, async (trx) => {
    const used = await selectInCommunity(trx, 'offers', deps.community).select('id').where('partner_id', '=', id).limit(1).executeTakeFirst();
    if (used) throw new AppError('Offers.PartnerInUse');
    const done = await deleteInCommunity(trx, 'partners', deps.community).where('id', '=', id).executeTakeFirst();
    if (!done.numDeletedRows) throw new AppError('Offers.PartnerNotFound');
  });
}

const LOGO_KEYS = { missing: 'logoMissing', tooLarge: 'logoTooLarge', type: 'logoType', dimensions: 'logoType' } as const;
const logoRefused = (why: ImageRefusal) => new AppError('Offers.Invalid', { fields: { logo: invalid('logo', LOGO_KEYS[why], { max: LOGO_MAX_BYTES / 1024 / 1024 }) } });

/** The logo as WebP fitted in a 240 px box on white, or 'Offers.Invalid' on the field `logo` (src/lib/images.ts checks it first). */
export const renderLogo = (bytes: Buffer): Promise<Buffer> =>
  renderUpload(bytes, { maxBytes: LOGO_MAX_BYTES, maxPixels: LOGO_MAX_PIXELS, maxSide: LOGO_MAX_SIDE, formats: LOGO_FORMATS }, logoRefused, (image) =>
    image.resize(LOGO_BOX, LOGO_BOX, { fit: 'contain', background: '#ffffff' }).flatten({ background: '#ffffff' }).webp({ quality: 85 }).toBuffer(),
  );

/** Stores an uploaded logo under a new key (a key never changes: the address is cached for good) and drops the partner's older ones. */
export async function savePartnerLogo(deps: OffersDeps, viewer: OffersViewer, partnerId: unknown, bytes: Buffer): Promise<void> {
  ensureStaff(viewer);
  const id = partnerIdOf(partnerId);
  const exists = await selectInCommunity(deps.db, 'partners', deps.community).select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) throw new AppError('Offers.PartnerNotFound');
  const webp = await renderLogo(bytes);
  const key = randomBytes(18).toString('base64url');
  await offersTransaction(deps.db, async (trx) => {
    await deleteInCommunity(trx, 'partner_logos', deps.community).where('partner_id', '=', id).execute();
    await insertInCommunity(trx, 'partner_logos', deps.community, { key, partner_id: id, content_type: 'image/webp', bytes: webp }).execute();
    await updateInCommunity(trx, 'partners', deps.community).set({ logo: `upload:${key}`, updated_at: deps.clock.now() }).where('id', '=', id).execute();
  });
}

/** An uploaded logo of the community, or undefined. */
export async function readPartnerLogo(deps: Pick<OffersDeps, 'db' | 'community'>, key: string) {
  return selectInCommunity(deps.db, 'partner_logos', deps.community).select(['bytes', 'content_type']).where('key', '=', key).executeTakeFirst();
}
