import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { AppError } from '#src/core/errors.ts';
import { ensureText, phoneField } from '#src/core/fields.ts';
import { sha256 } from '#src/core/ids.ts';
import type { Db } from '#src/db/index.ts';
import { selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import { authContext, revokeOtherSessions, revokeSession, revokeSessions, updatePassword } from '#src/features/auth/index.ts';
import type { CountryOption, PhoneView, SecurityView, SessionView } from './types.ts';

/**
 * Settings → Security (spec section 2 "Settings screens"): the username (read-only), the password
 * change, the mobile phone, and the member's active sessions. One function per action, shared by the
 * forms and GraphQL. Everything is scoped to the member and the community of the request.
 */

/** The member asking, from the request the Guardian let through as a member. */
function memberOf(request: FastifyRequest): { userId: number; sessionId: string } {
  const identity = request.identity;
  if (!identity.loggedIn) throw new AppError('NotAuthenticated');
  return { userId: identity.user.id, sessionId: identity.sessionId };
}

const dateOf = (d: Date) => d.toISOString().slice(0, 10);

/** "Chrome on macOS" from a User-Agent; null when neither part is recognised. */
export function deviceLabel(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const ua = userAgent;
  const browser = /Edg(e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\/|FxiOS\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|CriOS\/|Chromium\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const os = /iPhone|iPad|iPod/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Windows/.test(ua)
          ? 'Windows'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os;
}

/** Regions with their calling codes for the country select, sorted by name; US first is the default. */
let countryCache: CountryOption[] | null = null;
export function countryOptions(): CountryOption[] {
  if (countryCache) return countryCache;
  const names = new Intl.DisplayNames(['en'], { type: 'region' });
  countryCache = getCountries()
    .map((code) => ({ code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return countryCache;
}

export function phoneView(countryCode: string | null, number: string | null): PhoneView | null {
  if (!number) return null;
  const parsed = parsePhoneNumberFromString(number, (countryCode ?? 'US').toUpperCase() as CountryCode);
  return { countryCode: (countryCode ?? 'US').toUpperCase(), number, formatted: parsed?.formatInternational() ?? number };
}

/** How many sessions the security section lists: this device and the most recently used others. */
export const SESSIONS_SHOWN = 5;

/**
 * The member's active sessions in this community: this device first, then the others most recently
 * used (last access, else sign-in), SESSIONS_SHOWN in all; and how many others there are in all (a
 * member who never signs out piles up dozens, which the page counts rather than lists).
 */
export async function listSessions(
  db: Db,
  now: Date,
  community: Tenant,
  userId: number,
  currentSessionId: string,
): Promise<{ sessions: SessionView[]; otherCount: number }> {
  const current = sha256(currentSessionId);
  const active = selectInCommunity(db, 'sessions', community)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  const [rows, counted] = await Promise.all([
    active
      .select(['id', 'user_agent', 'created_at', 'last_accessed_at'])
      // This device first, whenever it was last seen; then the most recent others.
      .orderBy(sql`id = ${current}`, 'desc')
      .orderBy(sql`coalesce(last_accessed_at, created_at)`, 'desc')
      .orderBy('created_at', 'desc')
      .limit(SESSIONS_SHOWN)
      .execute(),
    active.select((eb) => eb.fn.countAll<string>().as('n')).where('id', '!=', current).executeTakeFirstOrThrow(),
  ]);
  const sessions = rows.map((r) => ({
    // The stored id is already a hash of the secret: usable in a form, it signs nobody in.
    id: r.id,
    device: deviceLabel(r.user_agent),
    signedInAt: new Date(r.created_at),
    lastAccessAt: r.last_accessed_at ? new Date(r.last_accessed_at) : null,
    current: r.id === current,
  }));
  return { sessions, otherCount: Number(counted.n) };
}

export async function securityView(request: FastifyRequest): Promise<SecurityView> {
  const app = request.server;
  const { userId, sessionId } = memberOf(request);
  const user = await app.db.selectFrom('users').select(['username', 'email', 'mobile_country_code', 'mobile_number']).where('id', '=', userId).executeTakeFirstOrThrow();
  const { sessions, otherCount } = await listSessions(app.db, app.clock.now(), request.community, userId, sessionId);
  return {
    username: user.username || user.email,
    concierge: { email: request.community.concierge_email, phone: request.community.concierge_phone },
    phone: phoneView(user.mobile_country_code, user.mobile_number),
    sessions,
    otherSessionCount: otherCount,
  };
}

/** The member's mobile phone as the edit form starts from (US and empty when none). */
export async function currentPhone(request: FastifyRequest): Promise<{ countryCode: string; number: string }> {
  const { userId } = memberOf(request);
  const user = await request.server.db.selectFrom('users').select(['mobile_country_code', 'mobile_number']).where('id', '=', userId).executeTakeFirstOrThrow();
  return { countryCode: user.mobile_number ? (user.mobile_country_code ?? 'US').toUpperCase() : 'US', number: user.mobile_number ?? '' };
}

async function notifySecurity(request: FastifyRequest, trx: Db, userId: number, key: string) {
  const app = request.server;
  const now = app.clock.now();
  await app.notifications.notify(trx, {
    communityId: request.community.id,
    userId,
    kind: 'account_security',
    url: '/settings/security',
    message: app.t(key, { date: dateOf(now) }),
    createdAt: now,
  });
}

/**
 * Changes the member's password (the form and GraphQL `passwordUpdate`): the current one must be
 * right, the new one strong (and equal to the confirmation when given). The member is notified in the
 * transaction that stores it; every other session of the member ends, this one stays signed in.
 */
export async function changePassword(request: FastifyRequest, input: { oldPassword: unknown; newPassword: unknown; confirm?: unknown }): Promise<void> {
  const { userId, sessionId } = memberOf(request);
  await updatePassword(authContext(request), { userId, sessionId, ...input }, (trx) => notifySecurity(request, trx, userId, 'settings.security.passwordChangedNotice'));
}

/** Sets or (an empty number) removes the member's mobile phone; error 110 on the number otherwise. */
export async function changeMobilePhone(request: FastifyRequest, input: { countryCode: unknown; number: unknown }): Promise<PhoneView | null> {
  const { userId } = memberOf(request);
  if ((input.countryCode != null && typeof input.countryCode !== 'string') || (input.number != null && typeof input.number !== 'string')) throw invalidPhone('number');
  ensureText({ countryCode: input.countryCode, number: input.number });
  const countryCode = typeof input.countryCode === 'string' && input.countryCode.trim() ? input.countryCode.trim().toUpperCase() : 'US';
  const number = typeof input.number === 'string' ? input.number.trim() : '';
  if (countryCode.length !== 2 || !getCountries().includes(countryCode as CountryCode)) throw invalidPhone('countryCode');
  if (number.length > 40) throw invalidPhone('number');
  const parsed = phoneField.safeParse({ countryCode, number });
  if (!parsed.success) throw invalidPhone('number');
  const value = number ? (parsePhoneNumberFromString(number, countryCode as CountryCode)?.nationalNumber ?? number) : null;
  const app = request.server;
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ mobile_country_code: value ? countryCode : null, mobile_number: value, updated_at: app.clock.now() })
      .where('id', '=', userId)
      .execute();
    await notifySecurity(request, trx, userId, value ? 'settings.security.phoneChangedNotice' : 'settings.security.phoneRemovedNotice');
  });
  return phoneView(value ? countryCode : null, value);
}

function invalidPhone(field: string) {
  return new AppError(110, { fields: { [field]: { code: 110, key: 'errors.client.invalidPhone' } } });
}

/**
 * Ends one of the member's sessions in this community (by its listed id). Another member's id, or one
 * from another community, changes nothing: the update is scoped. Returns whether it was the current one.
 */
export async function signOutSession(request: FastifyRequest, id: unknown): Promise<{ current: boolean }> {
  const { userId, sessionId } = memberOf(request);
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) throw new AppError(900, { fields: { session: { code: 900, key: 'errors.client.missingInput' } } });
  const app = request.server;
  if (id === sha256(sessionId)) {
    await revokeSession(app.db, app.clock, sessionId);
    return { current: true };
  }
  await revokeSessions(app.db, app.clock, { id, userId, communityId: request.community.id });
  return { current: false };
}

/** Ends every other session of the member (all communities: the password is the user's, not the membership's). */
export async function signOutOtherSessions(request: FastifyRequest): Promise<void> {
  const { userId, sessionId } = memberOf(request);
  await revokeOtherSessions(request.server.db, request.server.clock, userId, sessionId);
}
