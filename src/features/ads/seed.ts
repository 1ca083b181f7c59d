import type { RawDb } from '#src/db/index.ts';

const DAY_MS = 86_400_000;

/**
 * The demo's ads in every demo community: a live masthead and medium square with three weeks of
 * impressions and clicks behind them (members' pages on weekdays, fewer at weekends, about 0.4% of
 * views pressed), and a second medium square scheduled to start next week.
 */
export async function seedAds(trx: RawDb, communityIds: readonly number[], now = new Date()): Promise<void> {
  const inserted = await trx
    .insertInto('ads')
    .values(
      communityIds.flatMap((id) => [
        { community_id: id, shape: 'MASTHEAD' as const, image_url: 'img/ads/masthead-partner.svg', link: 'https://example.com/partners/ledgerly', alt_text: 'Ledgerly: bookkeeping for growing companies. Members save 20%.', starts_at: new Date(now.getTime() - 21 * DAY_MS) },
        { community_id: id, shape: 'MEDIUM_SQUARE' as const, image_url: 'img/ads/square-retreat.svg', link: 'https://example.com/partners/retreat', alt_text: 'Leadership Retreat 2027: reserve your seat.' },
        {
          community_id: id,
          shape: 'MEDIUM_SQUARE' as const,
          image_url: 'img/ads/square-retreat.svg',
          link: 'https://example.com/partners/retreat/early-bird',
          alt_text: 'Leadership Retreat 2027: early-bird seats for members.',
          starts_at: new Date(now.getTime() + 7 * DAY_MS),
          ends_at: new Date(now.getTime() + 37 * DAY_MS),
        },
      ]),
    )
    .returning(['id', 'community_id', 'starts_at'])
    .execute();
  // A steady made-up history (the same every seed): views by weekday, a click rate by ad.
  const history = inserted
    .filter((ad) => !ad.starts_at || ad.starts_at.getTime() <= now.getTime())
    .flatMap((ad, n) =>
      Array.from({ length: 21 }, (_, i) => {
        const day = new Date(now.getTime() - (i + 1) * DAY_MS);
        const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6;
        const impressions = (weekend ? 180 : 640) + ((ad.id * 37 + i * 53) % 120);
        const clicks = Math.round(impressions * (n % 2 ? 0.006 : 0.004)) + ((i + ad.id) % 3);
        return { community_id: ad.community_id, ad_id: ad.id, day: day.toISOString().slice(0, 10), impressions, clicks };
      }),
    );
  if (history.length) await trx.insertInto('ad_daily_counts').values(history).execute();
}
