import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError } from '#src/core/errors.ts';
import { e164, maskEmail, maskPhone } from '#src/core/fields.ts';
import { insertInCommunity, selectInCommunity, updateInCommunity } from '#src/db/tenancy.ts';
import type { OtcChannel } from '#src/db/types.ts';
import { findAccount, isMemberHere, issueSession, mailFrom, parseEmail, type AuthContext, type LoginResult } from './account.ts';
import { LIMITS, Throttle } from './throttle.ts';

/** Signing in with a one-time code: sending it (email or SMS) and redeeming it. */

export const CODE_LENGTH = 5;
export const CODE_TTL_MS = 10 * 60_000;

function codeHash(ctx: AuthContext, userId: number, code: string): string {
  // Bound to the user and the community: a code for one cannot be redeemed for another.
  return createHmac('sha256', ctx.config.cookieSecret).update(`${ctx.community.id}:${userId}:${code}`).digest('base64url');
}

export type CodeDestination = { channel: OtcChannel; masked: string };

/** Sends a 5-digit code, valid 10 minutes and once, by email or SMS to the member's phone. */
export async function sendOneTimeCode(ctx: AuthContext, input: { email: unknown; channel?: unknown }): Promise<CodeDestination> {
  const email = parseEmail(input.email);
  const channel: OtcChannel = input.channel === 'SMS' ? 'SMS' : 'EMAIL';
  // Every send counts, whatever comes of it.
  await new Throttle(ctx.db, ctx.clock).begin([
    { limit: LIMITS.codeSendsPerAccount, key: email },
    { limit: LIMITS.codeSendsPerIp, key: ctx.ip },
  ]);
  const account = await findAccount(ctx, email);
  if (!isMemberHere(account)) throw new AppError('Unrecognized.Email');
  const phone = e164(account.mobile_country_code, account.mobile_number);
  if (channel === 'SMS' && !phone) throw new AppError(110);
  const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
  const now = ctx.clock.now();
  const values = { code, name: ctx.community.name, minutes: CODE_TTL_MS / 60_000 };
  await ctx.db.transaction().execute(async (trx) => {
    // A new code replaces the ones before it.
    await updateInCommunity(trx, 'one_time_codes', ctx.community)
      .set({ used_at: now })
      .where('user_id', '=', account.id)
      .where('used_at', 'is', null)
      .execute();
    await insertInCommunity(trx, 'one_time_codes', ctx.community, {
      user_id: account.id,
      channel,
      destination: channel === 'SMS' ? phone! : account.email,
      code_hash: codeHash(ctx, account.id, code),
      created_at: now,
      expires_at: new Date(now.getTime() + CODE_TTL_MS),
    }).execute();
    // The message is queued with the code: both exist, or neither.
    if (channel === 'SMS') await ctx.messages.sms(trx, { to: phone!, body: ctx.t('auth.messages.codeSms', values) });
    else
      await ctx.messages.mail(trx, {
        to: account.email,
        from: mailFrom(ctx),
        subject: ctx.t('auth.messages.codeSubject', values),
        text: ctx.t('auth.messages.codeText', { ...values, firstName: account.first_name }),
      });
  });
  if (channel === 'SMS') return { channel, masked: maskPhone(account.mobile_country_code, account.mobile_number)! };
  return { channel, masked: maskEmail(account.email) };
}

/** Redeems a code: right, unexpired, unused, for this email and community; wrong guesses are limited. */
export async function verifyOneTimeCode(ctx: AuthContext, input: { email: unknown; code: unknown; remember?: boolean }): Promise<LoginResult> {
  const email = parseEmail(input.email);
  const code = typeof input.code === 'string' ? input.code.replace(/\s/g, '') : '';
  const attempt = await new Throttle(ctx.db, ctx.clock).begin([
    { limit: LIMITS.codeFailuresPerAccountAndIp, key: `${email}|${ctx.ip}` },
    { limit: LIMITS.codeFailuresPerAccount, key: email },
  ]);
  const account = await findAccount(ctx, email);
  const now = ctx.clock.now();
  const candidate =
    isMemberHere(account) && new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code)
      ? await selectInCommunity(ctx.db, 'one_time_codes', ctx.community)
          .select(['id', 'code_hash'])
          .where('user_id', '=', account.id)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .orderBy('created_at', 'desc')
          .executeTakeFirst()
      : undefined;
  const matches =
    candidate !== undefined && account !== undefined && safeEqual(candidate.code_hash, codeHash(ctx, account.id, code));
  if (!matches || !isMemberHere(account)) throw new AppError((await attempt.failed()) ?? 'BadRequest.InvalidCode');
  // Single use: only the request that flips used_at wins.
  const claimed = await updateInCommunity(ctx.db, 'one_time_codes', ctx.community)
    .set({ used_at: now })
    .where('id', '=', candidate!.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new AppError((await attempt.failed()) ?? 'BadRequest.InvalidCode');
  await attempt.succeeded();
  return issueSession(ctx, account, input.remember ?? false);
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
