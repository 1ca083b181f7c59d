import type { RawDb } from '#src/db/index.ts';
import type { DemoContext } from '#src/features/area.ts';
import type { SyndicationItemType } from '#src/db/types.ts';
import { publishFeedList } from './staff.ts';

/**
 * The demo's syndication feeds, set up by the demo admin: in Summit everything it publishes (its
 * published articles and roundups) and its expert roundups alone; in Harbor its published work (none
 * yet: a valid, empty feed until something is published there). Each is logged as created.
 */

type DemoFeed = { code: string; slug: string; title: string; description: string; types: SyndicationItemType[]; limit: number };

export const DEMO_FEEDS: readonly DemoFeed[] = [
  { code: 'summit', slug: 'summit-everything', title: 'Summit — everything', description: 'Articles our members published and the expert roundups of our panels.', types: ['article', 'roundup'], limit: 20 },
  { code: 'summit', slug: 'expert-roundups', title: 'Summit — expert roundups', description: 'What our expert panels answered, gathered into roundups.', types: ['roundup'], limit: 10 },
  { code: 'harbor', slug: 'harbor-published', title: 'Harbor Founders Network — published work', description: '', types: ['article', 'roundup'], limit: 20 },
];

export async function seedSyndication(trx: RawDb, demo: DemoContext): Promise<void> {
  const at = new Date(Date.now() - 14 * 24 * 3600 * 1000);
  for (const code of new Set(DEMO_FEEDS.map((f) => f.code))) {
    const communityId = demo.byCode[code];
    if (communityId === undefined) continue;
    for (const f of DEMO_FEEDS.filter((d) => d.code === code)) {
      const { id } = await trx
        .insertInto('syndication_feeds')
        .values({ community_id: communityId, slug: f.slug, title: f.title, description: f.description, item_limit: f.limit, enabled: true, created_by: demo.adminId, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('syndication_feed_filters').values(f.types.map((value) => ({ community_id: communityId, feed_id: id, kind: 'type' as const, value }))).execute();
      await trx
        .insertInto('syndication_feed_actions')
        .values({ community_id: communityId, feed_id: id, feed_slug: f.slug, actor_id: demo.adminId, action: 'created', detail: `${f.title} (${f.types.join(', ')}; ${f.limit}; enabled)`, created_at: at })
        .execute();
    }
    await publishFeedList(trx, { id: communityId });
  }
}
