import { sql, type Expression, type SqlBool } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { groupChoices } from '#src/features/groups/index.ts';
import { htmlToText } from '#src/lib/rich-text.ts';
import { ensureStaff, feedIdOf, feedsTransaction, type FeedsDeps, type FeedsViewer } from './deps.ts';
import { announcementInputOf, fieldOfInstant, type AnnouncementInput } from './input.ts';
import { logFeedChange, readFeedLog } from './log.ts';
import { ANNOUNCEMENT_STATES, type AnnouncementDetail, type AnnouncementForm, type AnnouncementRow, type AnnouncementState, type GroupChoice } from './types.ts';

/**
 * The staff's announcements (/admin/feeds, GraphQL's admin operations): write one (a draft), publish
 * it (live at once, or from its start), unpublish it (a draft again), pin it, delete it; the list by
 * state. The state is derived from the times and the clock (stateOf): nothing runs for an
 * announcement to go live or expire. Every change is a line of the feeds' log.
 */

export const STAFF_PAGE = 50;

export const blankAnnouncementForm = (): AnnouncementForm => ({ title: '', body: '', imageAlt: '', linkUrl: '', linkLabel: '', audience: 'everyone', groupId: '', pinned: false, startsAt: '', endsAt: '' });

/** Its state at `now`: a draft until published; then expired once its end has come, scheduled until its start, else live. */
export function stateOf(a: { published_at: Date | null; shown_from: Date | null; ends_at: Date | null }, now: Date): AnnouncementState {
  if (!a.published_at) return 'draft';
  if (a.ends_at && a.ends_at <= now) return 'expired';
  if (a.shown_from && a.shown_from > now) return 'scheduled';
  return 'live';
}

/** The same rule as SQL, on the `a` alias. */
export function inState(state: AnnouncementState, now: Date): Expression<SqlBool> {
  switch (state) {
    case 'draft':
      return sql<SqlBool>`a.published_at is null`;
    case 'expired':
      return sql<SqlBool>`a.published_at is not null and a.ends_at <= ${now}`;
    case 'scheduled':
      return sql<SqlBool>`a.published_at is not null and a.shown_from > ${now} and (a.ends_at is null or a.ends_at > ${now})`;
    case 'live':
      return sql<SqlBool>`a.published_at is not null and a.shown_from <= ${now} and (a.ends_at is null or a.ends_at > ${now})`;
  }
}

export function stateOfArgument(value: unknown): AnnouncementState | null {
  if (value == null || value === '') return null;
  const v = typeof value === 'string' ? value.toLowerCase() : '';
  if (!(ANNOUNCEMENT_STATES as readonly string[]).includes(v)) throw new AppError('BadRequest.Validation');
  return v as AnnouncementState;
}

/** The community's groups, to pick an audience from (through the groups area's face). */
export function audienceGroups(deps: FeedsDeps): Promise<GroupChoice[]> {
  return groupChoices(deps.db, deps.community);
}

/** An image as stored (`upload:<key>`, or a path under static/) as the path it is served at. */
export function imagePathOf(stored: string | null): string | null {
  if (!stored) return null;
  if (stored.startsWith('upload:')) return `/feeds/images/${stored.slice(7)}.webp`;
  return `/static/${stored.replace(/^\/+/, '')}`;
}

const columnsOf = (input: AnnouncementInput) => ({
  title: input.title,
  body_html: input.bodyHtml,
  image_alt: input.imageAlt,
  link_url: input.link?.url ?? null,
  link_label: input.link?.label ?? null,
  audience: input.audience,
  group_id: input.groupId,
  pinned: input.pinned,
  starts_at: input.startsAt,
  ends_at: input.endsAt,
});

