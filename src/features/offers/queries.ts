import { sql, type ExpressionBuilder } from 'kysely';
import { AppError } from '#src/core/errors.ts';
import { hasForbiddenCharacters } from '#src/core/fields.ts';
import { badCursor, cursorParts, encodeCursor } from '#src/lib/cursor.ts';
import type { Database } from '#src/db/types.ts';
import type { OfferAvailability, PartnerLogo } from './types.ts';

/** Offers on a page of the list. */
export const PAGE_SIZE = 12;

/** A logo as stored (`partners.logo`): an uploaded one is `upload:<key>`, anything else a path under static/. */
export function logoOf(stored: string | null): PartnerLogo {
  if (!stored) return null;
  if (stored.startsWith('upload:')) return { kind: 'upload', path: `/offers/logos/${stored.slice(7)}.webp` };
  return { kind: 'static', path: stored };
}

/** Whether an offer can be redeemed at `now`, and if not, why. */
export function availabilityOf(o: { status: string; starts_at: Date | null; ends_at: Date | null }, now: Date): OfferAvailability {
  if (o.status === 'draft') return 'draft';
  if (o.status === 'withdrawn') return 'withdrawn';
  if (o.starts_at && o.starts_at > now) return 'upcoming';
  if (o.ends_at && o.ends_at <= now) return 'expired';
  return 'live';
}

/** Published and running at `now` (the `o` alias). */
export function liveAt(now: Date) {
  return (eb: ExpressionBuilder<Database & { o: Database['offers'] }, 'o'>) =>
    eb.and([
      eb('o.status', '=', 'published'),
      eb.or([eb('o.starts_at', 'is', null), eb('o.starts_at', '<=', now)]),
      eb.or([eb('o.ends_at', 'is', null), eb('o.ends_at', '>', now)]),
    ]);
}

// ---- The list's keyset: featured first, then the staff's order, then newest -----------------------

export type ListKey = { featured: boolean; position: number; id: number };

export const cursorOf = (k: ListKey) => encodeCursor([k.featured ? 1 : 0, k.position, k.id]);

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;

/** A list cursor, or null when absent; anything else is a 400. */
export function decodeListCursor(cursor: unknown): ListKey | null {
  const parts = cursorParts(cursor, 3, 100);
  if (parts === null) return null;
  const [f, p, id] = parts as unknown[];
  if (!isInt(f, 0, 1) || !isInt(p, -2_147_483_648, 2_147_483_647) || !isInt(id, 1, 2_147_483_647)) throw badCursor();
  return { featured: f === 1, position: p, id };
}

/** Rows after `k` in the order featured desc, position asc, id desc. */
export function afterKey(k: ListKey) {
  return (eb: ExpressionBuilder<Database & { o: Database['offers'] }, 'o'>) =>
    eb.or([
      eb('o.featured', '<', k.featured),
      eb.and([
        eb('o.featured', '=', k.featured),
        eb.or([eb('o.position', '>', k.position), eb.and([eb('o.position', '=', k.position), eb('o.id', '<', k.id)])]),
      ]),
    ]);
}

/** A search as typed: trimmed, at most 100 characters, no control characters; '' is none. */
export function searchOf(q: unknown): string | null {
  if (q == null) return null;
  if (typeof q !== 'string') throw new AppError('BadRequest.Validation');
  const term = q.trim();
  if (!term) return null;
  if (term.length > 100 || hasForbiddenCharacters(term)) {
    throw new AppError('Offers.Invalid', { fields: { q: { code: 'Offers.Invalid', key: 'offers.list.searchInvalid' } } });
  }
  return term;
}

/** `%term%` for ILIKE, its wildcards taken literally. */
export const likeOf = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const weekOf = sql<string>`to_char(date_trunc('week', r.created_at at time zone 'UTC'), 'YYYY-MM-DD')`;
