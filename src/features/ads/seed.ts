import type { RawDb } from '#src/db/index.ts';

/** The demo's two partner ads (a masthead and a medium square) in every demo community. */
export async function seedAds(trx: RawDb, communityIds: readonly number[]): Promise<void> {
  await trx
    .insertInto('ads')
    .values(
      communityIds.flatMap((id) => [
        { community_id: id, shape: 'MASTHEAD' as const, image_url: 'img/ads/masthead-partner.svg', link: 'https://example.com/partners/ledgerly', alt_text: 'Ledgerly: bookkeeping for growing companies. Members save 20%.' },
        { community_id: id, shape: 'MEDIUM_SQUARE' as const, image_url: 'img/ads/square-retreat.svg', link: 'https://example.com/partners/retreat', alt_text: 'Leadership Retreat 2027: reserve your seat.' },
      ]),
    )
    .execute();
}
