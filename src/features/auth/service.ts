import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Config } from '#src/config.ts';
import type { Clock } from '#src/core/clock.ts';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { e164, emailField, ensureText, isStrongPassword, maskEmail, maskPhone } from '#src/core/fields.ts';
import type { Translate } from '#src/core/i18n.ts';
import { randomToken, sha256 } from '#src/core/ids.ts';
import { ensurePasswordCheckRoom, hashPassword, verifyPassword } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import type { Community, OtcChannel, Role } from '#src/db/types.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import type { Messages } from '#src/lib/messaging/outgoing.ts';
import { revokeOtherSessions, SessionTokens, startSession } from './sessions.ts';
import { LIMITS, Throttle, type Attempt, type Check } from './throttle.ts';

export const CODE_LENGTH = 5;
export const CODE_TTL_MS = 10 * 60_000;
export const RESET_TOKEN_TTL_MS = 60 * 60_000;
export const SETUP_TOKEN_TTL_MS = 7 * 24 * 60 * 60_000;

export type AuthContext = {
  db: Db;
  clock: Clock;
  config: Config;
  tokens: SessionTokens;
  /** Mail and SMS, enqueued on the durable queue with the writes that make their codes. */
  messages: Messages;
  jobs: JobQueue;
  t: Translate;
  community: Community;
  /** The client's address, for the per-address limits. */
  ip: string;
  /** The browser's User-Agent (cleaned), stored with a new session for the settings' device list. */
  userAgent?: string | null;
};

export type SmsOption = { id: string; maskedValue: string };
export type AuthStrategies = { passwordStrategy: boolean; otcSmsStrategy: boolean; otcEmailStrategy: boolean; smsOptions: SmsOption[] };

export type LoginResult = {
  user: { id: number; email: string; displayName: string };
  community: { code: string; name: string };
  authToken: string;
  refreshToken: string;
  roles: Role[];
  expiresAt: Date;
};

type Account = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  mobile_country_code: string | null;
  mobile_number: string | null;
  roles: Role[] | null;
  gate: 'app' | 'onboarding' | null;
  membership_active: boolean | null;
};

/** The user with this email and their membership of the community, if any. */
async function findAccount(ctx: AuthContext, email: string): Promise<Account | undefined> {
  return ctx.db
    .selectFrom('users')
    .leftJoin('memberships', (j) => j.onRef('memberships.user_id', '=', 'users.id').on('memberships.community_id', '=', ctx.community.id))
    .select([
      'users.id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.password_hash',
      'users.mobile_country_code',
      'users.mobile_number',
      'memberships.roles',
      'memberships.gate',
      'memberships.is_active as membership_active',
    ])
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email.toLowerCase()))
    .where('users.is_active', '=', true)
    .executeTakeFirst();
}

const isMemberHere = (a: Account | undefined): a is Account & { roles: Role[] } => Boolean(a?.roles && a.membership_active);

function parseEmail(value: unknown): string {
  const parsed = emailField.safeParse(value);
  if (!parsed.success) throw new AppError('Invalid.Email');
  return parsed.data;
}

/** A dummy hash so that an unknown email costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null;
const burnHashTime = async (password: string) => {
  dummyHash ??= hashPassword('not-a-real-password-Aa1');
  await verifyPassword(await dummyHash, password);
};

/**
 * The sign-in strategies for an email (spec section 3, "Auth strategies"). An email that belongs to
 * no member of this community has none; one that belongs only to staff elsewhere gets NoAdmins.
 */
export async function authStrategies(ctx: AuthContext, emailInput: unknown): Promise<AuthStrategies> {
  const email = parseEmail(emailInput);
  const account = await findAccount(ctx, email);
  if (!isMemberHere(account)) {
    if (account && (await holdsAdminAnywhere(ctx.db, account.id))) throw new AppError('BadRequest.NoAdmins');
    throw new AppError('Unrecognized.Email');
  }
  const masked = maskPhone(account.mobile_country_code, account.mobile_number);
  return {
    passwordStrategy: account.password_hash !== null,
    otcSmsStrategy: masked !== null,
    otcEmailStrategy: true,
    smsOptions: masked ? [{ id: `sms:${account.id}`, maskedValue: masked }] : [],
  };
}

