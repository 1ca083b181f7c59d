import type { Clock } from '#src/core/clock.ts';
import { AppError, type ServerErrorCode } from '#src/core/errors.ts';
import type { Db } from '#src/db/index.ts';

const MINUTE = 60_000;
export const LOCKOUT_MS = 10 * MINUTE;

/**
 * The limits on guessing. Each is a count of events for one key within a window; past the limit the
 * key is locked for LOCKOUT_MS (or, for the account-wide ceiling, until the window has room again).
 * Keys pair the account with the client's address, so a stranger elsewhere cannot lock a member out:
 * only the account-wide ceiling (100 failures an hour, as the issue demands) spans addresses, and it
 * leaves code sign-in open.
 */
export const LIMITS = {
  passwordPerAccountAndIp: { kind: 'password-failure', max: 5, windowMs: 10 * MINUTE, code: 'BadRequest.MaxAttempts' },
  passwordPerIp: { kind: 'password-failure', max: 30, windowMs: 10 * MINUTE, code: 'BadRequest.TooManyRequests' },
  passwordPerAccount: { kind: 'password-failure', max: 100, windowMs: 60 * MINUTE, code: 'BadRequest.TooManyRequests' },
  codeFailuresPerAccountAndIp: { kind: 'code-failure', max: 5, windowMs: 10 * MINUTE, code: 'BadRequest.MaxAttempts' },
  codeFailuresPerAccount: { kind: 'code-failure', max: 100, windowMs: 60 * MINUTE, code: 'BadRequest.TooManyRequests' },
  codeSendsPerAccount: { kind: 'code-send', max: 5, windowMs: 10 * MINUTE, code: 'BadRequest.MaxSendAttempts' },
  codeSendsPerIp: { kind: 'code-send', max: 20, windowMs: 10 * MINUTE, code: 'BadRequest.MaxSendAttempts' },
  resetRequestsPerAccount: { kind: 'reset-request', max: 5, windowMs: 60 * MINUTE, code: 'BadRequest.TooManyRequests' },
} as const satisfies Record<string, { kind: string; max: number; windowMs: number; code: ServerErrorCode }>;

export type Limit = (typeof LIMITS)[keyof typeof LIMITS];
export type Check = { limit: Limit; key: string };

export type Attempt = {
  /** The attempt failed: it stays counted; returns the lockout code if this one filled a window. */
  failed(): Promise<ServerErrorCode | null>;
  /** The attempt succeeded: it is not counted, and the account's failures from this address are forgotten. */
  succeeded(): Promise<void>;
  /** The attempt was never checked (the password checks were busy): it is not counted. */
  abandoned(): Promise<void>;
};

/**
 * Lockouts this process has seen (written or read), per database: a locked key is refused without a
 * query until it expires, so a flood on a locked account costs no database work. Lockouts are only
 * ever set or extended, never lifted early, so remembering one cannot let a guess through; other
 * processes read the table.
 */
const knownLocks = new WeakMap<Db, Map<string, { until: number; reason: ServerErrorCode }>>();
const MAX_KNOWN_LOCKS = 10_000;

export class Throttle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts an attempt BEFORE it is checked (and before any hash is computed), so concurrent guesses
   * cannot slip past a limit between a check and a record: the attempt is refused when a key is
   * locked or its window already holds the maximum.
   */
  async begin(checks: Check[]): Promise<Attempt> {
    const now = this.clock.now();
    const known = this.knownLocks();
    for (const check of checks) {
      const lock = known.get(this.lockKey(check));
      if (lock && lock.until > now.getTime()) throw new AppError(lock.reason);
    }
    const locked = await this.db
      .selectFrom('auth_lockouts')
      .select(['key', 'reason', 'until'])
      .where('key', 'in', checks.map((c) => this.lockKey(c)))
      .where('until', '>', now)
      .executeTakeFirst();
    if (locked) {
      this.remember(locked.key, new Date(locked.until).getTime(), locked.reason as ServerErrorCode);
      throw new AppError(locked.reason as ServerErrorCode);
    }
    const rows = await this.db
      .insertInto('auth_events')
      .values(checks.map((c) => ({ key: c.key, kind: c.limit.kind, occurred_at: now })))
      .returning('id')
      .execute();
    const counts = await Promise.all(checks.map((c) => this.count(c)));
    const over = checks.findIndex((c, i) => counts[i]! > c.limit.max);
    if (over !== -1) {
      // Refused unchecked, so it is not counted; the lock itself comes from the failure that filled
      // the window (so sign-ins still in flight cannot lock an account, only failures can).
      await this.db.deleteFrom('auth_events').where('id', 'in', rows.map((r) => r.id)).execute();
      throw new AppError(checks[over]!.limit.code);
    }
    return {
      failed: async () => {
        let code: ServerErrorCode | null = null;
        for (const check of checks) {
          if ((await this.count(check)) >= check.limit.max) {
            await this.lock(check);
            code ??= check.limit.code;
          }
        }
        return code;
      },
      succeeded: async () => {
        await this.db.deleteFrom('auth_events').where('id', 'in', rows.map((r) => r.id)).execute();
        const first = checks[0]!;
        await this.db.deleteFrom('auth_events').where('key', '=', first.key).where('kind', '=', first.limit.kind).execute();
      },
      abandoned: async () => {
        await this.db.deleteFrom('auth_events').where('id', 'in', rows.map((r) => r.id)).execute();
      },
    };
  }

  private knownLocks() {
    let known = knownLocks.get(this.db);
    if (!known) knownLocks.set(this.db, (known = new Map()));
    return known;
  }

  private remember(key: string, until: number, reason: ServerErrorCode) {
    const known = this.knownLocks();
    if (known.size >= MAX_KNOWN_LOCKS) known.clear();
    known.set(key, { until, reason });
  }

  private lockKey(check: Check) {
    return `${check.limit.kind}:${check.key}`;
  }

  private async count(check: Check): Promise<number> {
    const since = new Date(this.clock.now().getTime() - check.limit.windowMs);
    const row = await this.db
      .selectFrom('auth_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('key', '=', check.key)
      .where('kind', '=', check.limit.kind)
      .where('occurred_at', '>', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private async lock(check: Check): Promise<void> {
    const now = this.clock.now().getTime();
    // The account-wide ceiling lasts as long as its window; the others for the lockout period.
    const until = new Date(now + (check.limit.windowMs > LOCKOUT_MS ? check.limit.windowMs : LOCKOUT_MS));
    await this.db
      .insertInto('auth_lockouts')
      .values({ key: this.lockKey(check), until, reason: check.limit.code })
      .onConflict((oc) => oc.column('key').doUpdateSet({ until, reason: check.limit.code }))
      .execute();
    this.remember(this.lockKey(check), until.getTime(), check.limit.code);
  }
}
