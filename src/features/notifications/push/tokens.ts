import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity } from '#src/db/tenancy.ts';
import type { PushPlatform } from '#src/db/types.ts';
import { AppError } from '#src/core/errors.ts';
import { sha256 } from '#src/core/ids.ts';
import { tenantOf, type MemberRef } from '../types.ts';
import type { WebPushSubscription } from './types.ts';

/**
 * Push tokens (mobile devices) and Web Push subscriptions (browsers) of a member, per community: one
 * row per (community, token); a token registered again by another member of the same community (a
 * shared or handed-down device) moves to that member.
 */

/**
 * FCM registration tokens run to about 200 characters, APNs device tokens are 64 hex digits. A token
 * is a key of two btree indexes (push_tokens_token, notification_deliveries' primary key), whose
 * entries must stay under about 2.7 KB: 512 leaves room and fits every real token.
 */
export const TOKEN_MAX = 512;
const TOKEN_PATTERN = /^[A-Za-z0-9_:.\-]+$/;
/** A Web Push endpoint: printable ASCII only, so that 2048 characters are 2048 bytes in those indexes. */
export const ENDPOINT_MAX = 2048;
/** Devices (or browsers) kept per member and platform in a community: an 11th evicts the least recently used. */
export const DEVICES_MAX = 10;

export type PushDeviceView = { id: number; platform: PushPlatform; service: string | null; createdAt: Date; lastUsedAt: Date | null };

/** A mobile token, or Push.InvalidToken (400): 1 to 512 of the characters FCM and APNs tokens use. */
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

/** A host name as compared: lower case, without IPv6 brackets or the trailing dot(s) of a fully qualified name. */
const normalHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');

/** Hosts a server must not be made to POST to (a subscription's endpoint is the browser's word). */
function isPrivateHost(hostname: string): boolean {
  const h = normalHost(hostname);
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal')) return true;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(h)) {
    const [a, b] = h.split('.').map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  return h.includes(':'); // an IPv6 literal: push services are named hosts
}

/**
 * The push services browsers subscribe at (Chrome and Edge's FCM, Firefox's autopush, Safari's
 * Apple push, Windows' WNS): in production an endpoint must be on one of them, over https on port
 * 443. A written-host block list cannot stop a DNS name that resolves to a private address; a list
 * of known services can.
 */
const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com'];
const PUSH_SERVICE_SUFFIXES = ['.push.services.mozilla.com', '.push.apple.com', '.notify.windows.com'];

export function isKnownPushService(hostname: string): boolean {
  const h = normalHost(hostname);
  return PUSH_SERVICE_HOSTS.includes(h) || PUSH_SERVICE_SUFFIXES.some((suffix) => h.endsWith(suffix) && h.length > suffix.length);
}

/**
 * Whether the server may POST to this Web Push endpoint: in production only to a known push service
 * on https port 443; elsewhere (development, tests with local push services) any https host. Checked
 * when a browser subscribes and again before each push (rows stored before a rule changed).
 */
export function endpointAllowed(endpoint: string, production: boolean): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  if (!production) return true;
  return url.port === '' && isKnownPushService(url.hostname) && !isPrivateHost(url.hostname);
}

/**
 * A Web Push subscription as the browser gives it (PushSubscription.toJSON()): its endpoint, printable
 * ASCII, and its keys (checked below: base64url of their lengths); any other shape is refused.
 */
const Subscription = z.object({
  endpoint: z.string().max(ENDPOINT_MAX).regex(/^[\x21-\x7e]*$/),
  keys: z.object({ p256dh: z.unknown(), auth: z.unknown() }).partial().nullable().catch(null),
});

/**
 * A browser's subscription (PushSubscription.toJSON()), or Push.InvalidSubscription (400): an https
 * endpoint of at most 2048 printable ASCII characters (in production on a known push service, see
 * endpointAllowed), the p256dh key (an uncompressed P-256 point, 65 bytes) and the auth secret (16
 * bytes), base64url.
 */
export function checkSubscription(value: unknown, production: boolean): WebPushSubscription {
  const invalid = () => new AppError('Push.InvalidSubscription');
  const parsed = Subscription.safeParse(value);
  if (!parsed.success) throw invalid();
  const v = parsed.data;
  if (!endpointAllowed(v.endpoint, production)) throw invalid();
  const keys = v.keys ?? {};
  const p256dh = base64url(keys.p256dh, 65);
  const auth = base64url(keys.auth, 16);
  if (!p256dh || !auth || Buffer.from(p256dh, 'base64url')[0] !== 0x04) throw invalid();
  return { endpoint: v.endpoint, keys: { p256dh, auth } };
}

/**
 * Adds (or moves to this member) a token, then keeps the member's DEVICES_MAX most recently used of
 * that platform in the community: the others (never used first, then the oldest) are evicted, the
 * token just added never.
 */
