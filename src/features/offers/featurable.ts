import { sql, type RawBuilder } from 'kysely';
import type { Tenant } from '#src/db/tenancy.ts';

/**
 * The offers the members' feed (the feeds area) may feature: published, running at `now`, and for
 * every member (an EXEC offer is not: most members could not open it). Rows `(id, title, path, at)`,
 * searched when staff feature one and checked each time the feed is read, so an offer withdrawn or
 * ended since is no longer shown.
 */
export function featurableOffers(community: Tenant, now: Date): RawBuilder<unknown> {
  return sql`select o.id, o.title, '/offers/' || o.id as path, coalesce(o.starts_at, o.created_at) as at from offers o
    where o.community_id = ${community.id} and o.status = 'published' and o.tier = 'everyone'
      and (o.starts_at is null or o.starts_at <= ${now}) and (o.ends_at is null or o.ends_at > ${now})`;
}
