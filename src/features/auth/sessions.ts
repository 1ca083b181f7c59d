import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import { randomToken, sha256 } from '#src/core/ids.ts';
import type { Identity } from '#src/core/identity.ts';
import { PUBLIC_IDENTITY } from '#src/core/identity.ts';
import type { Db } from '#src/db/index.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import type { Community, Gate, Role } from '#src/db/types.ts';
import { audiencePaths, type SessionTokens } from './session-tokens.ts';

/** Server-side sessions: starting, refreshing and ending them, and the identity a request's cookie gives. */

export const AUTH_COOKIE = 'auth';
/** The refresh token, exchanged for a new auth cookie on the same session (rotated each time). */
export const REFRESH_COOKIE = 'refresh';
/** "Remember me" keeps a member signed in for 30 days; otherwise the session ends after 12 hours. */
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const SHORT_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/**
 * How long a refresh token that was just rotated away still buys the same new pair: two refreshes
 * racing with one token (two tabs, a retry after a lost answer) must not end the session.
 */
export const REFRESH_GRACE_MS = 30 * 1000;

export const USER_AGENT_MAX = 512;

/** A User-Agent header as stored: control characters dropped, at most 512 characters; none is null. */
export function cleanUserAgent(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, USER_AGENT_MAX);
  return clean || null;
}

/** Starts a server-side session and returns the signed cookie value and a refresh token for it. */
export async function startSession(
  db: Db,
  tokens: SessionTokens,
  clock: Clock,
  input: { userId: number; community: Community; roles: Role[]; gate: Gate; basePath: string; remember?: boolean; userAgent?: string | null },
): Promise<{ token: string; sessionId: string; refreshToken: string; expiresAt: Date }> {
  const sessionId = randomToken();
  const refreshToken = randomToken();
  const ttl = input.remember === false ? SHORT_SESSION_TTL_MS : SESSION_TTL_MS;
  const expiresAt = new Date(clock.now().getTime() + ttl);
  await insertInCommunity(db, 'sessions', input.community, {
    id: sha256(sessionId),
    user_id: input.userId,
    expires_at: expiresAt,
    refresh_token_hash: sha256(refreshToken),
    created_at: clock.now(),
    user_agent: cleanUserAgent(input.userAgent),
  }).execute();
  const token = await signSessionCookie(tokens, { ...input, sessionId, expiresAt });
  return { token, sessionId, refreshToken, expiresAt };
}

async function signSessionCookie(
  tokens: SessionTokens,
  input: { userId: number; community: Community; roles: Role[]; gate: Gate; basePath: string; sessionId: string; expiresAt: Date },
  issuedAt?: Date,
) {
  const paths = audiencePaths(input.basePath);
  const aud = input.roles.includes('ADMIN') ? [paths.member, paths.admin] : [paths.member];
  return tokens.sign(
    {
      aud,
      sub: `u:${input.userId}`,
      brand: input.community.code,
      community: String(input.community.id),
      location: input.basePath || '/',
      gate: input.gate,
      sid: input.sessionId,
    },
    input.expiresAt,
    issuedAt,
  );
}

/**
 * Exchanges a refresh token for a new auth token on the same session, rotating the refresh token: a
 * stolen one that is used after its owner's is refused. The session's expiry moves forward.
 *
 * The pair that replaces a token is derived from it (SessionTokens.rotationOf) and signed with the
 * times stored at the rotation, so for REFRESH_GRACE_MS the token just rotated away answers the very
 * same pair (a race or a retry); after that, presenting it again means someone holds a copy, and the
 * session ends.
 */
