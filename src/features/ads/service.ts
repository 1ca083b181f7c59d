import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Ad } from '#src/db/types.ts';

const TTL_MS = 30_000;
const cache = new WeakMap<Db, Map<number, { ads: Ad[]; at: number }>>();

/** The community's active ads, read at most every 30 seconds per process. */
export async function listActiveAds(db: Db, community: Tenant, clock: Clock): Promise<Ad[]> {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const now = clock.now().getTime();
  const hit = perDb.get(community.id);
  if (hit && now - hit.at < TTL_MS) return hit.ads;
  const ads = await selectInCommunity(db, 'ads', community).selectAll().where('is_active', '=', true).orderBy('id').execute();
  perDb.set(community.id, { ads, at: now });
  return ads;
}

/** One masthead (700x50) and one medium square (240x240), rotating between page views. */
export async function pickAds(db: Db, community: Tenant, clock: Clock) {
  const ads = await listActiveAds(db, community, clock);
  const pick = (shape: Ad['shape']) => {
    const options = ads.filter((a) => a.shape === shape);
    return options.length ? options[Math.floor(Math.random() * options.length)]! : null;
  };
  return { masthead: pick('MASTHEAD'), mediumSquare: pick('MEDIUM_SQUARE') };
}

export function adClientData(ad: Ad) {
  return { id: ad.id, imageUrl: ad.image_url, link: ad.link, shape: ad.shape };
}
