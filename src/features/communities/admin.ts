import { sql } from 'kysely';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity, deleteInCommunity, insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Community } from '#src/db/types.ts';
import { changedFields, CODE_PATTERN, invalid, validateSite, type SiteForm } from './site-form.ts';
import { administered, isPlatformStaff } from './site-staff.ts';

/**
 * Sites (brands as data): the communities an admin administers, created and edited in the admin area
 * (spec section 3, "Community (client data)"). Every transport (the forms, GraphQL) calls these; the
 * caller invalidates its own process's cache after a change, and the NOTIFY sent in the change's
 * transaction tells every other node (see changes.ts).
 */

/** publicHost: the host of the app's public address (PUBLIC_URL), which no site may take. */
export type SiteDeps = { db: Db; publicHost?: string };
/** Who acts: a signed-in user (their ADMIN memberships decide which sites they may see and edit). */
export type SiteActor = { userId: number };

/** The channel every node listens on; a change to a community or its hosts sends it in its transaction. */
export const COMMUNITIES_CHANNEL = 'communities_changed';

/** A host name that is an IP address (v4 or v6) is never a site's: it reaches whatever the server answers. */
const isIpLiteral = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':') || host.startsWith('[');

export type SiteRow = { id: number; code: string; name: string; hosts: string[]; forumEnabled: boolean; memberCount: number; colorPrimary: string };

/** The sites this admin administers, by name, with their hosts and active member counts. */
export async function listSites(deps: SiteDeps, actor: SiteActor): Promise<SiteRow[]> {
  const rows = await deps.db
    .selectFrom('communities')
    .select((eb) => [
      'communities.id',
      'communities.code',
      'communities.name',
      'communities.forum_enabled',
      'communities.color_primary',
      eb
        .selectFrom('memberships')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('memberships.community_id', '=', 'communities.id')
        .where('memberships.is_active', '=', true)
        .as('member_count'),
      eb
        .selectFrom('community_hosts')
        .select(sql<string[]>`coalesce(array_agg(community_hosts.host order by community_hosts.host), '{}')`.as('h'))
        .whereRef('community_hosts.community_id', '=', 'communities.id')
        .as('hosts'),
    ])
    .where('communities.id', 'in', administered(deps.db, actor.userId))
    .orderBy('communities.name')
    .orderBy('communities.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    name: r.name,
    hosts: r.hosts ?? [],
    forumEnabled: r.forum_enabled,
    memberCount: Number(r.member_count ?? 0),
    colorPrimary: r.color_primary,
  }));
}

/** A site this admin administers, with its hosts; NotFound for any other (another brand's existence is not told). */
export async function getSite(deps: SiteDeps, actor: SiteActor, code: string): Promise<{ community: Community; hosts: string[] }> {
  if (!CODE_PATTERN.test(code)) throw new AppError('NotFound');
  const community = await deps.db
    .selectFrom('communities')
    .selectAll()
    .where('code', '=', code)
    .where('id', 'in', administered(deps.db, actor.userId))
    .executeTakeFirst();
  if (!community) throw new AppError('NotFound');
  const hosts = await selectInCommunity(deps.db, 'community_hosts', community).select('host').orderBy('host').execute();
  return { community, hosts: hosts.map((h) => h.host) };
}

/** Host names of this list that another community already has. */
async function takenHosts(trx: Db, hosts: string[], exceptCommunityId: number | null): Promise<string[]> {
  if (!hosts.length) return [];
  // The community of a host (named cross-community query): a host name belongs to one community of all.
  let q = crossCommunity(trx).selectFrom('community_hosts').select('host').where('host', 'in', hosts);
  if (exceptCommunityId !== null) q = q.where('community_id', '<>', exceptCommunityId);
  return (await q.execute()).map((r) => r.host);
}

const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === '23505';

/** Tells every node (their listeners) that communities changed; delivered when the transaction commits. */
export async function announceChange(trx: Db): Promise<void> {
  await sql`select pg_notify(${COMMUNITIES_CHANNEL}, '')`.execute(trx);
}

async function record(trx: Db, community: Tenant, actor: SiteActor, action: 'site.create' | 'site.update', changed: string[]) {
  await insertInCommunity(trx, 'staff_actions', community, { actor_id: actor.userId, member_id: null, action, detail: changed.join(',') }).execute();
}

/**
 * Creates a site. The code is chosen here once and never changes (cookies, bearer tokens and links
 * carry it). The creating admin becomes an ADMIN member of it, so they can administer it.
 */
