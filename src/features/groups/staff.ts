import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import type { GroupRole } from '#src/db/types.ts';
import { activeMembersOf } from '#src/features/members/index.ts';
import { ensureStaff, groupsTransaction, type GroupsDeps, type GroupsViewer } from './deps.ts';
import { emailsIn, groupColumnsOf, slugTaken } from './group-input.ts';
import { imageOf, logAction } from './queries.ts';
import type { GroupForm, StaffGroupDetail, StaffGroupPerson, StaffGroupRow } from './types.ts';

/**
 * The staff's groups (/admin/groups, GraphQL's admin operations): every group of the community with
 * its counts, one group's form, its chairs and members (added from a search or a pasted list of
 * addresses, removed, made chair or member), the CSV of its people, and its log: every change is one
 * line of group_actions with who and when.
 */

const isUniqueViolation = (e: unknown) => (e as { code?: string } | null)?.code === '23505';
export const PEOPLE_MAX = 500;

export function groupIdOf(value: unknown): number {
  const id = parseId(value);
  if (id === null) throw new AppError('Groups.NotFound');
  return id;
}

/** Every group of the community by name, with its chairs, members and waiting requests counted. */
export async function listStaffGroups(deps: GroupsDeps, viewer: GroupsViewer): Promise<StaffGroupRow[]> {
  ensureStaff(viewer);
  const c = deps.community;
  const rows = await selectInCommunityAs(deps.db, 'groups', 'g', c)
    .select((eb) => [
      'g.id',
      'g.name',
      'g.slug',
      'g.visibility',
      'g.updated_at',
      eb.selectFrom('group_members as m').select(eb.fn.countAll<number>().as('n')).whereRef('m.group_id', '=', 'g.id').where('m.community_id', '=', c.id).where('m.role', '=', 'chair').as('chairs'),
      eb.selectFrom('group_members as m').select(eb.fn.countAll<number>().as('n')).whereRef('m.group_id', '=', 'g.id').where('m.community_id', '=', c.id).where('m.role', '=', 'member').as('members'),
      eb.selectFrom('group_join_requests as r').select(eb.fn.countAll<number>().as('n')).whereRef('r.group_id', '=', 'g.id').where('r.community_id', '=', c.id).where('r.status', '=', 'pending').as('pending'),
    ])
    .orderBy((eb) => eb.fn('lower', ['g.name']))
    .orderBy('g.id')
    .limit(1000)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, slug: r.slug, visibility: r.visibility, chairCount: Number(r.chairs ?? 0), memberCount: Number(r.members ?? 0), pendingCount: Number(r.pending ?? 0), updatedAt: new Date(r.updated_at) }));
}

export const blankGroupForm = (): GroupForm => ({ name: '', slug: '', about: '', visibility: 'preview' });

/** The people of a group (chairs first, then by name), with their address and whether their membership is active. */
export async function peopleOf(deps: Pick<GroupsDeps, 'db' | 'community'>, groupId: number): Promise<StaffGroupPerson[]> {
  const rows = await selectInCommunityAs(deps.db, 'group_members', 'gm', deps.community)
    .innerJoin('users as u', 'u.id', 'gm.user_id')
    .leftJoin('memberships as ms', (j) => j.onRef('ms.user_id', '=', 'gm.user_id').onRef('ms.community_id', '=', 'gm.community_id'))
    .select(['gm.user_id', 'gm.role', 'gm.created_at', 'u.first_name', 'u.last_name', 'u.email', 'u.is_active as user_active', 'ms.company_name', 'ms.is_active'])
    .where('gm.group_id', '=', groupId)
    .orderBy(sql`case when gm.role = 'chair' then 0 else 1 end`)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('gm.user_id')
    .execute();
  return rows.map((r) => ({
    userId: r.user_id,
    name: `${r.first_name} ${r.last_name}`.trim(),
    email: r.email,
    companyName: r.company_name ?? null,
    role: r.role,
    active: Boolean(r.is_active) && r.user_active,
    addedAt: new Date(r.created_at),
  }));
}

/** One group for staff: its fields, people and latest log lines. */
export async function getStaffGroup(deps: GroupsDeps, viewer: GroupsViewer, groupId: unknown): Promise<StaffGroupDetail> {
  ensureStaff(viewer);
  const id = groupIdOf(groupId);
  const g = await selectInCommunity(deps.db, 'groups', deps.community).selectAll().where('id', '=', id).executeTakeFirst();
  if (!g) throw new AppError('Groups.NotFound');
  const [people, log] = await Promise.all([
    peopleOf(deps, id),
    selectInCommunityAs(deps.db, 'group_actions', 'a', deps.community)
      .leftJoin('users as u', 'u.id', 'a.actor_id')
      .select(['a.id', 'a.action', 'a.detail', 'a.created_at', 'u.first_name', 'u.last_name'])
      .where('a.group_id', '=', id)
      .orderBy('a.id', 'desc')
      .limit(50)
      .execute(),
  ]);
  return {
    id: g.id,
    name: g.name,
    slug: g.slug,
    aboutHtml: g.about_html,
    about: g.about_text,
    image: imageOf(g.image),
    visibility: g.visibility,
    people,
    log: log.map((l) => ({ id: l.id, actorName: l.first_name == null ? null : `${l.first_name} ${l.last_name ?? ''}`.trim(), action: l.action, detail: l.detail, createdAt: new Date(l.created_at) })),
  };
}