async function holdsAdminAnywhere(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .where((eb) => eb(eb.val('ADMIN'), '=', eb.fn.any('roles')))
    .executeTakeFirst();
  return Boolean(row);
}

async function issueSession(ctx: AuthContext, account: Account & { roles: Role[] }, remember: boolean, community = ctx.community): Promise<LoginResult> {
  const { token, refreshToken, expiresAt } = await startSession(ctx.db, ctx.tokens, ctx.clock, {
    userId: account.id,
    community,
    roles: account.roles,
    gate: account.gate ?? 'app',
    basePath: ctx.config.basePath,
    remember,
    userAgent: ctx.userAgent ?? null,
  });
  return {
    user: { id: account.id, email: account.email, displayName: `${account.first_name} ${account.last_name}`.trim() },
    community: { code: community.code, name: community.name },
    authToken: token,
    refreshToken,
    roles: account.roles,
    expiresAt,
  };
}

/** The password check of an attempt; refused as busy, the attempt is not counted. */
async function checkedBy(attempt: Attempt, check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch (e) {
    await attempt.abandoned();
    throw e;
  }
}

function passwordChecks(ctx: AuthContext, email: string): Check[] {
  return [
    { limit: LIMITS.passwordPerAccountAndIp, key: `${email}|${ctx.ip}` },
    { limit: LIMITS.passwordPerIp, key: ctx.ip },
    { limit: LIMITS.passwordPerAccount, key: email },
  ];
}

