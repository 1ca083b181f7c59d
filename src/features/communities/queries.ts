import type { Db } from '#src/db/index.ts';
import type { Community } from '#src/db/types.ts';

export async function findCommunityByHost(db: Db, host: string): Promise<Community | undefined> {
  return db
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

/** The communities a user belongs to, and whether they are an admin there. */
export async function listCommunitiesOfUser(db: Db, userId: number) {
  return db
    .selectFrom('memberships')
    .innerJoin('communities', 'communities.id', 'memberships.community_id')
    .select(['communities.id', 'communities.code', 'communities.name', 'communities.familiar_name', 'memberships.roles'])
    .where('memberships.user_id', '=', userId)
    .where('memberships.is_active', '=', true)
    .orderBy('communities.name')
    .execute();
}
