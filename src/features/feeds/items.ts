import { sql, type RawBuilder } from 'kysely';
import type { Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';
import { featurableArticles } from '#src/features/articles/index.ts';
import { featurableRoundups } from '#src/features/expert-panels/index.ts';
import { featurablePosts } from '#src/features/forum/index.ts';
import { listedMemberIds } from '#src/features/members/index.ts';
import { featurableOffers } from '#src/features/offers/index.ts';
import type { ItemKind } from './types.ts';

/**
 * The items staff may feature, each kind from its own area's face as rows `(id, title, path, at)`:
 * published articles (of members others may see), published (FINAL) roundups, live offers for every
 * member, the forum's own published posts (where the community has a forum). Each area keeps its rule
 * of what may be seen; the feed asks it again each time it is read, so an item withdrawn, unpublished
 * or removed since leaves the feed without anyone unfeaturing it.
 */

export type ItemsDeps = { db: Db; community: Community };

/** The featurable rows of one kind (none: the forum of a community without one). */
export function featurableOf(deps: ItemsDeps, kind: ItemKind, now: Date): RawBuilder<unknown> | null {
  switch (kind) {
    case 'article':
      return featurableArticles(deps.community, listedMemberIds(deps.db, deps.community));
    case 'roundup':
      return featurableRoundups(deps.community);
    case 'offer':
      return featurableOffers(deps.community, now);
    case 'forum_post':
      return deps.community.forum_enabled ? featurablePosts(deps.community) : null;
  }
}

const KINDS: readonly ItemKind[] = ['article', 'roundup', 'offer', 'forum_post'];

/**
 * A lateral subquery giving the featured row `f` its item as it is now: `(title, path)` when its area
 * still shows it, no row otherwise (and none for an event link). One index lookup, in the branch of
 * the row's kind.
 */
export function liveItemOf(deps: ItemsDeps, now: Date): RawBuilder<unknown> {
  const branches = KINDS.flatMap((kind) => {
    const rows = featurableOf(deps, kind, now);
    return rows ? [sql`select v.title, v.path from (${rows}) v where f.kind = ${kind} and v.id = f.item_id`] : [];
  });
  return sql`(${sql.join(branches, sql` union all `)})`;
}
