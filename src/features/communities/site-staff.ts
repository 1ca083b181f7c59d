import { sql } from 'kysely';
import type { Db } from '#src/db/index.ts';
import { crossCommunity } from '#src/db/tenancy.ts';

/** Who administers which sites: an active membership with the ADMIN role; platform staff administer the `admin` community. */

const isAdminOf = sql<boolean>`'ADMIN' = any(memberships.roles)`;

/** The ids of the communities this user administers (an active membership with the ADMIN role). */
export function administered(db: Db, userId: number) {
  // The staff administering several communities (named cross-community query): their ADMIN places in every community.
  return crossCommunity(db)
    .selectFrom('memberships').select('memberships.community_id').where('memberships.user_id', '=', userId).where('memberships.is_active', '=', true).where(isAdminOf);
}

/** The code of the platform staff's own community (spec section 2: its admins land on the sites page). */
export const PLATFORM_CODE = 'admin';

/**
 * Whether the user is platform staff: an admin of the `admin` community. Only they create sites or
 * change host names: a host name not yet mapped is served as the default community, so a brand's
 * admin who could claim one could put their pages (and sign-in) on the deployment's own address.
 */
export async function isPlatformStaff(db: Db, userId: number): Promise<boolean> {
  const row = await administered(db, userId)
    .innerJoin('communities', 'communities.id', 'memberships.community_id')
    .where('communities.code', '=', PLATFORM_CODE)
    .executeTakeFirst();
  return Boolean(row);
}
