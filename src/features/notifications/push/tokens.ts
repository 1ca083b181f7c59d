import type { Db } from '#src/db/index.ts';
import type { PushPlatform } from '#src/db/types.ts';
import { AppError } from '#src/core/errors.ts';
import type { MemberRef } from '../types.ts';
import type { WebPushSubscription } from './types.ts';

/**
 * Push tokens (mobile devices) and Web Push subscriptions (browsers) of a member, per community: one
 * row per (community, token); a token registered again by another member of the same community (a
 * shared or handed-down device) moves to that member.
 */

/** FCM registration tokens run to about 200 characters, APNs device tokens are 64 hex digits. */
export const TOKEN_MAX = 4096;
const TOKEN_PATTERN = /^[A-Za-z0-9_:.\-]+$/;
export const ENDPOINT_MAX = 2048;

export type PushDeviceView = { id: number; platform: PushPlatform; service: string | null; createdAt: Date; lastUsedAt: Date | null };

/** A mobile token, or Push.InvalidToken (400): 1 to 4096 of the characters FCM and APNs tokens use. */
export function checkToken(value: unknown): string {
  const token = typeof value === 'string' ? value.trim() : '';
  if (!token || token.length > TOKEN_MAX || !TOKEN_PATTERN.test(token)) throw new AppError('Push.InvalidToken');
  return token;
}

const base64url = (value: unknown, bytes: number): string | null => {
  if (typeof value !== 'string' || value.length > 200 || !/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return null;
  const raw = Buffer.from(value, 'base64url');
  return raw.length === bytes ? value.replace(/=+$/, '') : null;
};

/** Hosts a production server must not be made to POST to (a subscription's endpoint is the browser's word). */
function isPrivateHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(h)) {
    const [a, b] = h.split('.').map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  return h.includes(':'); // an IPv6 literal: push services are named hosts
}

/**
 * A browser's subscription (PushSubscription.toJSON()), or Push.InvalidSubscription (400): an https
 * endpoint of at most 2048 characters (in production not a local or private address), the p256dh
 * key (an uncompressed P-256 point, 65 bytes) and the auth secret (16 bytes), base64url.
 */
export function checkSubscription(value: unknown, production: boolean): WebPushSubscription {
  const v = (value ?? {}) as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } | null };
  const invalid = () => new AppError('Push.InvalidSubscription');
  if (typeof v !== 'object' || typeof v.endpoint !== 'string' || v.endpoint.length > ENDPOINT_MAX || !URL.canParse(v.endpoint)) throw invalid();
  const url = new URL(v.endpoint);
  if (url.protocol !== 'https:' || url.username || url.password || /[\u0000-\u001f\s]/.test(v.endpoint)) throw invalid();
  if (production && isPrivateHost(url.hostname)) throw invalid();
  const keys = typeof v.keys === 'object' && v.keys !== null ? v.keys : {};
  const p256dh = base64url(keys.p256dh, 65);
  const auth = base64url(keys.auth, 16);
  if (!p256dh || !auth || Buffer.from(p256dh, 'base64url')[0] !== 0x04) throw invalid();
  return { endpoint: v.endpoint, keys: { p256dh, auth } };
}

async function upsert(db: Db, member: MemberRef, token: string, platform: PushPlatform, keys: WebPushSubscription['keys'] | null, now: Date): Promise<void> {
  await db
    .insertInto('push_tokens')
    .values({ community_id: member.communityId, user_id: member.userId, token, platform, keys: keys ? JSON.stringify(keys) : null, created_at: now })
    .onConflict((oc) =>
      oc.columns(['community_id', 'token']).doUpdateSet((eb) => ({
        user_id: eb.ref('excluded.user_id'),
        platform: eb.ref('excluded.platform'),
        keys: eb.ref('excluded.keys'),
        created_at: eb.ref('excluded.created_at'),
      })),
    )
    .execute();
}

/** notificationsPushTokenAdd: a mobile device's token, iOS if isIos, else FCM (spec section 7). */
export async function addPushToken(db: Db, member: MemberRef, input: { token: unknown; isIos?: unknown; isFcm?: unknown }, now: Date): Promise<void> {
  const token = checkToken(input.token);
  await upsert(db, member, token, input.isIos === true ? 'ios' : 'fcm', null, now);
}

/** notificationsPushTokenRemove: the member's own token, in this community only. */
export async function removePushToken(db: Db, member: MemberRef, tokenValue: unknown): Promise<void> {
  const token = typeof tokenValue === 'string' ? tokenValue.trim() : '';
  if (!token || token.length > ENDPOINT_MAX) throw new AppError('Push.InvalidToken');
  await db.deleteFrom('push_tokens').where('community_id', '=', member.communityId).where('user_id', '=', member.userId).where('token', '=', token).execute();
}

/** This browser's Web Push subscription (its endpoint is the token). */
export async function addSubscription(db: Db, member: MemberRef, body: unknown, now: Date, production: boolean): Promise<void> {
  const sub = checkSubscription(body, production);
  await upsert(db, member, sub.endpoint, 'web', sub.keys, now);
}

/** Forgets this browser's subscription ({ endpoint }), for the member who turns it off. */
export async function removeSubscription(db: Db, member: MemberRef, body: unknown): Promise<void> {
  const endpoint = (body as { endpoint?: unknown } | null)?.endpoint;
  if (typeof endpoint !== 'string' || !endpoint || endpoint.length > ENDPOINT_MAX) throw new AppError('Push.InvalidSubscription');
  await db.deleteFrom('push_tokens').where('community_id', '=', member.communityId).where('user_id', '=', member.userId).where('platform', '=', 'web').where('token', '=', endpoint).execute();
}

/** The devices page: the member's devices and browsers, newest first (no tokens: the page has no use for them). */
export async function listDevices(db: Db, member: MemberRef): Promise<PushDeviceView[]> {
  const rows = await db
    .selectFrom('push_tokens')
    .select(['id', 'platform', 'token', 'created_at', 'last_used_at'])
    .where('community_id', '=', member.communityId)
    .where('user_id', '=', member.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    platform: r.platform,
    service: r.platform === 'web' && URL.canParse(r.token) ? new URL(r.token).hostname : null,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  }));
}

/** The devices page's Remove button: true if the member had that device here. */
export async function removeDevice(db: Db, member: MemberRef, id: number): Promise<boolean> {
  const res = await db.deleteFrom('push_tokens').where('id', '=', id).where('community_id', '=', member.communityId).where('user_id', '=', member.userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
