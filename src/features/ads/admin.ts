import { randomBytes } from 'node:crypto';
import sharp, { type Metadata } from 'sharp';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import type { Clock } from '#src/core/clock.ts';
import { ConcurrencyGate } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, updateInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Ad } from '#src/db/types.ts';
import { adCounterFor } from './counter.ts';
import { forgetAds, isLive } from './service.ts';
import type { AdDraft, AdShape, AdStatus, StaffAd, StaffAdDay } from './types.ts';

/**
 * The staff's ads (issue 27, /admin/marketplace/ads): upload the art at the exact size of its shape
 * (spec section 9: masthead 700x50, medium square 240x240), a link, a schedule, active or not; the
 * list with each ad's impressions and clicks. The art is checked by its bytes (never its name or
 * declared type), re-encoded by sharp (nothing but pixels is kept) and stored in the database like
 * the avatars, served at /ads/images/{key}.webp.
 */

export const AD_SIZES: Record<AdShape, { width: number; height: number }> = {
  MASTHEAD: { width: 700, height: 50 },
  MEDIUM_SQUARE: { width: 240, height: 240 },
};
export const AD_SHAPES = Object.keys(AD_SIZES) as AdShape[];
export const AD_MAX_BYTES = 2 * 1024 * 1024;
const AD_FORMATS = ['jpeg', 'png', 'webp'];
export const AD_LIMITS = { link: 2000, altText: 200 } as const;

export type AdDeps = { db: Db; clock: Clock; community: Tenant };

const field = (name: string, code: FieldErrors[string]['code'], key: string, values?: Record<string, unknown>): FieldErrors => ({ [name]: { code, key, values } });
const refuse = (fields: FieldErrors) => new AppError('Ads.Invalid', { fields });

/** A new image key: 144 random bits, URL-safe (a key is never reused, so its bytes never change). */
const newImageKey = () => randomBytes(18).toString('base64url');
export const IMAGE_KEY = /^[A-Za-z0-9_-]{24}$/;
export const adImagePath = (key: string) => `/ads/images/${key}.webp`;

/** Art rendered at once per process: a burst of uploads waits its turn, then a 429. */
const rendering = new ConcurrencyGate(1, 8, () => new AppError('Busy.Uploads'));

/** The art for a shape, checked and re-encoded as WebP; refused beside the field `image` otherwise. */
export async function renderAdImage(bytes: Buffer | undefined, shape: AdShape): Promise<{ bytes: Buffer; width: number; height: number }> {
  const size = AD_SIZES[shape];
  if (!bytes || bytes.length === 0) throw refuse(field('image', 900, 'ads.form.errors.imageMissing'));
  if (bytes.length > AD_MAX_BYTES) throw refuse(field('image', 'Ads.Invalid', 'ads.form.errors.imageTooLarge', { mb: AD_MAX_BYTES / 1024 / 1024 }));
  let meta: Metadata;
  try {
    // The header alone: nothing is decoded before the size is known to be the right one.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse(field('image', 'Ads.Invalid', 'ads.form.errors.imageType'));
  }
  if (!meta.format || !AD_FORMATS.includes(meta.format) || (meta.pages ?? 1) > 1) throw refuse(field('image', 'Ads.Invalid', 'ads.form.errors.imageType'));
  if (meta.width !== size.width || meta.height !== size.height || (meta.orientation ?? 1) > 4) {
    throw refuse(field('image', 'Ads.Invalid', 'ads.form.errors.imageSize', { width: meta.width ?? 0, height: meta.height ?? 0, expectedWidth: size.width, expectedHeight: size.height }));
  }
  return rendering.run(async () => {
    try {
      const out = await sharp(bytes, { limitInputPixels: size.width * size.height, failOn: 'error' })
        .webp(meta.format === 'png' ? { lossless: true } : { quality: 90 })
        .toBuffer();
      return { bytes: out, width: size.width, height: size.height };
    } catch {
      // A header that passes but bytes that do not decode (truncated, corrupt).
      throw refuse(field('image', 'Ads.Invalid', 'ads.form.errors.imageType'));
    }
  });
}

/** A date and time from the form (datetime-local, read as UTC) or an ISO string; '' is none. */
function parseWhen(value: string): Date | null | undefined {
  const v = value.trim();
  if (!v) return null;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(v)) return undefined;
  const zoned = /(Z|[+-]\d{2}:\d{2})$/.test(v) ? v : v.includes('T') ? `${v}Z` : `${v}T00:00Z`;
  const d = new Date(zoned);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 2000 || d.getUTCFullYear() > 2200 ? undefined : d;
}

/** Web links only: http or https, a host, no credentials in it. */
function parseLink(value: string): string | undefined {
  const v = value.trim();
  if (!v || v.length > AD_LIMITS.link || /[\s\u0000-\u001f\u007f]/.test(v)) return undefined;
  try {
    const url = new URL(v);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname || url.username || url.password) return undefined;
    return url.toString();
  } catch {
    return undefined;
  }
}