/** A new group; its creation is the log's first line. Returns its id. */
export async function createGroup(deps: GroupsDeps, viewer: GroupsViewer, form: GroupForm): Promise<number> {
  ensureStaff(viewer);
  const columns = groupColumnsOf(form);
  try {
    return await groupsTransaction(deps.db, async (trx) => {
      const now = deps.clock.now();
      const { id } = await insertInCommunity(trx, 'groups', deps.community, { ...columns, created_by: viewer.userId, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
      await logAction(trx, deps.community, { groupId: id, actorId: viewer.userId, action: 'created', detail: `${columns.name} (${columns.visibility})`, at: now });
      return id;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw slugTaken();
    throw e;
  }
}

/** Saves a group's fields; what changed is logged (name, slug, about, visibility). */
export async function updateGroup(deps: GroupsDeps, viewer: GroupsViewer, groupId: unknown, form: GroupForm): Promise<number> {
  ensureStaff(viewer);
  const id = groupIdOf(groupId);
  const columns = groupColumnsOf(form);
  try {
    return await groupsTransaction(deps.db, async (trx) => {
      const old = await selectInCommunity(trx, 'groups', deps.community).select(['name', 'slug', 'about_text', 'visibility']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!old) throw new AppError('Groups.NotFound');
      const now = deps.clock.now();
      await updateInCommunity(trx, 'groups', deps.community).set({ ...columns, updated_at: now }).where('id', '=', id).execute();
      const changes: string[] = [];
      if (old.name !== columns.name) changes.push(`name: ${columns.name}`);
      if (old.slug !== columns.slug) changes.push(`slug: ${old.slug} → ${columns.slug}`);
      if (old.about_text !== columns.about_text) changes.push('about');
      if (old.visibility !== columns.visibility) changes.push(`visibility: ${old.visibility} → ${columns.visibility}`);
      if (changes.length) await logAction(trx, deps.community, { groupId: id, actorId: viewer.userId, action: 'updated', detail: changes.join('; '), at: now });
      return id;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw slugTaken();
    throw e;
  }
}

/**
 * Adds people to a group with a role: members picked from the search (`userIds`) and a pasted list of
 * addresses (`emails`). Every one must be an active member of the community, else nothing is added and
 * the field says which addresses are not ('Groups.Invalid' on `emails`). Someone already in the group
 * takes the new role. Returns how many were added or changed.
 */
export async function addPeople(deps: GroupsDeps, viewer: GroupsViewer, groupId: unknown, input: { emails?: string; userIds?: readonly number[]; role: GroupRole }): Promise<number> {
  ensureStaff(viewer);
  const id = groupIdOf(groupId);
  if (input.role !== 'chair' && input.role !== 'member') throw new AppError('Groups.Invalid', { fields: { role: { code: 'Groups.Invalid', key: 'groupsAdmin.errors.role' } } });
  const field = (key: string, values?: Record<string, unknown>) => new AppError('Groups.Invalid', { fields: { emails: { code: 'Groups.Invalid', key: `groupsAdmin.errors.${key}`, values } } });
  const { emails, bad } = emailsIn(input.emails ?? '');
  if (bad.length) throw field('emailsBad', { list: bad.slice(0, 10).join(', ') });
  const userIds = [...new Set(input.userIds ?? [])].filter((u) => parseId(u) !== null);
  if (emails.length + userIds.length === 0) throw field('emailsRequired');
  if (emails.length + userIds.length > PEOPLE_MAX) throw field('emailsTooMany', { max: PEOPLE_MAX });
  return groupsTransaction(deps.db, async (trx) => {
    const group = await selectInCommunity(trx, 'groups', deps.community).select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!group) throw new AppError('Groups.NotFound');
    const found = await activeMembersOf(trx, deps.community)
      .select(['users.id', 'users.email'])
      .where((eb) => eb.or([...(emails.length ? [eb(eb.fn('lower', ['users.email']), 'in', emails)] : []), ...(userIds.length ? [eb('users.id', 'in', userIds)] : [])]))
      .execute();
    const known = new Set(found.map((f) => f.email.toLowerCase()));
    const unknown = emails.filter((e) => !known.has(e));
    if (unknown.length) throw field('emailsUnknown', { list: unknown.slice(0, 10).join(', '), count: unknown.length });
    const foundIds = new Set(found.map((f) => f.id));
    if (userIds.some((u) => !foundIds.has(u))) throw field('personUnknown');
    const now = deps.clock.now();
    const ids = [...foundIds];
    const before = await selectInCommunity(trx, 'group_members', deps.community).select(['user_id', 'role']).where('group_id', '=', id).where('user_id', 'in', ids).execute();
    const had = new Map(before.map((b) => [b.user_id, b.role]));
    const changed = ids.filter((u) => had.get(u) !== input.role);
    if (changed.length === 0) return 0;
    await insertInCommunity(
      trx,
      'group_members',
      deps.community,
      changed.map((user_id) => ({ group_id: id, user_id, role: input.role, added_by: viewer.userId, created_at: now })),
    )
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doUpdateSet({ role: input.role }))
      .execute();
    // Added people have no request left waiting.
    await updateInCommunity(trx, 'group_join_requests', deps.community).set({ status: 'accepted', decided_by: viewer.userId, decided_at: now }).where('group_id', '=', id).where('user_id', 'in', changed).where('status', '=', 'pending').execute();
    const byId = new Map(found.map((f) => [f.id, f.email]));
    await logAction(trx, deps.community, { groupId: id, actorId: viewer.userId, action: input.role === 'chair' ? 'chairs_added' : 'members_added', detail: changed.map((u) => byId.get(u)).join(', '), at: now });
    await updateInCommunity(trx, 'groups', deps.community).set({ updated_at: now }).where('id', '=', id).execute();
    return changed.length;
  });
}

/** Takes someone out of a group (chair or member); logged. Someone not in it is 'Groups.NotFound'. */
export async function removePerson(deps: GroupsDeps, viewer: GroupsViewer, groupId: unknown, userId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = groupIdOf(groupId);
  const uid = groupIdOf(userId);
  await groupsTransaction(deps.db, async (trx) => {
    const gone = await deleteInCommunity(trx, 'group_members', deps.community).where('group_id', '=', id).where('user_id', '=', uid).returning('role').executeTakeFirst();
    if (!gone) throw new AppError('Groups.NotFound');
    const u = await trx.selectFrom('users').select('email').where('id', '=', uid).executeTakeFirst();
    await logAction(trx, deps.community, { groupId: id, actorId: viewer.userId, action: gone.role === 'chair' ? 'chair_removed' : 'member_removed', detail: u?.email ?? String(uid), at: deps.clock.now() });
  });
}

/** Makes someone already in the group its chair or a member (logged as added with that role). Someone not in it is 'Groups.NotFound'. */
export async function setPersonRole(deps: GroupsDeps, viewer: GroupsViewer, groupId: unknown, userId: unknown, role: GroupRole): Promise<void> {
  ensureStaff(viewer);
  const id = groupIdOf(groupId);
  const uid = groupIdOf(userId);
  const inGroup = await selectInCommunity(deps.db, 'group_members', deps.community).select('role').where('group_id', '=', id).where('user_id', '=', uid).executeTakeFirst();
  if (!inGroup) throw new AppError('Groups.NotFound');
  if (inGroup.role === role) return;
  await addPeople(deps, viewer, id, { userIds: [uid], role });
}

/** Active members of the community matching a name or address (the add-people search; at most 20). */
export async function searchMembers(deps: GroupsDeps, viewer: GroupsViewer, q: string): Promise<{ id: number; name: string; email: string; companyName: string | null }[]> {
  ensureStaff(viewer);
  const term = q.trim().slice(0, 100).toLowerCase();
  if (term.length < 2) return [];
  const like = `%${term.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  const rows = await activeMembersOf(deps.db, deps.community)
    .select(['users.id', 'users.first_name', 'users.last_name', 'users.email', 'memberships.company_name'])
    .where((eb) => eb.or([eb(sql`lower(users.first_name || ' ' || users.last_name)`, 'like', like), eb(eb.fn('lower', ['users.email']), 'like', like)]))
    .orderBy('users.last_name')
    .orderBy('users.first_name')
    .limit(20)
    .execute();
  return rows.map((r) => ({ id: r.id, name: `${r.first_name} ${r.last_name}`.trim(), email: r.email, companyName: r.company_name }));
}

/** A group's people for the CSV (staff only; another community's group is not found). */
export async function peopleForExport(deps: GroupsDeps, viewer: GroupsViewer, groupId: unknown) {
  ensureStaff(viewer);
  const id = groupIdOf(groupId);
  const g = await selectInCommunity(deps.db, 'groups', deps.community).select(['id', 'slug']).where('id', '=', id).executeTakeFirst();
  if (!g) throw new AppError('Groups.NotFound');
  return { group: g, rows: await peopleOf(deps, id) };
}
