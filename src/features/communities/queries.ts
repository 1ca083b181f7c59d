import type { Db } from '#src/db/index.ts';
import { crossCommunity } from '#src/db/tenancy.ts';
import type { Community } from '#src/db/types.ts';

export async function findCommunityByHost(db: Db, host: string): Promise<Community | undefined> {
  // The community of a request by host (named cross-community query).
  return crossCommunity(db)
    .selectFrom('community_hosts')
    .innerJoin('communities', 'communities.id', 'community_hosts.community_id')
    .selectAll('communities')
    .where('community_hosts.host', '=', host.toLowerCase())
    .executeTakeFirst();
}

export async function findCommunityByCode(db: Db, code: string): Promise<Community | undefined> {
  return db.selectFrom('communities').selectAll().where('code', '=', code).executeTakeFirst();
}

export async function findCommunityById(db: Db, id: number): Promise<Community | undefined> {
  return db.selectFrom('communities').selectAll().where('id', '=', id).executeTakeFirst();
}

