import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import type { Db } from '#src/db/index.ts';
import type { Tenant } from '#src/db/tenancy.ts';
import type { BankFilterOptions } from './types.ts';

/**
 * What the search's filters offer: the community's tags and the authors of its items. Every search
 * page shows them, yet they change rarely: read with one statement at most once a minute per
 * community and process (a tag made or deleted on this node shows at once; elsewhere within the
 * minute), so that a page's statements do not grow with the library.
 */
const TTL_MS = 60_000;
const cache = new Map<number, { at: number; db: Db; value: Promise<BankFilterOptions> }>();

export function filterOptions(db: Db, community: Tenant, clock: Clock): Promise<BankFilterOptions> {
  const now = clock.now().getTime();
  const hit = cache.get(community.id);
  if (hit && hit.db === db && now - hit.at < TTL_MS && now >= hit.at) return hit.value;
  const value = sql<{ tags: { id: number; name: string }[] | string | null; authors: { id: number; name: string }[] | string | null }>`
    select
      (select json_agg(json_build_object('id', t.id, 'name', t.name) order by lower(t.name), t.id) from bank_tags t where t.community_id = ${community.id}) as tags,
      (select json_agg(json_build_object('id', a.id, 'name', a.name) order by lower(a.name), a.id) from (
        select distinct e.author_id as id, coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), e.author_name) as name
        from bank_entries e join users u on u.id = e.author_id where e.community_id = ${community.id}) a) as authors`
    .execute(db)
    .then(({ rows }) => {
      const parse = <T,>(v: T[] | string | null | undefined): T[] => (v == null ? [] : typeof v === 'string' ? (JSON.parse(v) as T[]) : v);
      return { tags: parse(rows[0]?.tags), authors: parse(rows[0]?.authors) };
    });
  value.catch(() => cache.delete(community.id));
  cache.set(community.id, { at: now, db, value });
  return value;
}

/** Forget the cached options (a tag made or deleted on this node; tests). */
export function forgetFilterOptions(community?: Tenant): void {
  if (community) cache.delete(community.id);
  else cache.clear();
}