export async function createSite(deps: SiteDeps, actor: SiteActor, form: SiteForm): Promise<{ id: number; code: string }> {
  if (!(await isPlatformStaff(deps.db, actor.userId))) throw new AppError('Forbidden');
  const site = validateSite(form);
  refuseReservedHosts(deps, site.hosts);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const fields: FieldErrors = {};
      if (await trx.selectFrom('communities').select('id').where('code', '=', site.code).executeTakeFirst()) fields.code = invalid('sites.errors.codeTaken');
      const taken = await takenHosts(trx, site.hosts, null);
      if (taken.length) fields.hosts = invalid('sites.errors.hostTaken', { hosts: taken.join(', ') });
      if (Object.keys(fields).length) throw new AppError('BadRequest.Validation', { fields });
      const created = await trx.insertInto('communities').values({ code: site.code, ...site.columns }).returning(['id', 'code']).executeTakeFirstOrThrow();
      if (site.hosts.length) await insertInCommunity(trx, 'community_hosts', created, site.hosts.map((host) => ({ host }))).execute();
      await insertInCommunity(trx, 'memberships', created, { user_id: actor.userId, roles: ['ADMIN', 'MEMBER'] })
        .onConflict((oc) => oc.columns(['community_id', 'user_id']).doNothing())
        .execute();
      await record(trx, created, actor, 'site.create', ['code', ...changedFields(null, [], site)]);
      await announceChange(trx);
      return created;
    });
  } catch (e) {
    // Two admins creating the same code or host at once: the loser hears it as the field's message.
    if (isUniqueViolation(e)) throw uniqueError(e);
    throw e;
  }
}

/** The deployment's own host and IP literals are never a site's host name. */
function refuseReservedHosts(deps: SiteDeps, hosts: string[]) {
  const reserved = hosts.filter((h) => isIpLiteral(h) || (deps.publicHost && h === deps.publicHost));
  if (reserved.length) throw new AppError('BadRequest.Validation', { fields: { hosts: invalid('sites.errors.hostReserved', { hosts: reserved.join(', ') }) } });
}

function uniqueError(e: unknown): AppError {
  const detail = String((e as { constraint?: string; detail?: string }).constraint ?? '') + String((e as { detail?: string }).detail ?? '');
  return detail.includes('host')
    ? new AppError('BadRequest.Validation', { fields: { hosts: invalid('sites.errors.hostTaken', { hosts: '' }) } })
    : new AppError('BadRequest.Validation', { fields: { code: invalid('sites.errors.codeTaken') } });
}

/**
 * Updates a site this admin administers (the code stays). Returns the names of the changed fields;
 * records them as a staff action when there are any.
 */
export async function updateSite(deps: SiteDeps, actor: SiteActor, code: string, form: SiteForm): Promise<{ id: number; changed: string[] }> {
  const { community, hosts: beforeHosts } = await getSite(deps, actor, code);
  const site = validateSite({ ...form, code: community.code });
  if ([...beforeHosts].sort().join('\n') !== [...site.hosts].sort().join('\n')) {
    if (!(await isPlatformStaff(deps.db, actor.userId))) throw new AppError('BadRequest.Validation', { fields: { hosts: invalid('sites.errors.hostsPlatformOnly') } });
    refuseReservedHosts(deps, site.hosts.filter((h) => !beforeHosts.includes(h)));
  }
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const taken = await takenHosts(trx, site.hosts, community.id);
      if (taken.length) throw new AppError('BadRequest.Validation', { fields: { hosts: invalid('sites.errors.hostTaken', { hosts: taken.join(', ') }) } });
      const changed = changedFields(community, beforeHosts, site);
      if (!changed.length) return { id: community.id, changed };
      await trx.updateTable('communities').set({ ...site.columns, updated_at: new Date() }).where('id', '=', community.id).execute();
      if (changed.includes('hosts')) {
        const removed = beforeHosts.filter((h) => !site.hosts.includes(h));
        const added = site.hosts.filter((h) => !beforeHosts.includes(h));
        if (removed.length) await deleteInCommunity(trx, 'community_hosts', community).where('host', 'in', removed).execute();
        if (added.length) await insertInCommunity(trx, 'community_hosts', community, added.map((host) => ({ host }))).execute();
      }
      await record(trx, community, actor, 'site.update', changed);
      await announceChange(trx);
      return { id: community.id, changed };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw uniqueError(e);
    throw e;
  }
}

export type DashboardLink = { code: string; name: string; url: string | null };

/**
 * The admin area of each site this admin administers, on the site's own host (its first host name),
 * with the scheme and port of the request (or of the app's public address) so local hosts such as
 * summit.localhost:3000 work too. A site without a host name has no address of its own (url null).
 */
export function dashboardLinks(sites: SiteRow[], origin: { protocol: string; port: string | null; basePath: string }): DashboardLink[] {
  return sites.map((s) => {
    const host = s.hosts[0];
    const port = origin.port ? `:${origin.port}` : '';
    return { code: s.code, name: s.name, url: host ? `${origin.protocol}://${host}${port}${origin.basePath}/admin` : null };
  });
}
