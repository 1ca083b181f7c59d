import { sql } from 'kysely';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, selectInCommunityAs, updateInCommunity } from '#src/db/tenancy.ts';
import { cleanRichText, htmlToText, textToHtml } from '#src/lib/rich-text.ts';
import { audienceOfForm, countAudience, formOfAudience } from './audience.ts';
import { ensureStaff, messageIdOf, messagesTransaction, type MessagesDeps, type MessagesViewer } from './deps.ts';
import { DUE_JOB, SEND_JOB } from './delivery.ts';
import type { AudienceKind, DeliveryFigures, MessageEventRow, StaffMessageDetail, StaffMessageForm, StaffMessageRow, TeamMessageAudience, TeamMessageStatus } from './types.ts';

/**
 * The staff's messages (/admin/messages, GraphQL's admin operations): writing a message and its
 * audience, counting the audience, sending now or scheduling, cancelling; the list with each
 * message's audience count and delivery figures. Every status move is logged with who and when.
 */

export const LIMITS = { subject: 200, body: 50_000 } as const;

/** The moves a message may make (the job makes SENDING → SENT or FAILED). */
export const MOVES: Record<TeamMessageStatus, readonly TeamMessageStatus[]> = {
  DRAFT: ['SCHEDULED', 'SENDING', 'CANCELLED'],
  SCHEDULED: ['SCHEDULED', 'SENDING', 'CANCELLED'],
  SENDING: ['SENT', 'FAILED', 'CANCELLED'],
  SENT: [],
  CANCELLED: [],
  FAILED: [],
};
/** A message's text and audience can still change. */
export const EDITABLE: readonly TeamMessageStatus[] = ['DRAFT', 'SCHEDULED'];

export const blankMessageForm = (): StaffMessageForm => ({ subject: '', body: '', audienceKind: 'community', groupId: '', tier: '', founding: '', industry: '', location: '', standing: '', emails: '', scheduledAt: '' });

export type MessageInput = { subject: string; bodyHtml: string; audience: TeamMessageAudience };

/** The form's (or GraphQL's) message, checked once: each refusal by its field, everything typed kept. `html`: the body is HTML (sanitised as articles are). */
export function messageInputOf(form: StaffMessageForm, options: { html?: boolean } = {}): MessageInput {
  const fields: FieldErrors = {};
  const refuse = (field: string, key: string, values?: Record<string, unknown>) => {
    fields[field] ??= { code: 'Messages.Invalid', key: `messagesAdmin.errors.${key}`, values };
  };
  const subject = form.subject.trim();
  if (!subject) refuse('subject', 'subjectRequired');
  else if (subject.length > LIMITS.subject) refuse('subject', 'tooLong', { max: LIMITS.subject });
  else if (hasForbiddenCharacters(subject)) refuse('subject', 'characters');
  const body = form.body.trim();
  if (!body) refuse('body', 'bodyRequired');
  else if (body.length > LIMITS.body) refuse('body', 'tooLong', { max: LIMITS.body });
  else if (hasForbiddenCharacters(body, true)) refuse('body', 'characters');
  const audience = audienceOfForm(form, refuse);
  if (Object.keys(fields).length || !audience) throw new AppError('Messages.Invalid', { fields });
  const bodyHtml = cleanRichText(options.html ? body : textToHtml(body));
  if (!bodyHtml.replace(/<[^>]*>/g, '').trim()) throw new AppError('Messages.Invalid', { fields: { body: { code: 'Messages.Invalid', key: 'messagesAdmin.errors.bodyRequired' } } });
  return { subject, bodyHtml, audience };
}

