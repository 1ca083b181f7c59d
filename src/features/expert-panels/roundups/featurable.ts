import { sql, type RawBuilder } from 'kysely';
import type { Tenant } from '#src/db/tenancy.ts';

/**
 * The published (FINAL) roundups, as rows `(id, title, path, at)` for the members' feed (the feeds
 * area): searched when staff feature one, and checked each time the feed is read. `path` is the
 * roundup's live page (read.ts livePathOf: a slug is lower-case letters, digits and hyphens).
 */
export function featurableRoundups(community: Tenant): RawBuilder<unknown> {
  return sql`select r.id, r.title, '/expert-panels/roundups/' || r.slug as path, r.published_at as at from ep_roundups r
    where r.community_id = ${community.id} and r.status = 'FINAL' and r.slug is not null`;
}
