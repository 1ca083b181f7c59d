import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { cleanRichText, textToHtml } from '#src/lib/rich-text.ts';
import type { AnnouncementForm, EventForm, FeedAudience } from './types.ts';

/**
 * What staff type (the forms' fields, GraphQL's input), checked here once: each refusal named by its
 * field ('Feeds.Invalid' with `fields`), so the form comes back with the message beside it and
 * everything typed kept.
 */

export const LIMITS = { title: 120, body: 2000, imageAlt: 200, linkUrl: 2000, linkLabel: 80, place: 120 } as const;

type Refuse = (field: string, key: string, values?: Record<string, unknown>) => void;

function refusals(): { fields: FieldErrors; refuse: Refuse; done: () => void } {
  const fields: FieldErrors = {};
  const refuse: Refuse = (field, key, values) => {
    fields[field] ??= { code: 'Feeds.Invalid', key: `feedsAdmin.errors.${key}`, values };
  };
  return {
    fields,
    refuse,
    done: () => {
      if (Object.keys(fields).length) throw new AppError('Feeds.Invalid', { fields });
    },
  };
}

/** A line of text: trimmed, within `max`, no control character; '' when empty. */
function line(refuse: Refuse, field: string, value: string, max: number, options: { required?: boolean; multiline?: boolean } = {}): string {
  const v = value.trim();
  if (options.required && !v) refuse(field, `${field}Required`);
  else if (v.length > max) refuse(field, 'tooLong', { max });
  else if (hasForbiddenCharacters(v, options.multiline)) refuse(field, 'characters');
  return v;
}

/** A web address (https or http), or a path of this site ('/…', not '//…'). */
export function isLinkTarget(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//') && !/[\s\\]/.test(value);
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && Boolean(u.hostname);
  } catch {
    return false;
  }
}

/** A web address (https or http) only: an event's page is elsewhere. */
export function isWebUrl(value: string): boolean {
  return !value.startsWith('/') && isLinkTarget(value);
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]00:?00)?$/;

/**
 * 'YYYY-MM-DDTHH:MM' (UTC, as a datetime-local field sends it) or an ISO instant in UTC; null when
 * empty, undefined when not a real instant (31 February is not read as 3 March).
 */
export function instantOf(value: string): Date | null | undefined {
  const v = value.trim();
  if (!v) return null;
  const m = INSTANT.exec(v);
  if (!m) return undefined;
  const typed = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}`;
  const at = new Date(`${typed}Z`);
  if (Number.isNaN(at.getTime()) || Number(m[1]) < 2000 || Number(m[1]) > 2200 || at.toISOString().slice(0, 19) !== typed) return undefined;
  return at;
}

/** An instant as the datetime-local field shows it ('' for none). */
export const fieldOfInstant = (d: Date | null) => (d ? d.toISOString().slice(0, 16) : '');

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date 'YYYY-MM-DD' (or an ISO instant, its day) as its first instant (UTC); undefined when not a date. */
export function dayOf(value: string): Date | undefined {
  const v = value.trim().slice(0, 10);
  const m = DATE.exec(v);
  if (!m) return undefined;
  const d = new Date(`${v}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v || Number(m[1]) < 2000 || Number(m[1]) > 2200) return undefined;
  return d;
}

export type AnnouncementInput = {
  title: string;
  bodyHtml: string;
  imageAlt: string;
  link: { url: string; label: string } | null;
  audience: FeedAudience;
  groupId: number | null;
  pinned: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
};

/**
 * The announcement as typed, checked. `html`: the body is HTML (GraphQL), else the form's text (blank
 * lines part paragraphs, '- ' starts a list item); sanitised either way. `groups`: the community's
 * groups (a group audience must name one). An end that is past (`now`) is refused unless it is the one
 * already saved (`keptEnd`).
 */
