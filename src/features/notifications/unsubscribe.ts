import { hkdfSync } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { AppError } from '#src/core/errors.ts';
import { isNotificationKind } from '#src/lib/notification-kinds.ts';

/**
 * One-click unsubscribe links (RFC 8058): a JWT (HS256) under a key derived from COOKIE_SECRET for
 * this purpose alone (HKDF, info "notifications unsubscribe v1"; its audience says the same), carrying
 * the community, the member and the kind whose email stops ('*' for every kind: the digest's header).
 * No expiry: a link in an old email keeps working, and all it can ever do is turn email off.
 */
export type UnsubscribeClaims = { communityId: number; userId: number; kind: string };

const AUDIENCE = 'notifications.unsubscribe';
/** Longer than any link we make (about 200 characters); a bigger "token" is refused unread. */
const TOKEN_MAX = 1000;

export class UnsubscribeTokens {
  private readonly key: Uint8Array;
  constructor(secret: string) {
    this.key = new Uint8Array(hkdfSync('sha256', secret, 'notifications', 'notifications unsubscribe v1', 32));
  }

  async sign(claims: UnsubscribeClaims): Promise<string> {
    return new SignJWT({ c: claims.communityId, k: claims.kind })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(claims.userId))
      .setAudience(AUDIENCE)
      .sign(this.key);
  }

  /** The claims of a token we signed, or Notifications.InvalidUnsubscribeLink (400) for anything else. */
  async verify(token: unknown): Promise<UnsubscribeClaims> {
    const invalid = () => new AppError('Notifications.InvalidUnsubscribeLink');
    if (typeof token !== 'string' || token.length === 0 || token.length > TOKEN_MAX || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw invalid();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], audience: AUDIENCE }));
    } catch {
      throw invalid();
    }
    const userId = Number(payload.sub);
    const communityId = payload.c;
    const kind = payload.k;
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof communityId !== 'number' || !Number.isSafeInteger(communityId) || communityId <= 0) throw invalid();
    if (kind !== '*' && !isNotificationKind(kind)) throw invalid();
    return { communityId, userId, kind: kind as string };
  }
}