export async function refreshSession(
  db: Db,
  tokens: SessionTokens,
  clock: Clock,
  input: { refreshToken: string; community: Community; basePath: string },
): Promise<{ token: string; refreshToken: string; expiresAt: Date } | null> {
  if (!input.refreshToken) return null;
  const now = clock.now();
  const presented = sha256(input.refreshToken);
  const next = tokens.rotationOf(input.refreshToken);
  const live = (column: 'sessions.refresh_token_hash' | 'sessions.previous_refresh_token_hash') =>
    selectInCommunity(db, 'sessions', input.community)
      .innerJoin('memberships', (j) =>
        j.onRef('memberships.user_id', '=', 'sessions.user_id').onRef('memberships.community_id', '=', 'sessions.community_id'),
      )
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id',
        'sessions.user_id',
        'sessions.created_at',
        'sessions.expires_at',
        'sessions.refreshed_at',
        'sessions.refresh_token_hash',
        'memberships.roles',
        'memberships.gate',
      ])
      .where(column, '=', presented)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now)
      .where('users.is_active', '=', true)
      .where('memberships.is_active', '=', true)
      .executeTakeFirst();
  const sign = (row: { user_id: number; roles: Role[]; gate: Gate }, expiresAt: Date, issuedAt: Date) =>
    signSessionCookie(
      tokens,
      { userId: row.user_id, community: input.community, roles: row.roles, gate: row.gate, basePath: input.basePath, sessionId: next.sessionId, expiresAt },
      issuedAt,
    );

  const row = await live('sessions.refresh_token_hash');
  if (row) {
    const ttl = new Date(row.expires_at).getTime() - new Date(row.created_at).getTime() > SHORT_SESSION_TTL_MS ? SESSION_TTL_MS : SHORT_SESSION_TTL_MS;
    const expiresAt = new Date(now.getTime() + ttl);
    // A new session id too: the old auth token stops working once refreshed.
    const updated = await updateInCommunity(db, 'sessions', input.community)
      .set({
        id: sha256(next.sessionId),
        refresh_token_hash: sha256(next.refreshToken),
        previous_refresh_token_hash: presented,
        refreshed_at: now,
        expires_at: expiresAt,
      })
      .where('id', '=', row.id)
      .where('refresh_token_hash', '=', presented)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 1) return { token: await sign(row, expiresAt, now), refreshToken: next.refreshToken, expiresAt };
    // Another refresh with this token won the race: it is now the previous token, answered below.
  }

  const rotated = await live('sessions.previous_refresh_token_hash');
  if (!rotated) return null;
  const rotatedAt = rotated.refreshed_at ? new Date(rotated.refreshed_at) : null;
  const successor = rotated.refresh_token_hash === sha256(next.refreshToken);
  if (rotatedAt && successor && now.getTime() - rotatedAt.getTime() <= REFRESH_GRACE_MS) {
    const expiresAt = new Date(rotated.expires_at);
    return { token: await sign(rotated, expiresAt, rotatedAt), refreshToken: next.refreshToken, expiresAt };
  }
  // A refresh token that was rotated away is replayed after the grace: someone holds a copy. End
  // that session, so neither the thief nor the owner keeps it (the owner signs in again).
  await updateInCommunity(db, 'sessions', input.community).set({ revoked_at: now }).where('id', '=', rotated.id).where('revoked_at', 'is', null).execute();
  return null;
}

/** Ends every session of a user except the given one (password changed or reset). */
export async function revokeOtherSessions(db: Db, clock: Clock, userId: number, keepSessionId: string | null): Promise<void> {
  await revokeSessions(db, clock, { userId, exceptId: keepSessionId ? sha256(keepSessionId) : undefined });
}

/**
 * Ends a session (signing out, or a new sign-in in its place), and in the same statement deletes the
 * Web Push subscriptions that session made: the browser stops showing the member's notifications.
 */
export async function revokeSession(db: Db, clock: Clock, sessionId: string): Promise<void> {
  await revokeSessions(db, clock, { id: sha256(sessionId) });
}

/**
 * Ends the sessions that match (stored ids: the hash of the session id) and, in the same statement,
 * deletes the Web Push subscriptions they made. Every way a session ends goes through here.
 */
export async function revokeSessions(db: Db, clock: Clock, match: { id?: string; userId?: number; communityId?: number; exceptId?: string }): Promise<void> {
  await db
    .with('revoked', (q) => {
      let u = q.updateTable('sessions').set({ revoked_at: clock.now() }).where('revoked_at', 'is', null);
      if (match.id !== undefined) u = u.where('id', '=', match.id);
      if (match.userId !== undefined) u = u.where('user_id', '=', match.userId);
      if (match.communityId !== undefined) u = u.where('community_id', '=', match.communityId);
      if (match.exceptId !== undefined) u = u.where('id', '!=', match.exceptId);
      return u.returning('id');
    })
    .deleteFrom('push_tokens')
    .where('platform', '=', 'web')
    .where('session_id', 'in', (eb) => eb.selectFrom('revoked').select('revoked.id'))
    .execute();
}

/** How often a session's last access is written: at most once per window (no write per request). */
export const ACCESS_WRITE_WINDOW_MS = 5 * 60_000;

/**
 * Records that a session was used now (the staff's "last accessed on any device"), but only when the
 * stored time, which the session look-up has just read, is older than the window: one write per
 * session every few minutes at most, whatever the number of requests. The membership's time follows.
 */