export function announcementInputOf(form: AnnouncementForm, context: { groups: readonly { id: number }[]; now: Date; keptEnd?: Date | null; html?: boolean }): AnnouncementInput {
  const { refuse, done } = refusals();
  const title = line(refuse, 'title', form.title, LIMITS.title, { required: true });
  const body = line(refuse, 'body', form.body, LIMITS.body, { multiline: true });
  const imageAlt = line(refuse, 'imageAlt', form.imageAlt, LIMITS.imageAlt);
  const linkUrl = line(refuse, 'linkUrl', form.linkUrl, LIMITS.linkUrl);
  const linkLabel = line(refuse, 'linkLabel', form.linkLabel, LIMITS.linkLabel);
  if (linkUrl && !isLinkTarget(linkUrl)) refuse('linkUrl', 'linkInvalid');
  if (linkUrl && !linkLabel) refuse('linkLabel', 'linkLabelRequired');
  if (!linkUrl && linkLabel) refuse('linkUrl', 'linkUrlRequired');
  let groupId: number | null = null;
  const audience = form.audience as FeedAudience;
  if (audience === 'group') {
    groupId = /^\d{1,10}$/.test(form.groupId) ? Number(form.groupId) : null;
    if (groupId === null || !context.groups.some((g) => g.id === groupId)) refuse('groupId', 'groupRequired');
  } else if (audience !== 'everyone') refuse('audience', 'audienceRequired');
  const startsAt = instantOf(form.startsAt);
  const endsAt = instantOf(form.endsAt);
  if (startsAt === undefined) refuse('startsAt', 'instantInvalid');
  if (endsAt === undefined) refuse('endsAt', 'instantInvalid');
  if (startsAt && endsAt && endsAt <= startsAt) refuse('endsAt', 'endBeforeStart');
  else if (endsAt && endsAt <= context.now && endsAt.getTime() !== context.keptEnd?.getTime()) refuse('endsAt', 'endPast');
  done();
  const bodyHtml = body ? cleanRichText(context.html ? body : textToHtml(body)) : '';
  return {
    title,
    bodyHtml: bodyHtml.replace(/<[^>]*>/g, '').trim() ? bodyHtml : '',
    imageAlt,
    link: linkUrl ? { url: linkUrl, label: linkLabel } : null,
    audience,
    groupId,
    pinned: form.pinned,
    startsAt: startsAt ?? null,
    endsAt: endsAt ?? null,
  };
}

export type EventInput = { title: string; url: string; eventAt: Date; place: string | null; pinned: boolean; endsAt: Date };

const DAY_MS = 86_400_000;

/**
 * An event link as typed: its title, web address, date and place. Unless staff give an expiry, it
 * leaves the feed when its day is over.
 */
export function eventInputOf(form: EventForm, now: Date): EventInput {
  const { refuse, done } = refusals();
  const title = line(refuse, 'title', form.title, LIMITS.title, { required: true });
  const url = line(refuse, 'url', form.url, LIMITS.linkUrl, { required: true });
  if (url && !isWebUrl(url)) refuse('url', 'urlInvalid');
  const place = line(refuse, 'place', form.place, LIMITS.place);
  const eventAt = form.date.trim() ? dayOf(form.date) : undefined;
  if (!form.date.trim()) refuse('date', 'dateRequired');
  else if (!eventAt) refuse('date', 'dateInvalid');
  const endsAt = expiryOf(refuse, form.endsAt, now);
  const dayOver = eventAt ? new Date(eventAt.getTime() + DAY_MS) : null;
  if (!endsAt && dayOver && dayOver <= now) refuse('date', 'datePast');
  done();
  return { title, url, eventAt: eventAt!, place: place || null, pinned: form.pinned, endsAt: endsAt ?? dayOver! };
}

/** An optional expiry (a featured item's): a real instant in the future, or null. */
function expiryOf(refuse: Refuse, value: string, now: Date): Date | null {
  const at = instantOf(value);
  if (at === undefined) refuse('endsAt', 'instantInvalid');
  else if (at && at <= now) refuse('endsAt', 'endPast');
  return at ?? null;
}

/** A featured item's expiry as typed ('' for none), checked. */
export function featuredExpiryOf(value: string, now: Date): Date | null {
  const { refuse, done } = refusals();
  const at = expiryOf(refuse, value, now);
  done();
  return at;
}
