import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { cleanRichText, textToHtml } from '#src/lib/rich-text.ts';
import type { OfferRedemption, OfferTier } from '#src/db/types.ts';
import { OFFER_CATEGORIES, type StaffOfferForm } from './types.ts';

/**
 * An offer as staff type it (the form's fields, GraphQL's input): checked here once, each refusal
 * named by its field, so the form comes back with the message beside it and everything typed kept.
 */

export const LIMITS = { title: 120, valueLine: 80, description: 20_000, code: 64, link: 2000, terms: 5000 } as const;

export type OfferColumns = {
  partner_id: number;
  title: string;
  value_line: string;
  description_html: string;
  category: string;
  tier: OfferTier;
  redemption: OfferRedemption;
  code: string | null;
  link: string | null;
  terms: string;
  starts_at: Date | null;
  ends_at: Date | null;
  featured: boolean;
  position: number;
};

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date 'YYYY-MM-DD' as its first instant (UTC), null when empty, undefined when not a date. */
export function dateOf(value: string): Date | null | undefined {
  if (!value.trim()) return null;
  const m = DATE.exec(value.trim());
  if (!m) return undefined;
  const d = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value.trim() || Number(m[1]) < 2000 || Number(m[1]) > 2200) return undefined;
  return d;
}

/** The form's dates from the stored instants: the start day, and the last day (the end is the next day's first instant). */
export const dayOf = (d: Date | null, end = false) => (d ? new Date(d.getTime() - (end ? 1 : 0)).toISOString().slice(0, 10) : '');

/** A URL staff may link to: https (or http) only. */
export function isWebUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && Boolean(u.hostname);
  } catch {
    return false;
  }
}

/** The checked columns, or 'Offers.Invalid' naming every field refused. `description` is plain text (the form) or HTML (`html`). */
export function offerColumnsOf(form: StaffOfferForm, options: { html?: boolean } = {}): OfferColumns {
  const fields: FieldErrors = {};
  const refuse = (field: string, key: string, values?: Record<string, unknown>) => {
    fields[field] ??= { code: 'Offers.Invalid', key: `offers.staff.errors.${key}`, values };
  };
  const text = (field: keyof typeof LIMITS & keyof StaffOfferForm, value: string, required: boolean, multiline = false) => {
    const v = value.trim();
    if (required && !v) refuse(field, `${field}Required`);
    if (v.length > LIMITS[field]) refuse(field, 'tooLong', { max: LIMITS[field] });
    if (hasForbiddenCharacters(v, multiline)) refuse(field, 'characters');
    return v;
  };
  const title = text('title', form.title, true);
  const valueLine = text('valueLine', form.valueLine, true);
  const description = text('description', form.description, false, true);
  const terms = text('terms', form.terms, false, true);
  const partnerId = Number(form.partnerId);
  if (!/^\d{1,9}$/.test(form.partnerId) || !partnerId) refuse('partnerId', 'partnerRequired');
  if (!(OFFER_CATEGORIES as readonly string[]).includes(form.category)) refuse('category', 'categoryRequired');
  if (form.tier !== 'everyone' && form.tier !== 'exec') refuse('tier', 'tierRequired');
  const redemption = form.redemption as OfferRedemption;
  if (!['code', 'link', 'concierge'].includes(redemption)) refuse('redemption', 'redemptionRequired');
  let code: string | null = null;
  let link: string | null = null;
  if (redemption === 'code') {
    code = text('code', form.code, true);
    if (/\s/.test(code)) refuse('code', 'codeSpaces');
  }
  if (redemption === 'link') {
    link = text('link', form.link, true);
    if (link && !isWebUrl(link)) refuse('link', 'linkInvalid');
  }
  const startsAt = dateOf(form.startsAt);
  const endDay = dateOf(form.endsAt);
  if (startsAt === undefined) refuse('startsAt', 'dateInvalid');
  if (endDay === undefined) refuse('endsAt', 'dateInvalid');
  // The end date is the last day the offer runs: it ends at the next day's first instant.
  const endsAt = endDay ? new Date(endDay.getTime() + DAY_MS) : null;
  if (startsAt && endsAt && endsAt <= startsAt) refuse('endsAt', 'endBeforeStart');
  const position = form.position.trim() === '' ? 0 : Number(form.position);
  if (!Number.isInteger(position) || position < 0 || position > 10_000) refuse('position', 'positionInvalid');
  if (Object.keys(fields).length) throw new AppError('Offers.Invalid', { fields });
  const descriptionHtml = description ? cleanRichText(options.html ? description : textToHtml(description)) : '';
  return {
    partner_id: partnerId,
    title,
    value_line: valueLine,
    description_html: descriptionHtml,
    category: form.category,
    tier: form.tier as OfferTier,
    redemption,
    code,
    link,
    terms,
    starts_at: startsAt ?? null,
    ends_at: endsAt,
    featured: form.featured,
    position,
  };
}
