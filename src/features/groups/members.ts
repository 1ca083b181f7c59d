import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import type { GroupRole } from '#src/db/types.ts';
import { activeMembersOf, SNAPSHOT_COLUMNS, toSnapshot } from '#src/features/members/index.ts';
import { groupsTransaction, type GroupsDeps, type GroupsViewer } from './deps.ts';
import { excerptOf, imageOf, logAction, visibleGroup, type VisibleGroup } from './queries.ts';
import type { GroupCard, GroupView } from './types.ts';

/**
 * The members' groups (/groups, /groups/{slug}, GraphQL's member operations): the groups a member can
 * see (theirs first), one group's page with its about, chairs and members, asking to join a public
 * group, and the chairs' answer to a request (accepted: a member; either way the member is told).
 */

const LIST_MAX = 200;
const PEOPLE_MAX = 500;
export const REQUESTS_MAX = 100;

export function slugOf(value: unknown): string {
  if (typeof value !== 'string' || value.length > 60 || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value)) throw new AppError('Groups.NotFound');
  return value;
}

/** The groups the viewer sees: theirs first (by name), then the others (public ones; staff see every group). */
export async function listGroups(deps: GroupsDeps, viewer: GroupsViewer): Promise<{ mine: GroupCard[]; others: GroupCard[] }> {
  const c = deps.community;
  const me = viewer.userId;
  let q = selectInCommunityAs(deps.db, 'groups', 'g', c)
    .leftJoin('group_members as me', (j) => j.onRef('me.group_id', '=', 'g.id').on('me.user_id', '=', me))
    .select((eb) => [
      'g.id',
      'g.name',
      'g.slug',
      'g.about_text',
      'g.image',
      'g.visibility',
      'me.role as my_role',
      eb.selectFrom('group_members as gm').select(eb.fn.countAll<number>().as('n')).whereRef('gm.group_id', '=', 'g.id').where('gm.community_id', '=', c.id).as('member_count'),
      eb.exists(eb.selectFrom('group_join_requests as jr').select('jr.id').whereRef('jr.group_id', '=', 'g.id').where('jr.user_id', '=', me).where('jr.status', '=', 'pending').where('jr.community_id', '=', c.id)).as('requested'),
    ]);
  if (!viewer.isStaff) {
    q = q.where((eb) =>
      eb.or([
        eb('g.visibility', '=', 'public'),
        eb.and([eb('g.visibility', '=', 'private'), eb('me.role', 'is not', null)]),
        eb.and([eb('g.visibility', '=', 'preview'), eb('me.role', '=', 'chair')]),
      ]),
    );
  }
  const rows = await q
    .orderBy(sql`me.role is null`)
    .orderBy((eb) => eb.fn('lower', ['g.name']))
    .orderBy('g.id')
    .limit(LIST_MAX)
    .execute();
  const cards: GroupCard[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    slug: r.slug,
    excerpt: excerptOf(r.about_text),
    image: imageOf(r.image),
    visibility: r.visibility,
    memberCount: Number(r.member_count ?? 0),
    myRole: (r.my_role ?? null) as GroupRole | null,
    requested: Boolean(r.requested),
  }));
  return { mine: cards.filter((c) => c.myRole), others: cards.filter((c) => !c.myRole) };
}

/** One group's page as the viewer may see it, else 'Groups.NotFound'. */
export async function getGroup(deps: GroupsDeps, viewer: GroupsViewer, slug: unknown): Promise<GroupView> {
  return groupViewOf(deps, await visibleGroup(deps.db, deps.community, { slug: slugOf(slug) }, viewer));
}

/**
 * The page of a group already loaded (visibleGroup): its people with their snapshots in one statement
 * (only active members: the page lists no one else), and for its chairs the waiting requests with theirs.
 */