/** A new announcement, a draft (or published at once: `publish`). Returns its id. */
export async function createAnnouncement(deps: FeedsDeps, viewer: FeedsViewer, form: AnnouncementForm, options: { html?: boolean; publish?: boolean } = {}): Promise<number> {
  ensureStaff(viewer);
  const now = deps.clock.now();
  const input = announcementInputOf(form, { groups: await audienceGroups(deps), now, html: options.html });
  return feedsTransaction(deps.db, async (trx) => {
    const { id } = await insertInCommunity(trx, 'feed_announcements', deps.community, {
      ...columnsOf(input),
      published_at: options.publish ? now : null,
      created_by: viewer.userId,
      created_at: now,
      updated_at: now,
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    const log = (action: string) => logFeedChange(trx, deps.community, { subject: 'announcement', subjectId: id, title: input.title, action, actorId: viewer.userId, at: now });
    await log('created');
    if (options.publish) await log('published');
    return id;
  });
}

type Stored = { id: number; title: string; published_at: Date | null; pinned: boolean; ends_at: Date | null; image: string | null };

async function lockAnnouncement(trx: FeedsDeps['db'], deps: FeedsDeps, id: number): Promise<Stored> {
  const row = await selectInCommunity(trx, 'feed_announcements', deps.community).select(['id', 'title', 'published_at', 'pinned', 'ends_at', 'image']).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('Feeds.NotFound');
  return row;
}

/** Saves an announcement's fields (whatever its state); `publish` publishes it too. */
export async function updateAnnouncement(deps: FeedsDeps, viewer: FeedsViewer, announcementId: unknown, form: AnnouncementForm, options: { html?: boolean; publish?: boolean } = {}): Promise<number> {
  ensureStaff(viewer);
  const id = feedIdOf(announcementId);
  const now = deps.clock.now();
  const [groups, saved] = await Promise.all([audienceGroups(deps), selectInCommunity(deps.db, 'feed_announcements', deps.community).select('ends_at').where('id', '=', id).executeTakeFirst()]);
  if (!saved) throw new AppError('Feeds.NotFound');
  const input = announcementInputOf(form, { groups, now, keptEnd: saved.ends_at, html: options.html });
  return feedsTransaction(deps.db, async (trx) => {
    const before = await lockAnnouncement(trx, deps, id);
    const publish = options.publish && !before.published_at;
    await updateInCommunity(trx, 'feed_announcements', deps.community)
      .set({ ...columnsOf(input), ...(publish ? { published_at: now } : {}), updated_at: now })
      .where('id', '=', id)
      .execute();
    const log = (action: string) => logFeedChange(trx, deps.community, { subject: 'announcement', subjectId: id, title: input.title, action, actorId: viewer.userId, at: now });
    await log('edited');
    if (before.pinned !== input.pinned) await log(input.pinned ? 'pinned' : 'unpinned');
    if (publish) await log('published');
    return id;
  });
}

/**
 * One change of an announcement under its row lock, logged: publish (a draft goes live, or is
 * scheduled when its start is ahead), unpublish (back to a draft: members no longer see it), pin,
 * unpin. Doing what is already done changes nothing and logs nothing.
 */
export async function changeAnnouncement(deps: FeedsDeps, viewer: FeedsViewer, announcementId: unknown, change: 'publish' | 'unpublish' | 'pin' | 'unpin'): Promise<void> {
  ensureStaff(viewer);
  const id = feedIdOf(announcementId);
  await feedsTransaction(deps.db, async (trx) => {
    const a = await lockAnnouncement(trx, deps, id);
    const now = deps.clock.now();
    const set =
      change === 'publish' ? (a.published_at ? null : { published_at: now })
      : change === 'unpublish' ? (a.published_at ? { published_at: null } : null)
      : change === 'pin' ? (a.pinned ? null : { pinned: true })
      : a.pinned ? { pinned: false } : null;
    if (!set) return;
    await updateInCommunity(trx, 'feed_announcements', deps.community).set({ ...set, updated_at: now }).where('id', '=', id).execute();
    const action = { publish: 'published', unpublish: 'unpublished', pin: 'pinned', unpin: 'unpinned' }[change];
    await logFeedChange(trx, deps.community, { subject: 'announcement', subjectId: id, title: a.title, action, actorId: viewer.userId, at: now });
  });
}

/** Deletes an announcement (its image and who saw it go with it); the log keeps its lines and says so. */
export async function deleteAnnouncement(deps: FeedsDeps, viewer: FeedsViewer, announcementId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = feedIdOf(announcementId);
  await feedsTransaction(deps.db, async (trx) => {
    const a = await lockAnnouncement(trx, deps, id);
    await deleteInCommunity(trx, 'feed_announcements', deps.community).where('id', '=', id).execute();
    await logFeedChange(trx, deps.community, { subject: 'announcement', subjectId: id, title: a.title, action: 'deleted', actorId: viewer.userId, at: deps.clock.now() });
  });
}

// ---- Reading ----

function staffQuery(deps: FeedsDeps) {
  return selectInCommunityAs(deps.db, 'feed_announcements', 'a', deps.community)
    .leftJoin('groups as g', (j) => j.onRef('g.id', '=', 'a.group_id').onRef('g.community_id', '=', 'a.community_id'))
    .select((eb) => [
      'a.id',
      'a.title',
      'a.body_html',
      'a.image',
      'a.image_alt',
      'a.link_url',
      'a.link_label',
      'a.audience',
      'a.group_id',
      'a.pinned',
      'a.published_at',
      'a.starts_at',
      'a.ends_at',
      'a.shown_from',
      'a.updated_at',
      'g.name as group_name',
      eb.selectFrom('feed_seen as s').select(sql<number>`count(*)::int`.as('n')).whereRef('s.announcement_id', '=', 'a.id').as('seen_count'),
    ]);
}

type StaffRaw = Awaited<ReturnType<ReturnType<typeof staffQuery>['executeTakeFirstOrThrow']>>;

function rowOf(r: StaffRaw, now: Date): AnnouncementRow {
  return {
    id: r.id,
    title: r.title,
    state: stateOf(r, now),
    audience: r.audience,
    groupName: r.group_name,
    pinned: r.pinned,
    publishedAt: r.published_at,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    shownFrom: r.shown_from,
    updatedAt: r.updated_at,
    seenCount: Number(r.seen_count ?? 0),
  };
}

/** The community's announcements in a state (or all), newest first, 50 a page (`after`: the last id shown). */
export async function listAnnouncements(deps: FeedsDeps, viewer: FeedsViewer, input: { state?: AnnouncementState | null; after?: number | null } = {}): Promise<{ rows: AnnouncementRow[]; next: number | null }> {
  ensureStaff(viewer);
  const after = input.after ?? null;
  if (after !== null && (!Number.isSafeInteger(after) || after < 1 || after > 2_147_483_647)) throw new AppError('BadRequest.Validation');
  const now = deps.clock.now();
  let q = staffQuery(deps);
  if (input.state) q = q.where(inState(input.state, now));
  if (after !== null) q = q.where('a.id', '<', after);
  const rows = await q.orderBy('a.id', 'desc').limit(STAFF_PAGE + 1).execute();
  const page = rows.slice(0, STAFF_PAGE);
  return { rows: page.map((r) => rowOf(r, now)), next: rows.length > STAFF_PAGE ? page.at(-1)!.id : null };
}

/** One announcement for staff: its fields, its form as saved, its log. */
export async function getAnnouncement(deps: FeedsDeps, viewer: FeedsViewer, announcementId: unknown): Promise<AnnouncementDetail> {
  ensureStaff(viewer);
  const id = feedIdOf(announcementId);
  const [r, log] = await Promise.all([staffQuery(deps).where('a.id', '=', id).executeTakeFirst(), readFeedLog(deps.db, deps.community, { subject: 'announcement', subjectId: id })]);
  if (!r) throw new AppError('Feeds.NotFound');
  return {
    ...rowOf(r, deps.clock.now()),
    bodyHtml: r.body_html,
    imagePath: imagePathOf(r.image),
    imageAlt: r.image_alt,
    linkUrl: r.link_url,
    linkLabel: r.link_label,
    groupId: r.group_id,
    form: {
      title: r.title,
      body: r.body_html ? htmlToText(r.body_html) : '',
      imageAlt: r.image_alt,
      linkUrl: r.link_url ?? '',
      linkLabel: r.link_label ?? '',
      audience: r.audience,
      groupId: r.group_id ? String(r.group_id) : '',
      pinned: r.pinned,
      startsAt: fieldOfInstant(r.starts_at),
      endsAt: fieldOfInstant(r.ends_at),
    },
    log,
  };
}
