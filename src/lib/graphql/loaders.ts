import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';

/** Per-request memoised loads: a field asked for twice in one request reads the database once. */
export function createLoaders(db: Db, community: Tenant) {
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let hit = memo.get(key) as Promise<T> | undefined;
    if (!hit) memo.set(key, (hit = load()));
    return hit;
  };
  return {
    membership: (userId: number) =>
      once(`membership:${community.id}:${userId}`, () =>
        selectInCommunity(db, 'memberships', community)
          .innerJoin('users', 'users.id', 'memberships.user_id')
          .select(['users.mobile_country_code', 'users.mobile_number', 'memberships.id'])
          .where('memberships.user_id', '=', userId)
          .executeTakeFirst(),
      ),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