async function upsert(db: Db, member: MemberRef, token: string, platform: PushPlatform, keys: WebPushSubscription['keys'] | null, now: Date, sessionId: string | null = null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertInCommunity(trx, 'push_tokens', tenantOf(member), { user_id: member.userId, token, platform, keys: keys ? JSON.stringify(keys) : null, created_at: now, session_id: sessionId })
      .onConflict((oc) =>
        oc.columns(['community_id', 'token']).doUpdateSet((eb) => ({
          user_id: eb.ref('excluded.user_id'),
          platform: eb.ref('excluded.platform'),
          keys: eb.ref('excluded.keys'),
          created_at: eb.ref('excluded.created_at'),
          session_id: eb.ref('excluded.session_id'),
        })),
      )
      .execute();
    const evicted = await selectInCommunity(trx, 'push_tokens', tenantOf(member))
      .select('id')
      .where('user_id', '=', member.userId)
      .where('platform', '=', platform)
      .where('token', '!=', token)
      .orderBy(sql`last_used_at desc nulls last`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(DEVICES_MAX - 1)
      .execute();
    if (evicted.length) await deleteInCommunity(trx, 'push_tokens', tenantOf(member)).where('id', 'in', evicted.map((r) => r.id)).execute();
  });
}

/** notificationsPushTokenAdd: a mobile device's token, iOS if isIos, else FCM (spec section 7). */
export async function addPushToken(db: Db, member: MemberRef, input: { token: unknown; isIos?: unknown; isFcm?: unknown }, now: Date): Promise<void> {
  const token = checkToken(input.token);
  await upsert(db, member, token, input.isIos === true ? 'ios' : 'fcm', null, now);
}

/** notificationsPushTokenRemove: the member's own token, in this community only (the same tokens add takes). */
export async function removePushToken(db: Db, member: MemberRef, tokenValue: unknown): Promise<void> {
  const token = checkToken(tokenValue);
  await deleteInCommunity(db, 'push_tokens', tenantOf(member)).where('user_id', '=', member.userId).where('token', '=', token).execute();
}

/**
 * This browser's Web Push subscription (its endpoint is the token), tied to the session that
 * subscribed (given as the raw session id, kept as the sessions row's id, its hash): signing out
 * removes it (see revokeSession), so a shared computer stops showing the member's notifications.
 */
export async function addSubscription(db: Db, member: MemberRef, body: unknown, now: Date, production: boolean, sessionId: string | null = null): Promise<void> {
  const sub = checkSubscription(body, production);
  await upsert(db, member, sub.endpoint, 'web', sub.keys, now, sessionId ? sha256(sessionId) : null);
}

/** The subscription to forget: its endpoint (the token). */
const SubscriptionRef = z.object({ endpoint: z.string().min(1).max(ENDPOINT_MAX) });

/** Forgets this browser's subscription ({ endpoint }), for the member who turns it off. */
export async function removeSubscription(db: Db, member: MemberRef, body: unknown): Promise<void> {
  const parsed = SubscriptionRef.safeParse(body);
  if (!parsed.success) throw new AppError('Push.InvalidSubscription');
  const { endpoint } = parsed.data;
  await deleteInCommunity(db, 'push_tokens', tenantOf(member)).where('user_id', '=', member.userId).where('platform', '=', 'web').where('token', '=', endpoint).execute();
}

/**
 * The devices page in one read: the member's devices and browsers, newest first (no tokens: the
 * page has no use for them), and the endpoints of their browsers (the island tells whether this
 * browser is one of them).
 */
export async function devicesPage(db: Db, member: MemberRef): Promise<{ devices: PushDeviceView[]; knownEndpoints: string[] }> {
  const rows = await selectInCommunity(db, 'push_tokens', tenantOf(member))
    .select(['id', 'platform', 'token', 'created_at', 'last_used_at'])
    .where('user_id', '=', member.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return {
    devices: rows.map((r) => ({
      id: r.id,
      platform: r.platform,
      service: r.platform === 'web' && URL.canParse(r.token) ? new URL(r.token).hostname : null,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
    })),
    knownEndpoints: rows.filter((r) => r.platform === 'web').map((r) => r.token),
  };
}

/** The member's devices and browsers, newest first. */
export async function listDevices(db: Db, member: MemberRef): Promise<PushDeviceView[]> {
  return (await devicesPage(db, member)).devices;
}

/** The devices page's Remove button: true if the member had that device here. */
export async function removeDevice(db: Db, member: MemberRef, id: number): Promise<boolean> {
  const res = await deleteInCommunity(db, 'push_tokens', tenantOf(member)).where('id', '=', id).where('user_id', '=', member.userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}
