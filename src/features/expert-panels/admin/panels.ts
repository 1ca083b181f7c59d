import { sql } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { SNAPSHOT_COLUMNS, toSnapshot } from '#src/features/members/index.ts';
import { epTransaction, type EpDeps, type EpViewer } from '../deps.ts';
import { PANEL_NAME_MAX, PANEL_TOPIC_MAX, WORDS_CEILING, WORDS_FLOOR } from '../rules.ts';
import type { PanelDetail, PanelMemberRow, PanelRow } from './admin-types.ts';
import { editorOnly, fieldError, isUniqueViolation, oneLine, wholeNumber } from './checks.ts';

/**
 * A community's expert panels as its editors keep them (issue 15): a name (unique in the community
 * whatever its case), a topic, the word range an answer must keep to, the members who belong. An
 * archived panel keeps its batches but takes no new ones. Editors (staff) only; every query is
 * scoped to the request's community: another community's panel is 'ExpertPanels.NotFound'.
 */

export type PanelInput = { name?: unknown; topic?: unknown; minWords?: unknown; maxWords?: unknown };
type CleanPanel = { name: string; topic: string; minWords: number; maxWords: number };

/** A panel's fields checked: name required, topic optional, WORDS_FLOOR ≤ min ≤ max ≤ WORDS_CEILING. */
export function checkPanel(input: PanelInput): CleanPanel {
  const name = oneLine('name', input.name, PANEL_NAME_MAX);
  const topic = oneLine('topic', input.topic, PANEL_TOPIC_MAX, true);
  const minWords = wholeNumber('minWords', input.minWords, WORDS_FLOOR, WORDS_CEILING);
  const maxWords = wholeNumber('maxWords', input.maxWords, Math.max(WORDS_FLOOR, 1), WORDS_CEILING);
  if (minWords > maxWords) throw fieldError('maxWords', 'range', { min: minWords });
  return { name, topic, minWords, maxWords };
}

const nameTaken = (name: string) => fieldError('name', 'nameTaken', { name });

function panelRows(deps: EpDeps) {
  return selectInCommunityAs(deps.db, 'ep_panels', 'p', deps.community)
    .select((eb) => [
      'p.id',
      'p.name',
      'p.topic',
      'p.min_words',
      'p.max_words',
      'p.archived_at',
      'p.created_at',
      eb
        .selectFrom('ep_panel_members as pm')
        .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'pm.user_id').onRef('m.community_id', '=', 'pm.community_id'))
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('pm.panel_id', '=', 'p.id')
        .where('m.is_active', '=', true)
        .as('member_count'),
    ]);
}

type PanelRecord = Awaited<ReturnType<ReturnType<typeof panelRows>['executeTakeFirstOrThrow']>>;

const panelRow = (r: PanelRecord): PanelRow => ({
  id: r.id,
  name: r.name,
  topic: r.topic,
  minWords: r.min_words,
  maxWords: r.max_words,
  archived: r.archived_at !== null,
  memberCount: Number(r.member_count ?? 0),
  createdAt: new Date(r.created_at),
});

/** Every panel of the community (archived last), by name. */
export async function listPanels(deps: EpDeps, viewer: EpViewer): Promise<PanelRow[]> {
  editorOnly(viewer);
  const rows = await panelRows(deps).orderBy(sql`p.archived_at is not null`).orderBy(sql`lower(p.name)`).orderBy('p.id').limit(500).execute();
  return rows.map(panelRow);
}

/** One panel with its members (active members of the community), or 'ExpertPanels.NotFound'. */
export async function getPanel(deps: EpDeps, viewer: EpViewer, id: number): Promise<PanelDetail> {
  editorOnly(viewer);
  const row = await panelRows(deps).where('p.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  const members = await selectInCommunityAs(deps.db, 'ep_panel_members', 'pm', deps.community)
    .innerJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'pm.user_id').onRef('memberships.community_id', '=', 'pm.community_id'))
    .innerJoin('users', 'users.id', 'pm.user_id')
    .select([...SNAPSHOT_COLUMNS, 'users.email', 'pm.added_at'])
    .where('pm.panel_id', '=', id)
    .orderBy('users.last_name')
    .orderBy('users.first_name')
    .orderBy('users.id')
    .limit(5000)
    .execute();
  return {
    ...panelRow(row),
    members: members.map((m): PanelMemberRow => ({ member: toSnapshot(m), email: m.email, addedAt: new Date(m.added_at) })),
  };
}

