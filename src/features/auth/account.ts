import type { Config } from '#src/config.ts';
import type { Clock } from '#src/core/clock.ts';
import { AppError } from '#src/core/errors.ts';
import { emailField } from '#src/core/fields.ts';
import type { Translate } from '#src/core/i18n.ts';
import { hashPassword, verifyPassword } from '#src/core/passwords.ts';
import type { Db } from '#src/db/index.ts';
import { crossCommunity } from '#src/db/tenancy.ts';
import type { Community, Role } from '#src/db/types.ts';
import type { JobQueue } from '#src/lib/jobs/queue.ts';
import type { Messages } from '#src/lib/messaging/outgoing.ts';
import type { SessionTokens } from './session-tokens.ts';
import { startSession } from './sessions.ts';
import { LIMITS, type Attempt, type Check } from './throttle.ts';

/**
 * What every way of signing in shares: the service context, the account an email names in this
 * community, and the session a successful sign-in starts. The use cases are in service.ts (password,
 * admin, strategies), codes.ts (one-time codes) and passwords.ts (reset, setup and change).
 */

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

export type Account = {
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
export async function findAccount(ctx: AuthContext, email: string): Promise<Account | undefined> {
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

export const isMemberHere = (a: Account | undefined): a is Account & { roles: Role[] } => Boolean(a?.roles && a.membership_active);

export function parseEmail(value: unknown): string {
  const parsed = emailField.safeParse(value);
  if (!parsed.success) throw new AppError('Invalid.Email');
  return parsed.data;
}

/** A dummy hash so that an unknown email costs the same time as a wrong password. */
let dummyHash: Promise<string> | null = null;
export const burnHashTime = async (password: string) => {
  dummyHash ??= hashPassword('not-a-real-password-Aa1');
  await verifyPassword(await dummyHash, password);
};

export async function holdsAdminAnywhere(db: Db, userId: number): Promise<boolean> {
  // Named cross-community query: signing in finds a person by email and lists their communities.
  const row = await crossCommunity(db)
    .selectFrom('memberships')
    .select('id')
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .where((eb) => eb(eb.val('ADMIN'), '=', eb.fn.any('roles')))
    .executeTakeFirst();
  return Boolean(row);
}

export async function issueSession(ctx: AuthContext, account: Account & { roles: Role[] }, remember: boolean, community = ctx.community): Promise<LoginResult> {
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
export async function checkedBy(attempt: Attempt, check: () => Promise<boolean>): Promise<boolean> {
  try {
    return await check();
  } catch (e) {
    await attempt.abandoned();
    throw e;
  }
}

export function passwordChecks(ctx: AuthContext, email: string): Check[] {
  return [
    { limit: LIMITS.passwordPerAccountAndIp, key: `${email}|${ctx.ip}` },
    { limit: LIMITS.passwordPerIp, key: ctx.ip },
    { limit: LIMITS.passwordPerAccount, key: email },
  ];
}

export const mailFrom = (ctx: Pick<AuthContext, 'config' | 'community'>) => `"${ctx.community.name.replace(/"/g, '')}" <${ctx.config.mailFrom}>`;
