import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Community } from '#src/db/types.ts';
import type { BalanceRef } from './service.ts';

/**
 * The balance a client checked last, so that the spec's pay call, `POST /rest/payment/pay-balance`
 * {token, userId} and `paySubscriptionByToken(userId, token)`, needs no subscription id: checking a
 * balance (`check-balance`, `subscriptionBalance`, opening `/pay-now`) with the right pair sets a
 * short-lived signed cookie naming that pair, and a pay call for the same userId pays that balance.
 * Only the right pair sets it, so a user id alone still learns nothing (docs/decisions/0042). HttpOnly
 * and SameSite=Strict: only this site's own calls carry it.
 */
export const CHECKED_COOKIE = 'paynow_checked';
export const CHECKED_TTL_MS = 30 * 60 * 1000;

type Checked = { c: number; u: number; s: string; e: number };

export function rememberCheckedBalance(request: FastifyRequest, reply: FastifyReply, community: Community, ref: BalanceRef): void {
  const app = request.server;
  const value: Checked = { c: community.id, u: ref.userId, s: ref.subscriptionId, e: app.clock.now().getTime() + CHECKED_TTL_MS };
  reply.setCookie(CHECKED_COOKIE, Buffer.from(JSON.stringify(value)).toString('base64url'), {
    path: app.config.basePath || '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: app.config.isProduction,
    maxAge: CHECKED_TTL_MS / 1000,
    signed: true,
  });
}

/** The pair this client checked within the last 30 minutes in this community, or null. */
export function checkedBalance(request: FastifyRequest, community: Community): BalanceRef | null {
  const raw = request.cookies?.[CHECKED_COOKIE];
  if (!raw || raw.length > 1000) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  try {
    const v = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')) as Partial<Checked>;
    if (v.c !== community.id || typeof v.u !== 'number' || typeof v.s !== 'string' || typeof v.e !== 'number') return null;
    if (v.e <= request.server.clock.now().getTime()) return null;
    return { userId: v.u, subscriptionId: v.s };
  } catch {
    return null;
  }
}