/** A panel of this community (for update), locked; else NotFound. */
async function ownPanel(deps: EpDeps, id: number) {
  const row = await selectInCommunity(deps.db, 'ep_panels', deps.community).select(['id', 'archived_at']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ExpertPanels.NotFound');
  return row;
}

export async function createPanel(deps: EpDeps, viewer: EpViewer, input: PanelInput): Promise<number> {
  editorOnly(viewer);
  const clean = checkPanel(input);
  try {
    const row = await insertInCommunity(deps.db, 'ep_panels', deps.community, { name: clean.name, topic: clean.topic, min_words: clean.minWords, max_words: clean.maxWords, created_by: viewer.userId, created_at: deps.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  } catch (e) {
    if (isUniqueViolation(e, 'ep_panels_name')) throw nameTaken(clean.name);
    throw e;
  }
}

export async function updatePanel(deps: EpDeps, viewer: EpViewer, id: number, input: PanelInput): Promise<void> {
  editorOnly(viewer);
  const clean = checkPanel(input);
  await ownPanel(deps, id);
  try {
    await updateInCommunity(deps.db, 'ep_panels', deps.community)
      .set({ name: clean.name, topic: clean.topic, min_words: clean.minWords, max_words: clean.maxWords })
      .where('id', '=', id)
      .execute();
  } catch (e) {
    if (isUniqueViolation(e, 'ep_panels_name')) throw nameTaken(clean.name);
    throw e;
  }
}

export async function setPanelArchived(deps: EpDeps, viewer: EpViewer, id: number, archived: boolean): Promise<void> {
  editorOnly(viewer);
  await ownPanel(deps, id);
  await updateInCommunity(deps.db, 'ep_panels', deps.community)
    .set({ archived_at: archived ? deps.clock.now() : null })
    .where('id', '=', id)
    .execute();
}

export const WHO_MAX = 254;

/**
 * Adds a member by email or username: they must be an active member of the community (else the field
 * error `who`). Adding someone already on the panel changes nothing. Returns their user id.
 */
export async function addPanelMember(deps: EpDeps, viewer: EpViewer, panelId: number, who: unknown): Promise<number> {
  editorOnly(viewer);
  const typed = oneLine('who', who, WHO_MAX).replace(/^@/, '');
  await ownPanel(deps, panelId);
  const found = await selectInCommunity(deps.db, 'memberships', deps.community)
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('users.id')
    .where('memberships.is_active', '=', true)
    .where('users.is_active', '=', true)
    .where((eb) => eb.or([eb(sql`lower(users.email)`, '=', typed.toLowerCase()), eb(sql`lower(users.username)`, '=', typed.toLowerCase())]))
    .limit(1)
    .executeTakeFirst();
  if (!found) throw fieldError('who', 'notMember', { who: typed });
  await epTransaction(deps.db, (trx) =>
    insertInCommunity(trx, 'ep_panel_members', deps.community, { panel_id: panelId, user_id: found.id, added_by: viewer.userId, added_at: deps.clock.now() })
      .onConflict((oc) => oc.columns(['panel_id', 'user_id']).doNothing())
      .execute(),
  );
  return found.id;
}

/** Takes a member off the panel (their answers stay). Someone not on it: NotFound. */
export async function removePanelMember(deps: EpDeps, viewer: EpViewer, panelId: number, userId: number): Promise<void> {
  editorOnly(viewer);
  await ownPanel(deps, panelId);
  const res = await deleteInCommunity(deps.db, 'ep_panel_members', deps.community)
    .where('panel_id', '=', panelId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw new AppError('ExpertPanels.NotFound');
}
