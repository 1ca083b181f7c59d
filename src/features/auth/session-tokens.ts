import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '#src/core/clock.ts';
import type { IdentityKind } from '#src/core/identity.ts';
import type { Gate } from '#src/db/types.ts';

/** The signed auth token of a session (an HS256 JWT): its claims, signing, verifying and rotation. */

/** The audience paths of spec section 6: the member GraphQL path, and for admins the admin one too. */
export function audiencePaths(basePath: string) {
  return { member: `${basePath}/graphql`, admin: `${basePath}/graphqlAdmin` };
}

/** How many verified tokens SessionTokens remembers, and how long one may be to be remembered. */
const VERIFIED_MAX = 10_000;
const VERIFIED_TOKEN_MAX_LENGTH = 2_048;

export type AuthClaims = {
  aud: string[];
  sub: string; // 'u:<id>'
  brand: string; // the community's code
  community: string; // the community's id
  location: string; // the path prefix the cookie was issued for
  gate: Gate;
  sid: string; // server-side session id (stored hashed)
};

export class SessionTokens {
  private readonly key: Uint8Array;
  /** The HMAC key imported once: jose would otherwise import the raw secret again on every verify. */
  private cryptoKey: Promise<CryptoKey> | undefined;

  constructor(
    secret: string,
    private readonly basePath: string,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  private hmacKey(): Promise<CryptoKey> {
    this.cryptoKey ??= globalThis.crypto.subtle.importKey('raw', this.key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.cryptoKey;
  }

  /** Signs the claims; with the same claims and times the token is the same (HS256 is deterministic). */
  async sign(claims: AuthClaims, expiresAt: Date, issuedAt: Date = this.clock.now()): Promise<string> {
    const { aud, sub, ...rest } = claims;
    return new SignJWT(rest)
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(aud)
      .setSubject(sub)
      .setIssuedAt(Math.floor(issuedAt.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(await this.hmacKey());
  }

  /**
   * Tokens already verified, with their time limits: a member's every request carries the same cookie,
   * and the signature of the same string need not be checked again. Only the times are (the exact
   * checks jose makes); at most VERIFIED_MAX entries, the oldest dropped first.
   */
  private readonly verified = new Map<string, { claims: AuthClaims; exp: number | undefined; nbf: number | undefined }>();

  /** Verifies signature and expiry; any failure yields null (a public, logged-out identity). */
  async verify(token: string): Promise<AuthClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      const now = Math.floor(this.clock.now().getTime() / 1000);
      if ((known.exp === undefined || known.exp > now) && (known.nbf === undefined || known.nbf <= now)) return { ...known.claims, aud: [...known.claims.aud] };
      this.verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, await this.hmacKey(), {
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
      });
      const aud = Array.isArray(payload.aud) ? payload.aud : payload.aud ? [payload.aud] : [];
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      const claims: AuthClaims = {
        aud,
        sub: payload.sub,
        brand: String(payload.brand ?? ''),
        community: String(payload.community ?? ''),
        location: String(payload.location ?? ''),
        gate: payload.gate === 'onboarding' ? 'onboarding' : 'app',
        sid: payload.sid,
      };
      if (token.length <= VERIFIED_TOKEN_MAX_LENGTH) {
        if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
        this.verified.set(token, { claims: { ...claims, aud: [...aud] }, exp: payload.exp, nbf: payload.nbf });
      }
      return claims;
    } catch (e) {
      if (e instanceof joseErrors.JOSEError || e instanceof TypeError) return null;
      throw e;
    }
  }

  /**
   * The refresh token and session id that replace a refresh token when it is rotated, derived from it
   * with a keyed hash: a refresh that lost a race can compute the same pair again, and nothing but
   * hashes is stored. Without the secret, an old token tells nothing of its successor.
   */
  rotationOf(refreshToken: string): { refreshToken: string; sessionId: string } {
    const derive = (purpose: string) => createHmac('sha256', this.key).update(`${purpose}\0${refreshToken}`).digest('base64url');
    return { refreshToken: derive('refresh-token'), sessionId: derive('session-id') };
  }

  /** The identity kind the audience grants (spec section 6), before the server-side checks. */
  kindFromAudience(aud: string[]): IdentityKind {
    const paths = audiencePaths(this.basePath);
    if (!aud.includes(paths.member)) return 'PUBLIC';
    return aud.includes(paths.admin) ? 'ADMIN' : 'MEMBER';
  }
}