async function recordAccess(db: Db, clock: Clock, input: { sessionHash: string; userId: number; communityId: number; last: Date | string | null }) {
  const now = clock.now();
  if (input.last !== null && now.getTime() - new Date(input.last).getTime() < ACCESS_WRITE_WINDOW_MS) return;
  const since = new Date(now.getTime() - ACCESS_WRITE_WINDOW_MS);
  // One statement for both rows. The condition is repeated in SQL: two nodes (or two requests)
  // racing write once.
  await sql`
    with s as (
      update sessions set last_accessed_at = ${now}
      where id = ${input.sessionHash} and (last_accessed_at is null or last_accessed_at < ${since})
      returning user_id, community_id
    )
    update memberships m set last_accessed_at = ${now} from s
    where m.user_id = s.user_id and m.community_id = s.community_id and (m.last_accessed_at is null or m.last_accessed_at < ${now})`.execute(db);
}

/**
 * Derives the identity of a request exactly as spec section 6 says: an invalid or missing cookie is
 * public and logged out; the audience gives MEMBER or ADMIN; logged in only when the subject starts
 * with 'u:'. On top of the signature, the server-side session must be live, issued for this community
 * and this path prefix, and the user and membership active, with roles that still back the audience.
 */
export async function deriveIdentity(
  db: Db,
  tokens: SessionTokens,
  clock: Clock,
  cookie: string | undefined,
  community: Community,
  basePath: string,
): Promise<Identity> {
  if (!cookie) return PUBLIC_IDENTITY;
  const claims = await tokens.verify(cookie);
  if (!claims) return PUBLIC_IDENTITY;
  if (!claims.sub.startsWith('u:')) return PUBLIC_IDENTITY;
  const userId = Number(claims.sub.slice(2));
  if (!Number.isSafeInteger(userId) || userId <= 0) return PUBLIC_IDENTITY;
  if (claims.community !== String(community.id) || claims.location !== (basePath || '/')) return PUBLIC_IDENTITY;
  const kind = tokens.kindFromAudience(claims.aud);
  if (kind === 'PUBLIC') return PUBLIC_IDENTITY;

  const row = await selectInCommunity(db, 'sessions', community)
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('memberships', (j) =>
      j.onRef('memberships.user_id', '=', 'sessions.user_id').onRef('memberships.community_id', '=', 'sessions.community_id'),
    )
    .select([
      'users.id',
      'users.email',
      'users.username',
      'users.first_name',
      'users.last_name',
      'memberships.roles',
      'memberships.gate',
      'memberships.avatar_url',
      'memberships.company_name',
      'memberships.job_title',
      'memberships.location_name',
      'memberships.location_familiar_name',
      'memberships.public_url',
      'memberships.is_moderator',
      'sessions.last_accessed_at',
      // The bell's dot in the same statement (the partial index notifications_unviewed).
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('notifications')
              .select('notifications.id')
              .whereRef('notifications.community_id', '=', 'sessions.community_id')
              .whereRef('notifications.user_id', '=', 'sessions.user_id')
              .where('notifications.shown', '=', true)
              .where('notifications.viewed_at', 'is', null),
          )
          .as('has_unviewed'),
    ])
    .where('sessions.id', '=', sha256(claims.sid))
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', clock.now())
    .where('users.is_active', '=', true)
    .where('memberships.is_active', '=', true)
    .executeTakeFirst();
  if (!row) return PUBLIC_IDENTITY;
  // A bookkeeping write: if it fails (a lock, a failover), the request goes on without it.
  await recordAccess(db, clock, { sessionHash: sha256(claims.sid), userId, communityId: community.id, last: row.last_accessed_at }).catch((e: unknown) =>
    console.warn(`Could not record a session's last access: ${(e as Error).message}`),
  );

  // The audience may only narrow what the roles grant: an ADMIN cookie of a demoted user is a MEMBER.
  const effective: 'MEMBER' | 'ADMIN' = kind === 'ADMIN' && row.roles.includes('ADMIN') ? 'ADMIN' : 'MEMBER';
  return {
    kind: effective,
    loggedIn: true,
    sessionId: claims.sid,
    unviewedAtStart: row.has_unviewed === true,
    user: {
      id: row.id,
      email: row.email,
      username: row.username,
      firstName: row.first_name,
      lastName: row.last_name,
      roles: row.roles,
      gate: row.gate,
      avatarUrl: row.avatar_url,
      companyName: row.company_name,
      jobTitle: row.job_title,
      locationName: row.location_name,
      locationFamiliarName: row.location_familiar_name,
      publicUrl: row.public_url,
      isModerator: row.is_moderator,
    },
  };
}
