import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '#src/core/errors.ts';
import { INVITE_TTL_MS } from '../rules.ts';
import type { InvitationFields } from './types.ts';
import { parseId } from '#src/core/ids.ts';

export type { InvitationFields };

/**
 * Signed invitation links (issue 15, decision 0035): `/expert-panels/invite?ids=1,2,3&m=<userId>&exp=<unix
 * seconds>&sig=<base64url HMAC-SHA256>`. The signature covers the community, the member, the question
 * ids and the expiry, under a key derived from COOKIE_SECRET for this purpose alone (its own prefix, as
 * payments derive theirs): a link changed in any part, made for another member or used on another
 * community's address does not verify; after `exp` it is expired (the member signed in may still use it).
 */

export type Invitation = { communityId: number; userId: number; questionIds: number[]; expiresAt: Date };

/** What a link carries, as the query string (or a form's hidden fields) hands it over. */
export type InvitationInput = { ids?: unknown; m?: unknown; exp?: unknown; sig?: unknown };


/** A link lists the questions of one batch (at most 20), or of a reminder: never this many. */
export const INVITE_IDS_MAX = 50;
const SIG_LENGTH = 43; // 32 bytes, base64url without padding

const keyOf = (secret: string) => `expert-panels:invite:${secret}`;

/** The ids once each, ascending: the order the signature covers. */
const canonicalIds = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

function sign(secret: string, communityId: number, userId: number, ids: readonly number[], exp: number): string {
  return createHmac('sha256', keyOf(secret)).update(`ep-invite v1\n${communityId}\n${userId}\n${ids.join(',')}\n${exp}`).digest('base64url');
}

/** A link's expiry for one made now. */
export const invitationExpiry = (now: Date) => new Date(now.getTime() + INVITE_TTL_MS);

/** The link's fields (query string or hidden fields). */
export function invitationFields(secret: string, invitation: Invitation): InvitationFields {
  const ids = canonicalIds(invitation.questionIds);
  const exp = Math.floor(invitation.expiresAt.getTime() / 1000);
  return { ids: ids.join(','), m: String(invitation.userId), exp: String(exp), sig: sign(secret, invitation.communityId, invitation.userId, ids, exp) };
}

/** The link's query string, commas left as they are (they need no escaping in a query). */
export const invitationQuery = (f: InvitationFields) => `ids=${f.ids}&m=${f.m}&exp=${f.exp}&sig=${f.sig}`;

/** The invitation page's address for a member and questions (an application path, without the prefix). */
export function invitationPath(secret: string, invitation: Invitation): string {
  return `/expert-panels/invite?${invitationQuery(invitationFields(secret, invitation))}`;
}

const positive = (s: string): number | null => parseId(s);

/** A verified link: its member and questions, and whether it is past its expiry. */
export type ReadInvitation = Invitation & { expired: boolean; fields: InvitationFields };

/**
 * Reads and verifies a link for the request's community: no ids at all is ExpertPanels.InviteMissingIds
 * (spec: missing required argument ids); anything malformed, or a signature that does not match
 * (tampered, another member's ids, another community's link) is ExpertPanels.InviteLoadFailed. The
 * signature is compared in constant time. Expiry is reported, not refused: whether it matters depends
 * on who is signed in (resolveInvitation).
 */
export function readInvitation(secret: string, communityId: number, input: InvitationInput, now: Date): ReadInvitation {
  const failed = () => new AppError('ExpertPanels.InviteLoadFailed');
  if (input.ids === undefined || input.ids === null || input.ids === '') throw new AppError('ExpertPanels.InviteMissingIds');
  const { ids: rawIds, m, exp: rawExp, sig } = input;
  if (typeof rawIds !== 'string' || typeof m !== 'string' || typeof rawExp !== 'string' || typeof sig !== 'string') throw failed();
  if (rawIds.length > INVITE_IDS_MAX * 11 || sig.length !== SIG_LENGTH || !/^[\w-]+$/.test(sig)) throw failed();
  const parts = rawIds.split(',');
  if (parts.length > INVITE_IDS_MAX) throw failed();
  const parsed = parts.map(positive);
  if (parsed.some((n) => n === null)) throw failed();
  const userId = positive(m);
  const exp = /^\d{1,12}$/.test(rawExp) ? Number(rawExp) : null;
  if (userId === null || exp === null) throw failed();
  const ids = canonicalIds(parsed as number[]);
  const expected = Buffer.from(sign(secret, communityId, userId, ids, exp));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw failed();
  const expiresAt = new Date(exp * 1000);
  return { communityId, userId, questionIds: ids, expiresAt, expired: now.getTime() >= expiresAt.getTime(), fields: { ids: ids.join(','), m: String(userId), exp: String(exp), sig } };
}

/** A link that must be good as it stands (signed for this community, and not expired). */
export function verifyInvitation(secret: string, communityId: number, input: InvitationInput, now: Date): ReadInvitation {
  const link = readInvitation(secret, communityId, input, now);
  if (link.expired) throw new AppError('ExpertPanels.InviteLoadFailed');
  return link;
}

/** Who may act on a link: the member signed in (their session), or, signed out, the link while it is valid. */
export type InvitationAccess =
  | { ok: true; link: ReadInvitation; via: 'session' | 'link' }
  /** `link` when the signature held (expired, or another member signed in): signing in as its member would do. */
  | { ok: false; error: AppError; link: ReadInvitation | null };

/**
 * The rule of decision 0035. Signed in as the link's member: their session authorises, the link only
 * lists the questions (even expired). Signed in as anyone else: InviteLoadFailed. Signed out: the link
 * itself authorises, for its member and its questions only, until it expires.
 */
export function resolveInvitation(secret: string, communityId: number, input: InvitationInput, now: Date, signedInUserId: number | null): InvitationAccess {
  let link: ReadInvitation;
  try {
    link = readInvitation(secret, communityId, input, now);
  } catch (e) {
    if (e instanceof AppError) return { ok: false, error: e, link: null };
    throw e;
  }
  if (signedInUserId !== null) {
    if (signedInUserId === link.userId) return { ok: true, link, via: 'session' };
    return { ok: false, error: new AppError('ExpertPanels.InviteLoadFailed'), link };
  }
  if (link.expired) return { ok: false, error: new AppError('ExpertPanels.InviteLoadFailed'), link };
  return { ok: true, link, via: 'link' };
}