export async function groupViewOf(deps: GroupsDeps, g: VisibleGroup): Promise<GroupView> {
  const c = deps.community;
  const [people, requests] = await Promise.all([
    activeMembersOf(deps.db, c)
      .innerJoin('group_members as gm', (j) => j.onRef('gm.user_id', '=', 'users.id').onRef('gm.community_id', '=', 'memberships.community_id'))
      .select([...SNAPSHOT_COLUMNS, 'gm.role'])
      .where('gm.group_id', '=', g.id)
      .limit(PEOPLE_MAX)
      .execute(),
    g.abilities.canChair
      ? selectInCommunityAs(deps.db, 'group_join_requests', 'jr', c)
          .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'jr.user_id').onRef('memberships.community_id', '=', 'jr.community_id'))
          .innerJoin('users', 'users.id', 'jr.user_id')
          .select([...SNAPSHOT_COLUMNS, 'jr.id', 'jr.created_at'])
          .where('jr.group_id', '=', g.id)
          .where('jr.status', '=', 'pending')
          .orderBy('jr.id')
          .limit(REQUESTS_MAX)
          .execute()
      : Promise.resolve([]),
  ]);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return {
    id: g.id,
    name: g.name,
    slug: g.slug,
    excerpt: excerptOf(g.about_text),
    aboutHtml: g.about_html,
    image: imageOf(g.image),
    visibility: g.visibility,
    memberCount: g.member_count,
    myRole: g.my_role,
    requested: g.requested,
    discussion: deps.community.forum_enabled,
    abilities: { ...g.abilities, canPost: g.abilities.canPost && deps.community.forum_enabled },
    chairs: people.filter((p) => p.role === 'chair').map(toSnapshot).sort(byName),
    members: people.filter((p) => p.role === 'member').map(toSnapshot).sort(byName),
    requests: requests.map((r) => ({ id: r.id, member: toSnapshot(r), createdAt: new Date(r.created_at) })),
  };
}

/** The viewer asks to join a public group; its chairs are told. Asking again while one waits changes nothing. */
export async function requestToJoin(deps: GroupsDeps, viewer: GroupsViewer, slug: unknown): Promise<{ groupId: number; slug: string }> {
  const g = await visibleGroup(deps.db, deps.community, { slug: slugOf(slug) }, viewer);
  if (g.my_role) throw new AppError('Groups.AlreadyMember');
  if (g.visibility !== 'public') throw new AppError('Groups.NotOpen');
  if (g.requested) return { groupId: g.id, slug: g.slug };
  const me = await selectInCommunity(deps.db, 'memberships', deps.community).innerJoin('users', 'users.id', 'memberships.user_id').select(['users.first_name', 'users.last_name']).where('memberships.user_id', '=', viewer.userId).where('memberships.is_active', '=', true).executeTakeFirst();
  if (!me) throw new AppError('Forbidden');
  await groupsTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const made = await insertInCommunity(trx, 'group_join_requests', deps.community, { group_id: g.id, user_id: viewer.userId, status: 'pending', created_at: now })
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).where('status', '=', 'pending').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!made) return;
    const chairs = await selectInCommunity(trx, 'group_members', deps.community).select('user_id').where('group_id', '=', g.id).where('role', '=', 'chair').execute();
    const message = deps.t('groups.notify.requested', { name: `${me.first_name} ${me.last_name}`.trim(), group: g.name });
    for (const c of chairs) await deps.notifier.notify(trx, { communityId: deps.community.id, userId: c.user_id, kind: 'groups', url: `/groups/${g.slug}#requests`, message, createdAt: now });
  });
  return { groupId: g.id, slug: g.slug };
}

/**
 * A chair (or staff) accepts or declines a waiting request: accepted, the member joins the group; the
 * member is told either way; logged. A request of another group, or decided already, is not found.
 */