/** 'YYYY-MM-DDTHH:MM' (UTC, as a datetime-local field sends it) or an ISO instant; it must be in the future. */
export function scheduleOf(value: string, now: Date): Date {
  const refuse = (key: string) => new AppError('Messages.Invalid', { fields: { scheduledAt: { code: 'Messages.Invalid', key: `messagesAdmin.errors.${key}` } } });
  const v = value.trim();
  if (!v) throw refuse('scheduleRequired');
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d{1,3})?)?Z?$/.exec(v);
  const typed = m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}` : '';
  const at = m ? new Date(`${typed}:00Z`) : null;
  // A real instant: 31 February or 24:00 would be read as another day, so it must read back as typed.
  if (!at || Number.isNaN(at.getTime()) || Number(m![1]) > 2200 || at.toISOString().slice(0, 16) !== typed) throw refuse('scheduleInvalid');
  if (at <= now) throw refuse('schedulePast');
  return at;
}

/** The audience's size now (the "Count audience" button): the same refusals as a save. */
export async function countMessageAudience(deps: MessagesDeps, viewer: MessagesViewer, form: StaffMessageForm, options: { html?: boolean } = {}): Promise<number> {
  ensureStaff(viewer);
  const input = messageInputOfAudienceOnly(form, options);
  return countAudience(deps.db, deps.community, input);
}

/** Only the audience's checks (counting needs no subject yet). */
function messageInputOfAudienceOnly(form: StaffMessageForm, _options: { html?: boolean }): TeamMessageAudience {
  const fields: FieldErrors = {};
  const audience = audienceOfForm(form, (field, key, values) => {
    fields[field] ??= { code: 'Messages.Invalid', key: `messagesAdmin.errors.${key}`, values };
  });
  if (Object.keys(fields).length || !audience) throw new AppError('Messages.Invalid', { fields });
  return audience;
}

async function logMove(trx: Db, deps: MessagesDeps, messageId: number, actorId: number | null, from: TeamMessageStatus | null, to: TeamMessageStatus, note: string | null = null) {
  await insertInCommunity(trx, 'message_events', deps.community, { message_id: messageId, actor_id: actorId, from_status: from, to_status: to, note, created_at: deps.clock.now() }).execute();
}

/** A new message, a draft (the log's first line). Returns its id. */
export async function createMessage(deps: MessagesDeps, viewer: MessagesViewer, form: StaffMessageForm, options: { html?: boolean } = {}): Promise<number> {
  ensureStaff(viewer);
  const input = messageInputOf(form, options);
  const count = await countAudience(deps.db, deps.community, input.audience);
  return messagesTransaction(deps.db, async (trx) => {
    const now = deps.clock.now();
    const { id } = await insertInCommunity(trx, 'team_messages', deps.community, {
      sender_id: viewer.userId,
      subject: input.subject,
      body_html: input.bodyHtml,
      audience: JSON.stringify(input.audience),
      audience_count: count,
      status: 'DRAFT',
      created_at: now,
      updated_at: now,
    })
      .returning('id')
      .executeTakeFirstOrThrow();
    await logMove(trx, deps, id, viewer.userId, null, 'DRAFT');
    return id;
  });
}

/** Saves a draft's (or a scheduled message's) subject, body and audience. */
export async function updateMessage(deps: MessagesDeps, viewer: MessagesViewer, messageId: unknown, form: StaffMessageForm, options: { html?: boolean } = {}): Promise<number> {
  ensureStaff(viewer);
  const id = messageIdOf(messageId);
  const input = messageInputOf(form, options);
  const count = await countAudience(deps.db, deps.community, input.audience);
  return messagesTransaction(deps.db, async (trx) => {
    const m = await selectInCommunity(trx, 'team_messages', deps.community).select('status').where('id', '=', id).forUpdate().executeTakeFirst();
    if (!m) throw new AppError('Messages.NotFound');
    if (!EDITABLE.includes(m.status)) throw new AppError('Messages.BadMove', { values: { from: m.status, to: m.status } });
    await updateInCommunity(trx, 'team_messages', deps.community)
      .set({ subject: input.subject, body_html: input.bodyHtml, audience: JSON.stringify(input.audience), audience_count: count, updated_at: deps.clock.now() })
      .where('id', '=', id)
      .execute();
    return id;
  });
}

/** Moves a message along an allowed move under its row lock, logged; returns the status it left. */
async function move(trx: Db, deps: MessagesDeps, actorId: number | null, id: number, to: TeamMessageStatus, set: { scheduled_at?: Date | null; sent_at?: Date } = {}, note: string | null = null): Promise<TeamMessageStatus> {
  const m = await selectInCommunity(trx, 'team_messages', deps.community).select('status').where('id', '=', id).forUpdate().executeTakeFirst();
  if (!m) throw new AppError('Messages.NotFound');
  if (!MOVES[m.status].includes(to)) throw new AppError('Messages.BadMove', { values: { from: m.status, to } });
  await updateInCommunity(trx, 'team_messages', deps.community).set({ status: to, updated_at: deps.clock.now(), ...set }).where('id', '=', id).execute();
  await logMove(trx, deps, id, actorId, m.status, to, note);
  return m.status;
}

export { move as moveMessageIn };

/** Sends now: its audience is checked once more, then the queue's batches deliver it. */
export async function sendMessage(deps: MessagesDeps, viewer: MessagesViewer, messageId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = messageIdOf(messageId);
  await recount(deps, id);
  await messagesTransaction(deps.db, async (trx) => {
    await move(trx, deps, viewer.userId, id, 'SENDING', { scheduled_at: null });
    await deps.jobs.enqueue(trx, SEND_JOB, { communityId: deps.community.id, messageId: id });
  });
}

/** Schedules it for `at` (in the future): a delayed job picks it up then. Rescheduling moves the time. */
export async function scheduleMessage(deps: MessagesDeps, viewer: MessagesViewer, messageId: unknown, when: string): Promise<Date> {
  ensureStaff(viewer);
  const id = messageIdOf(messageId);
  const at = scheduleOf(when, deps.clock.now());
  await recount(deps, id);
  await messagesTransaction(deps.db, async (trx) => {
    await move(trx, deps, viewer.userId, id, 'SCHEDULED', { scheduled_at: at }, at.toISOString());
    await deps.jobs.enqueue(trx, DUE_JOB, { communityId: deps.community.id, messageId: id }, { startAfter: at });
  });
  return at;
}

/** Cancels a draft, a scheduled message, or one still sending (the batches stop; who has it keeps it). */
export async function cancelMessage(deps: MessagesDeps, viewer: MessagesViewer, messageId: unknown): Promise<void> {
  ensureStaff(viewer);
  const id = messageIdOf(messageId);
  await messagesTransaction(deps.db, async (trx) => {
    await move(trx, deps, viewer.userId, id, 'CANCELLED');
  });
}

/** The stored audience counted again (refused if a pasted address is no longer a member). */
async function recount(deps: MessagesDeps, id: number) {
  const m = await selectInCommunity(deps.db, 'team_messages', deps.community).select(['audience', 'status']).where('id', '=', id).executeTakeFirst();
  if (!m) throw new AppError('Messages.NotFound');
  if (!EDITABLE.includes(m.status)) return;
  const count = await countAudience(deps.db, deps.community, m.audience);
  if (count === 0) throw new AppError('Messages.Invalid', { fields: { audienceKind: { code: 'Messages.Invalid', key: 'messagesAdmin.errors.audienceEmpty' } } });
  await updateInCommunity(deps.db, 'team_messages', deps.community).set({ audience_count: count }).where('id', '=', id).execute();
}

// ---- Reading ----

const STAFF_PAGE = 50;

/** The delivery figures of these messages: recipients, delivered, read on the web, emailed, pushed. */
async function figuresOf(deps: MessagesDeps, ids: number[]): Promise<Map<number, DeliveryFigures>> {
  const map = new Map<number, DeliveryFigures>();
  if (ids.length === 0) return map;
  const rows = await selectInCommunityAs(deps.db, 'message_recipients', 'r', deps.community)
    .select((eb) => [
      'r.message_id',
      eb.fn.countAll<number>().as('recipients'),
      sql<number>`count(*) filter (where r.state = 'delivered')`.as('delivered'),
      sql<number>`count(r.read_at)`.as('read'),
      sql<number>`count(*) filter (where exists (select 1 from notification_deliveries d where d.community_id = r.community_id and d.notification_id = r.notification_id and d.channel = 'email'))`.as('emailed'),
      sql<number>`count(*) filter (where exists (select 1 from notification_deliveries d where d.community_id = r.community_id and d.notification_id = r.notification_id and d.channel = 'push'))`.as('pushed'),
    ])
    .where('r.message_id', 'in', ids)
    .groupBy('r.message_id')
    .execute();
  for (const r of rows) map.set(r.message_id, { recipients: Number(r.recipients), delivered: Number(r.delivered), read: Number(r.read), emailed: Number(r.emailed), pushed: Number(r.pushed) });
  return map;
}

const NO_FIGURES: DeliveryFigures = { recipients: 0, delivered: 0, read: 0, emailed: 0, pushed: 0 };

function staffQuery(deps: MessagesDeps) {
  return selectInCommunityAs(deps.db, 'team_messages', 'm', deps.community)
    .leftJoin('users as u', 'u.id', 'm.sender_id')
    .select(['m.id', 'm.subject', 'm.audience', 'm.audience_count', 'm.created_at', 'm.status', 'm.scheduled_at', 'm.sent_at', 'm.body_html', 'u.first_name', 'u.last_name']);
}

type StaffRaw = Awaited<ReturnType<ReturnType<typeof staffQuery>['executeTakeFirstOrThrow']>>;

function rowOf(r: StaffRaw, figures: DeliveryFigures | undefined): StaffMessageRow {
  return {
    id: r.id,
    subject: r.subject,
    senderName: r.first_name ? `${r.first_name} ${r.last_name}`.trim() : null,
    audienceKind: r.audience.kind as AudienceKind,
    audienceCount: r.audience_count,
    createdAt: r.created_at,
    status: r.status,
    scheduledAt: r.scheduled_at,
    sentAt: r.sent_at,
    figures: figures ?? NO_FIGURES,
  };
}

/** The community's messages, newest first, 50 a page (`after`: the last id shown). */
export async function listStaffMessages(deps: MessagesDeps, viewer: MessagesViewer, input: { after?: number | null } = {}): Promise<{ rows: StaffMessageRow[]; next: number | null }> {
  ensureStaff(viewer);
  const after = input.after ?? null;
  // A hostile page cursor (0, beyond a row id) is a 400, never a database error.
  if (after !== null && (!Number.isSafeInteger(after) || after < 1 || after > 2_147_483_647)) throw new AppError('BadRequest.Validation');
  let q = staffQuery(deps);
  if (after !== null) q = q.where('m.id', '<', after);
  const rows = await q.orderBy('m.id', 'desc').limit(STAFF_PAGE + 1).execute();
  const page = rows.slice(0, STAFF_PAGE);
  const figures = await figuresOf(deps, page.map((r) => r.id));
  return { rows: page.map((r) => rowOf(r, figures.get(r.id))), next: rows.length > STAFF_PAGE ? page.at(-1)!.id : null };
}

/** One message for staff: its form as saved, its figures and its log. */
export async function getStaffMessage(deps: MessagesDeps, viewer: MessagesViewer, messageId: unknown): Promise<StaffMessageDetail> {
  ensureStaff(viewer);
  const id = messageIdOf(messageId);
  const r = await staffQuery(deps).where('m.id', '=', id).executeTakeFirst();
  if (!r) throw new AppError('Messages.NotFound');
  const [figures, events] = await Promise.all([
    figuresOf(deps, [id]),
    selectInCommunityAs(deps.db, 'message_events', 'e', deps.community)
      .leftJoin('users as u', 'u.id', 'e.actor_id')
      .select(['e.from_status', 'e.to_status', 'e.created_at', 'e.note', 'u.first_name', 'u.last_name'])
      .where('e.message_id', '=', id)
      .orderBy('e.id', 'desc')
      .execute(),
  ]);
  const log: MessageEventRow[] = events.map((e) => ({ from: e.from_status, to: e.to_status, at: e.created_at, note: e.note, actorName: e.first_name ? `${e.first_name} ${e.last_name}`.trim() : null }));
  return {
    ...rowOf(r, figures.get(id)),
    bodyHtml: r.body_html,
    audience: r.audience,
    form: { subject: r.subject, body: htmlToText(r.body_html), ...formOfAudience(r.audience), scheduledAt: r.scheduled_at ? r.scheduled_at.toISOString().slice(0, 16) : '' },
    events: log,
  };
}