/** Password sign-in. Limits are checked before any hash is computed; an unknown email costs a hash too. */
export async function loginWithPassword(
  ctx: AuthContext,
  input: { email: unknown; password: unknown; remember?: boolean },
): Promise<LoginResult> {
  const email = parseEmail(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  if (!password) throw new AppError(900, { fields: { password: { code: 900, key: 'auth.password.required' } } });
  ensurePasswordCheckRoom();
  const attempt = await new Throttle(ctx.db, ctx.clock).begin(passwordChecks(ctx, email));
  const account = await findAccount(ctx, email);
  const ok = await checkedBy(attempt, () => (isMemberHere(account) && account.password_hash ? verifyPassword(account.password_hash, password) : burnHashTime(password).then(() => false)));
  if (!ok || !isMemberHere(account)) throw new AppError((await attempt.failed()) ?? 'NotAuthorized.Password');
  await attempt.succeeded();
  return issueSession(ctx, account, input.remember ?? false);
}

/** Admin sign-in: the password, and the ADMIN role in the chosen community. */
export async function loginAsAdmin(
  ctx: AuthContext,
  input: { email: unknown; password: unknown; targetCommunity: unknown },
): Promise<LoginResult> {
  const email = parseEmail(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  if (!password) throw new AppError(900, { fields: { password: { code: 900, key: 'auth.password.required' } } });
  const code = typeof input.targetCommunity === 'string' ? input.targetCommunity : '';
  ensureText({ community: code });
  const target = code ? await ctx.db.selectFrom('communities').selectAll().where('code', '=', code).executeTakeFirst() : undefined;
  if (!target) throw new AppError(900, { fields: { community: { code: 900, key: 'auth.admin.communityRequired' } } });
  ensurePasswordCheckRoom();
  const attempt = await new Throttle(ctx.db, ctx.clock).begin(passwordChecks(ctx, email));
  const account = await findAccount({ ...ctx, community: target }, email);
  const ok = await checkedBy(attempt, () => (account?.password_hash ? verifyPassword(account.password_hash, password) : burnHashTime(password).then(() => false)));
  if (!ok || !account) throw new AppError((await attempt.failed()) ?? 'NotAuthorized.Password');
  await attempt.succeeded();
  if (!isMemberHere(account) || !account.roles.includes('ADMIN')) throw new AppError('Forbidden');
  return issueSession({ ...ctx, community: target }, account, false, target);
}

/** Communities an admin may pick at the admin sign-in (spec: "Available community"). */
export async function availableCommunities(db: Db) {
  const rows = await db.selectFrom('communities').select(['code', 'name', 'familiar_name']).orderBy('name').execute();
  return rows.map((r) => ({ code: r.code, name: r.name, familiarName: r.familiar_name }));
}

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
    await trx
      .updateTable('one_time_codes')
      .set({ used_at: now })
      .where('community_id', '=', ctx.community.id)
      .where('user_id', '=', account.id)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('one_time_codes')
      .values({
        community_id: ctx.community.id,
        user_id: account.id,
        channel,
        destination: channel === 'SMS' ? phone! : account.email,
        code_hash: codeHash(ctx, account.id, code),
        created_at: now,
        expires_at: new Date(now.getTime() + CODE_TTL_MS),
      })
      .execute();
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

export const mailFrom = (ctx: Pick<AuthContext, 'config' | 'community'>) => `"${ctx.community.name.replace(/"/g, '')}" <${ctx.config.mailFrom}>`;

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
      ? await ctx.db
          .selectFrom('one_time_codes')
          .select(['id', 'code_hash'])
          .where('community_id', '=', ctx.community.id)
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
  const claimed = await ctx.db
    .updateTable('one_time_codes')
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

/**
 * Emails a reset link. An address that is no member's here is Unrecognized.Email worded as the spec's
 * 'A member with that username could not be found' (spec section 8; the sign-in page's email step and
 * its code mail already tell whether an address is a member's, so hiding it here protected nothing:
 * docs/decisions/0042). Every request counts against the address's limit, found or not.
 */
export async function requestPasswordReset(ctx: AuthContext, input: { email: unknown }): Promise<void> {
  const email = parseEmail(input.email);
  await new Throttle(ctx.db, ctx.clock).begin([{ limit: LIMITS.resetRequestsPerAccount, key: email }]);
  if (!isMemberHere(await findAccount(ctx, email))) throw new AppError('Unrecognized.Email', { key: USERNAME_NOT_FOUND_KEY });
  // Storing a token and queueing the mail happen in a job, so a crash after the answer still sends the link.
  await ctx.jobs.enqueue(ctx.db, PASSWORD_RESET_JOB, { communityId: ctx.community.id, email });
}

/** Spec section 8, Password: 'A member with that username could not be found'. */
export const USERNAME_NOT_FOUND_KEY = 'auth.forgot.notFound';

export const PASSWORD_RESET_JOB = 'auth.password-reset';

/** The reset job: for a member of the community, a new token and its mail, in one transaction. */
export async function deliverPasswordReset(ctx: AuthContext, email: string): Promise<void> {
  const account = await findAccount(ctx, email);
  if (!isMemberHere(account)) return;
  await ctx.db.transaction().execute(async (trx) => {
    const token = await createPasswordToken({ ...ctx, db: trx }, account.id, 'reset');
    const link = `${ctx.config.publicUrl}${ctx.config.basePath}/password/reset?token=${encodeURIComponent(token)}`;
    await ctx.messages.mail(trx, {
      to: account.email,
      from: mailFrom(ctx),
      subject: ctx.t('auth.messages.resetSubject', { name: ctx.community.name }),
      text: ctx.t('auth.messages.resetText', { firstName: account.first_name, link, name: ctx.community.name, minutes: RESET_TOKEN_TTL_MS / 60_000 }),
    });
  });
}

export async function createPasswordToken(ctx: Pick<AuthContext, 'db' | 'clock' | 'community'>, userId: number, purpose: 'reset' | 'setup'): Promise<string> {
  const token = randomToken();
  const now = ctx.clock.now();
  await ctx.db
    .insertInto('password_tokens')
    .values({
      community_id: ctx.community.id,
      user_id: userId,
      purpose,
      token_hash: sha256(token),
      created_at: now,
      expires_at: new Date(now.getTime() + (purpose === 'reset' ? RESET_TOKEN_TTL_MS : SETUP_TOKEN_TTL_MS)),
    })
    .execute();
  return token;
}

async function findPasswordToken(ctx: Pick<AuthContext, 'db' | 'clock' | 'community'>, token: unknown) {
  if (typeof token !== 'string' || token.length < 20 || token.length > 200) return undefined;
  return ctx.db
    .selectFrom('password_tokens')
    .select(['id', 'user_id', 'purpose'])
    .where('token_hash', '=', sha256(token))
    .where('community_id', '=', ctx.community.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', ctx.clock.now())
    .executeTakeFirst();
}

export async function passwordTokenIsValid(ctx: Pick<AuthContext, 'db' | 'clock' | 'community'>, token: unknown): Promise<boolean> {
  return (await findPasswordToken(ctx, token)) !== undefined;
}

/** A reset or setup link that is unknown, spent or expired: the invalid-link message (spec section 8). */
const invalidResetLink = () => new AppError('BadRequest.InvalidLink', { fields: { token: { code: 'BadRequest.InvalidLink', key: 'auth.reset.invalidLink' } } });

/** Sets a new password from a reset or setup link; the link is spent and every other session ends. */
export async function resetPassword(ctx: AuthContext, input: { token: unknown; password: unknown; confirm?: unknown }): Promise<{ userId: number; email: string }> {
  const found = await findPasswordToken(ctx, input.token);
  if (!found) throw invalidResetLink();
  const password = typeof input.password === 'string' ? input.password : '';
  ensureNewPassword(password, input.confirm);
  const hash = await hashPassword(password);
  const now = ctx.clock.now();
  const user = await ctx.db.transaction().execute(async (trx) => {
    const spent = await trx.updateTable('password_tokens').set({ used_at: now }).where('id', '=', found.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw invalidResetLink();
    await trx.updateTable('password_tokens').set({ used_at: now }).where('user_id', '=', found.user_id).where('used_at', 'is', null).execute();
    return trx.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', found.user_id).returning(['id', 'email']).executeTakeFirstOrThrow();
  });
  await revokeOtherSessions(ctx.db, ctx.clock, user.id, null);
  return { userId: user.id, email: user.email };
}

/** Every rule a new password and its confirmation break, each by its field (121 strength, 120 mismatch). */
export function newPasswordProblems(password: string, confirm: unknown): FieldErrors {
  const fields: FieldErrors = {};
  if (!isStrongPassword(password)) fields.password = { code: 121, key: 'errors.client.passwordStrength' };
  if (confirm !== undefined && confirm !== password) fields.confirm = { code: 120, key: 'errors.client.passwordMismatch' };
  return fields;
}

export function ensureNewPassword(password: string, confirm: unknown): void {
  const fields = newPasswordProblems(password, confirm);
  if (fields.password || fields.confirm) throw new AppError(fields.password ? 121 : 120, { fields });
}

/** Changes the password from settings: the current one is required; the member's other sessions end. */
export async function updatePassword(
  ctx: AuthContext,
  input: { userId: number; sessionId: string; oldPassword: unknown; newPassword: unknown; confirm?: unknown },
  /** Runs in the transaction that stores the new password (the settings notify the member there). */
  inTransaction?: (trx: Db) => Promise<void>,
): Promise<void> {
  const oldPassword = typeof input.oldPassword === 'string' ? input.oldPassword : '';
  const newPassword = typeof input.newPassword === 'string' ? input.newPassword : '';
  // Every failing rule is answered at once, each by its field: the current password (missing or
  // incorrect), the new one's strength, the confirmation.
  const problems = newPasswordProblems(newPassword, input.confirm);
  if (oldPassword === '') {
    // Not a guess: nothing is counted against the account (spec section 5: the current password is required).
    throw new AppError(900, { fields: { oldPassword: { code: 900, key: 'errors.client.missingInput' }, ...problems } });
  }
  const attempt = await new Throttle(ctx.db, ctx.clock).begin([{ limit: LIMITS.passwordPerAccountAndIp, key: `user:${input.userId}|${ctx.ip}` }]);
  const user = await ctx.db.selectFrom('users').select(['password_hash']).where('id', '=', input.userId).executeTakeFirstOrThrow();
  if (!user.password_hash || !(await verifyPassword(user.password_hash, oldPassword))) {
    const locked = await attempt.failed();
    // Spec section 8: a password change answers 'Current password incorrect' (the API's message too).
    // A 400, not the sign-in's 401: spec section 7 reads a 401 as "signed out", and this member is not.
    const fields = { oldPassword: { code: 'NotAuthorized.Password' as const, key: 'auth.password.currentIncorrect' }, ...problems };
    throw locked ? new AppError(locked, { fields }) : new AppError('NotAuthorized.Password', { fields, key: 'auth.password.currentIncorrect', status: 400 });
  }
  await attempt.succeeded();
  ensureNewPassword(newPassword, input.confirm);
  const hash = await hashPassword(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash, updated_at: ctx.clock.now() }).where('id', '=', input.userId).execute();
    await inTransaction?.(trx);
  });
  await revokeOtherSessions(ctx.db, ctx.clock, input.userId, input.sessionId);
}