export async function decideRequest(deps: GroupsDeps, viewer: GroupsViewer, slug: unknown, requestId: unknown, accept: boolean): Promise<{ slug: string }> {
  const g = await visibleGroup(deps.db, deps.community, { slug: slugOf(slug) }, viewer);
  if (!g.abilities.canChair) throw new AppError('Groups.NotChair');
  const id = parseId(requestId);
  if (id === null) throw new AppError('Groups.RequestNotFound');
  const stale = await groupsTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const r = await updateInCommunity(trx, 'group_join_requests', deps.community)
      .set({ status: accept ? 'accepted' : 'declined', decided_by: viewer.userId, decided_at: now })
      .where('id', '=', id)
      .where('group_id', '=', g.id)
      .where('status', '=', 'pending')
      .returning('user_id')
      .executeTakeFirst();
    if (!r) throw new AppError('Groups.RequestNotFound');
    if (accept && !(await activeMembersOf(trx, deps.community).select('users.id').where('users.id', '=', r.user_id).executeTakeFirst())) {
      // The requester is no longer an active member of the community: nobody inactive joins a group.
      // Our choice: the request is settled as declined (so it leaves the chairs' list for good, and is
      // logged), nobody is notified (they are not here to read it), and the chair is answered
      // 'Groups.RequestNotFound', as for a request decided already.
      await updateInCommunity(trx, 'group_join_requests', deps.community).set({ status: 'declined' }).where('id', '=', id).execute();
      const who = await trx.selectFrom('users').select('email').where('id', '=', r.user_id).executeTakeFirst();
      await logAction(trx, deps.community, { groupId: g.id, actorId: viewer.userId, action: 'request_declined', detail: who?.email ?? '', at: now });
      return true;
    }
    if (accept) {
      await insertInCommunity(trx, 'group_members', deps.community, { group_id: g.id, user_id: r.user_id, role: 'member', added_by: viewer.userId, created_at: now })
        .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
        .execute();
    }
    const who = await trx.selectFrom('users').select('email').where('id', '=', r.user_id).executeTakeFirst();
    await logAction(trx, deps.community, { groupId: g.id, actorId: viewer.userId, action: accept ? 'request_accepted' : 'request_declined', detail: who?.email ?? '', at: now });
    await deps.notifier.notify(trx, {
      communityId: deps.community.id,
      userId: r.user_id,
      kind: 'groups',
      url: accept ? `/groups/${g.slug}` : '/groups',
      message: deps.t(accept ? 'groups.notify.accepted' : 'groups.notify.declined', { group: g.name }),
      createdAt: now,
    });
    return false;
  });
  if (stale) throw new AppError('Groups.RequestNotFound');
  return { slug: g.slug };
}

/**
 * A waiting request by its id alone (GraphQL's accept and decline): the group it belongs to, as the
 * viewer may see it, then decided as on the page. A request the viewer cannot see, of another
 * community, or decided already, is 'Groups.RequestNotFound'.
 */
export async function decideRequestById(deps: GroupsDeps, viewer: GroupsViewer, requestId: unknown, accept: boolean): Promise<{ slug: string }> {
  const id = parseId(requestId);
  if (id === null) throw new AppError('Groups.RequestNotFound');
  const row = await selectInCommunityAs(deps.db, 'group_join_requests', 'jr', deps.community)
    .innerJoin('groups as g', 'g.id', 'jr.group_id')
    .select('g.slug')
    .where('jr.id', '=', id)
    .where('jr.status', '=', 'pending')
    .executeTakeFirst();
  if (!row) throw new AppError('Groups.RequestNotFound');
  try {
    return await decideRequest(deps, viewer, row.slug, id, accept);
  } catch (e) {
    if (e instanceof AppError && e.code === 'Groups.NotFound') throw new AppError('Groups.RequestNotFound');
    throw e;
  }
}

/**
 * The viewer leaves a group they are in (a member, or a chair who is not its last); logged. Not in it:
 * 'Groups.NotMember'; its only chair: 'Groups.LastChair' (staff name another chair first).
 */
export async function leaveGroup(deps: GroupsDeps, viewer: GroupsViewer, slug: unknown): Promise<{ slug: string; stillSees: boolean }> {
  const g = await visibleGroup(deps.db, deps.community, { slug: slugOf(slug) }, viewer);
  if (!g.my_role) throw new AppError('Groups.NotMember');
  await groupsTransaction(deps.db, async (trx) => {
    // Lock the group's chairs so that two chairs leaving at once cannot leave it with none.
    const chairs = await selectInCommunity(trx, 'group_members', deps.community).select('user_id').where('group_id', '=', g.id).where('role', '=', 'chair').forUpdate().execute();
    const gone = await deleteInCommunity(trx, 'group_members', deps.community).where('group_id', '=', g.id).where('user_id', '=', viewer.userId).returning('role').executeTakeFirst();
    if (!gone) throw new AppError('Groups.NotMember');
    if (gone.role === 'chair' && chairs.filter((c) => c.user_id !== viewer.userId).length === 0) throw new AppError('Groups.LastChair');
    const who = await trx.selectFrom('users').select('email').where('id', '=', viewer.userId).executeTakeFirst();
    await logAction(trx, deps.community, { groupId: g.id, actorId: viewer.userId, action: gone.role === 'chair' ? 'chair_left' : 'member_left', detail: who?.email ?? '', at: deps.clock.now() });
  });
  return { slug: g.slug, stillSees: viewer.isStaff || g.visibility === 'public' };
}
