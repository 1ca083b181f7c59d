import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Ad } from '#src/db/types.ts';
import { adCounterFor } from './counter.ts';

/**
 * The ads members see: the community's live ones (active, and inside their schedule when they have
 * one). The active ads are read at most every 30 seconds per process; the schedule is applied to them
 * on every call, so an ad starts and ends on time whatever the cache holds. A change by the staff
 * forgets this process's copy at once (the other processes' within 30 seconds).
 */

const TTL_MS = 30_000;
const cache = new WeakMap<Db, Map<number, { ads: Ad[]; at: number }>>();

/** Whether an ad is shown at `now`: active, started (or no start), not ended (or no end). */
export function isLive(ad: Pick<Ad, 'is_active' | 'starts_at' | 'ends_at'>, now: Date): boolean {
  const t = now.getTime();
  return ad.is_active && (!ad.starts_at || ad.starts_at.getTime() <= t) && (!ad.ends_at || ad.ends_at.getTime() > t);
}

/** The community's live ads, in id order. */
export async function listLiveAds(db: Db, community: Tenant, clock: Clock): Promise<Ad[]> {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const now = clock.now();
  let hit = perDb.get(community.id);
  if (!hit || now.getTime() - hit.at >= TTL_MS || now.getTime() < hit.at) {
    const ads = await selectInCommunity(db, 'ads', community).selectAll().where('is_active', '=', true).orderBy('id').execute();
    perDb.set(community.id, (hit = { ads, at: now.getTime() }));
  }
  return hit.ads.filter((ad) => isLive(ad, now));
}

/** Forgets this process's copy of the community's ads (after the staff change one). */
export function forgetAds(db: Db, community: Tenant): void {
  cache.get(db)?.delete(community.id);
}

export type PickedAds = { masthead: Ad | null; mediumSquare: Ad | null };

/** One masthead (700x50) and one medium square (240x240), rotating between page views. */
export async function pickAds(db: Db, community: Tenant, clock: Clock): Promise<PickedAds> {
  const ads = await listLiveAds(db, community, clock);
  const pick = (shape: Ad['shape']) => {
    const options = ads.filter((a) => a.shape === shape);
    return options.length ? options[Math.floor(Math.random() * options.length)]! : null;
  };
  return { masthead: pick('MASTHEAD'), mediumSquare: pick('MEDIUM_SQUARE') };
}

/** A page showed these ads: counted in memory, written by the next flush (counter.ts), never now. */
export function countImpressions(db: Db, clock: Clock, community: Tenant, shown: readonly (Ad | null)[]): void {
  const counter = adCounterFor(db, clock);
  for (const ad of shown) if (ad) counter.impression(community.id, ad.id);
}

/** The app path of an ad's click (counted, then redirected to its link): what pages and clients link to. */
export const adClickPath = (id: number) => `/ads/${id}/click`;

/** An ad's picture: an uploaded one is an app path (`/ads/images/…`), the demo's a static asset. */
export function adImageUrl(imageUrl: string, basePath: string): string {
  return imageUrl.startsWith('/') ? `${basePath}${imageUrl}` : imageUrl;
}

/** An ad as the API gives it (spec section 3: id, imageUrl, link, shape), with the counted click address. */
export function adClientData(ad: Ad, basePath = '') {
  return { id: ad.id, imageUrl: adImageUrl(ad.image_url, basePath), link: ad.link, shape: ad.shape, clickUrl: `${basePath}${adClickPath(ad.id)}` };
}