export type CheckedAd = { shape: AdShape; link: string; altText: string; startsAt: Date | null; endsAt: Date | null; isActive: boolean };

/** The form's fields checked, each refusal beside its field (all of them at once). */
export function checkAdDraft(draft: AdDraft): CheckedAd {
  const fields: FieldErrors = {};
  const shape = AD_SHAPES.find((s) => s === draft.shape);
  if (!shape) Object.assign(fields, field('shape', 900, 'ads.form.errors.shape'));
  const link = parseLink(draft.link);
  if (!draft.link.trim()) Object.assign(fields, field('link', 900, 'ads.form.errors.linkMissing'));
  else if (!link) Object.assign(fields, field('link', 100, 'ads.form.errors.link', { max: AD_LIMITS.link }));
  const altText = draft.altText.trim().replace(/\s+/g, ' ');
  if (!altText) Object.assign(fields, field('altText', 900, 'ads.form.errors.altTextMissing'));
  else if (altText.length > AD_LIMITS.altText || /[\u0000-\u001f\u007f]|[\ud800-\udfff]/.test(altText.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) {
    Object.assign(fields, field('altText', 'Ads.Invalid', 'ads.form.errors.altText', { max: AD_LIMITS.altText }));
  }
  const startsAt = parseWhen(draft.startsAt);
  const endsAt = parseWhen(draft.endsAt);
  if (startsAt === undefined) Object.assign(fields, field('startsAt', 140, 'ads.form.errors.date'));
  if (endsAt === undefined) Object.assign(fields, field('endsAt', 140, 'ads.form.errors.date'));
  if (startsAt && endsAt && endsAt.getTime() <= startsAt.getTime()) Object.assign(fields, field('endsAt', 140, 'ads.form.errors.endsBeforeStart'));
  if (Object.keys(fields).length) throw refuse(fields);
  return { shape: shape!, link: link!, altText, startsAt: startsAt!, endsAt: endsAt!, isActive: draft.isActive };
}

/** Creates an ad from the form and its art: its id. */
export async function createAd(deps: AdDeps, draft: AdDraft, image: Buffer | undefined): Promise<number> {
  let checked: CheckedAd | null = null;
  let problems: FieldErrors = {};
  try {
    checked = checkAdDraft(draft);
  } catch (e) {
    if (!(e instanceof AppError) || !e.fields) throw e;
    problems = e.fields;
  }
  // The art is checked too (against the shape chosen), so every message shows at once.
  const shape = AD_SHAPES.find((s) => s === draft.shape);
  let art: Awaited<ReturnType<typeof renderAdImage>> | null = null;
  if (shape) {
    try {
      art = await renderAdImage(image, shape);
    } catch (e) {
      if (!(e instanceof AppError) || !e.fields) throw e;
      problems = { ...problems, ...e.fields };
    }
  }
  if (!checked || !art || Object.keys(problems).length) throw refuse(problems);
  const key = newImageKey();
  const { shape: s, link, altText, startsAt, endsAt, isActive } = checked;
  const id = await deps.db.transaction().execute(async (trx) => {
    await insertInCommunity(trx, 'ad_images', deps.community, { key, content_type: 'image/webp', width: art.width, height: art.height, bytes: art.bytes }).execute();
    const row = await insertInCommunity(trx, 'ads', deps.community, { shape: s, image_url: adImagePath(key), link, alt_text: altText, starts_at: startsAt, ends_at: endsAt, is_active: isActive })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
  forgetAds(deps.db, deps.community);
  return id;
}

/** Changes an ad's link, words, schedule and state, and its art when a new one is given (its shape stays). */
export async function updateAd(deps: AdDeps, id: number, draft: Omit<AdDraft, 'shape'>, image: Buffer | undefined): Promise<void> {
  const ad = await findAd(deps, id);
  let checked: CheckedAd | null = null;
  let problems: FieldErrors = {};
  try {
    checked = checkAdDraft({ ...draft, shape: ad.shape });
  } catch (e) {
    if (!(e instanceof AppError) || !e.fields) throw e;
    problems = e.fields;
  }
  let art: Awaited<ReturnType<typeof renderAdImage>> | null = null;
  if (image && image.length > 0) {
    try {
      art = await renderAdImage(image, ad.shape);
    } catch (e) {
      if (!(e instanceof AppError) || !e.fields) throw e;
      problems = { ...problems, ...e.fields };
    }
  }
  if (!checked || Object.keys(problems).length) throw refuse(problems);
  const { link, altText, startsAt, endsAt, isActive } = checked;
  await deps.db.transaction().execute(async (trx) => {
    let imageUrl = ad.image_url;
    if (art) {
      const key = newImageKey();
      await insertInCommunity(trx, 'ad_images', deps.community, { key, content_type: 'image/webp', width: art.width, height: art.height, bytes: art.bytes }).execute();
      imageUrl = adImagePath(key);
      const old = /^\/ads\/images\/([A-Za-z0-9_-]+)\.webp$/.exec(ad.image_url)?.[1];
      if (old) await deleteInCommunity(trx, 'ad_images', deps.community).where('key', '=', old).execute();
    }
    await updateInCommunity(trx, 'ads', deps.community)
      .set({ link, alt_text: altText, starts_at: startsAt, ends_at: endsAt, is_active: isActive, image_url: imageUrl, updated_at: deps.clock.now() })
      .where('id', '=', ad.id)
      .execute();
  });
  forgetAds(deps.db, deps.community);
}

/** The community's ad, or Ads.NotFound (another community's is the same answer as none). */
export async function findAd(deps: Pick<AdDeps, 'db' | 'community'>, id: number): Promise<Ad> {
  const ad = await selectInCommunity(deps.db, 'ads', deps.community).selectAll().where('id', '=', id).executeTakeFirst();
  if (!ad) throw new AppError('Ads.NotFound');
  return ad;
}

export function statusOf(ad: Pick<Ad, 'is_active' | 'starts_at' | 'ends_at'>, now: Date): AdStatus {
  if (!ad.is_active) return 'inactive';
  if (isLive(ad, now)) return 'live';
  return ad.starts_at && ad.starts_at.getTime() > now.getTime() ? 'scheduled' : 'ended';
}

const toStaff = (ad: Ad, now: Date, counts: { impressions: number; clicks: number } | undefined): StaffAd => ({
  id: ad.id,
  shape: ad.shape,
  imageUrl: ad.image_url,
  link: ad.link,
  altText: ad.alt_text,
  startsAt: ad.starts_at,
  endsAt: ad.ends_at,
  isActive: ad.is_active,
  status: statusOf(ad, now),
  impressions: counts?.impressions ?? 0,
  clicks: counts?.clicks ?? 0,
});

/**
 * The community's ads with their impressions and clicks: what is stored, plus what this process has
 * counted and not yet flushed (another process's unflushed counts arrive within its flush interval).
 */
export async function listStaffAds(deps: AdDeps): Promise<StaffAd[]> {
  const [ads, totals] = await Promise.all([
    selectInCommunity(deps.db, 'ads', deps.community).selectAll().orderBy('id', 'desc').execute(),
    selectInCommunity(deps.db, 'ad_daily_counts', deps.community)
      .select((eb) => ['ad_id', eb.fn.sum<number>('impressions').as('impressions'), eb.fn.sum<number>('clicks').as('clicks')])
      .groupBy('ad_id')
      .execute(),
  ]);
  const pending = adCounterFor(deps.db, deps.clock).pending(deps.community.id);
  const byAd = new Map(totals.map((r) => [r.ad_id, { impressions: Number(r.impressions), clicks: Number(r.clicks) }]));
  const now = deps.clock.now();
  return ads.map((ad) => {
    const stored = byAd.get(ad.id);
    const fresh = pending.get(ad.id);
    return toStaff(ad, now, { impressions: (stored?.impressions ?? 0) + (fresh?.impressions ?? 0), clicks: (stored?.clicks ?? 0) + (fresh?.clicks ?? 0) });
  });
}

/** One ad with its counts, and its last 30 days with any count, newest first. */
export async function staffAd(deps: AdDeps, id: number): Promise<{ ad: StaffAd; days: StaffAdDay[] }> {
  const ad = await findAd(deps, id);
  const counts = selectInCommunity(deps.db, 'ad_daily_counts', deps.community).where('ad_id', '=', ad.id);
  const [days, all] = await Promise.all([
    counts.select(['day', 'impressions', 'clicks']).orderBy('day', 'desc').limit(30).execute(),
    counts.select((eb) => [eb.fn.sum<number>('impressions').as('impressions'), eb.fn.sum<number>('clicks').as('clicks')]).executeTakeFirst(),
  ]);
  const pending = adCounterFor(deps.db, deps.clock).pending(deps.community.id).get(ad.id);
  const total = { impressions: Number(all?.impressions ?? 0) + (pending?.impressions ?? 0), clicks: Number(all?.clicks ?? 0) + (pending?.clicks ?? 0) };
  return { ad: toStaff(ad, deps.clock.now(), total), days: days.map((d) => ({ day: d.day, impressions: Number(d.impressions), clicks: Number(d.clicks) })) };
}

/** One stored picture of the community's ads, or undefined. */
export async function readAdImage(db: Db, community: Tenant, key: string) {
  return selectInCommunity(db, 'ad_images', community).select(['bytes', 'content_type']).where('key', '=', key).executeTakeFirst();
}
