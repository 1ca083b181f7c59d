import os from 'node:os';
import argon2 from 'argon2';
import { AppError } from './errors.ts';

/** argon2id with OWASP's minimum: 19 MiB of memory, 2 iterations, 1 lane. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * A cap on the work that runs at once: at most `concurrency` tasks, then a bounded queue served in
 * order; past the queue a task is refused at once (Busy.PasswordChecks, a 429) rather than waiting.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly queueLimit: number,
    /** The refusal when the queue is full (a 429). */
    private readonly busy: () => AppError = () => new AppError('Busy.PasswordChecks'),
  ) {}

  /** Whether a task started now would run or wait rather than be refused. */
  hasRoom(): boolean {
    return this.running < this.concurrency || this.waiting.length < this.queueLimit;
  }

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running += 1;
    else if (this.waiting.length < this.queueLimit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw this.busy();
    try {
      return await task();
    } finally {
      // The slot passes to the next in line, if any; else it is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/**
 * Password hashes that run at once. argon2 runs on libuv's thread pool; unbounded, a flood of
 * wrong-password guesses takes every core and every other page waits (p99 up 5x to 48x in the bench).
 * So: one core is left to the event loop (cores - 1 hashes at once, at least one), 32 waiting per
 * running hash (about a second at 20 to 30 ms a hash: a burst of members signing in at once waits a
 * moment rather than being refused; the queue's length costs no CPU), and beyond that a quick 429.
 */
const cores = os.availableParallelism?.() ?? os.cpus().length;
export const passwordHashing = new ConcurrencyGate(Math.max(1, cores - 1), 32 * Math.max(1, cores - 1));

export const hashPassword = (password: string) => passwordHashing.run(() => argon2.hash(password, ARGON2_OPTIONS));

/** False for a wrong password or a malformed hash; throws Busy.PasswordChecks when too many checks are waiting. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  return passwordHashing.run(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

/** Refuses at once (before any database work) when a password check would be refused anyway. */
export function ensurePasswordCheckRoom(): void {
  if (!passwordHashing.hasRoom()) throw new AppError('Busy.PasswordChecks');
}
