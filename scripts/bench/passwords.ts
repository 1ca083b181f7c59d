// argon2id: the cost of hashPassword and verifyPassword in the bench process, before any server starts,
// and the parameters against OWASP's minimum.
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from '#src/core/passwords.ts';
import { DEMO_MEMBER_PASSWORD } from '#src/features/seed.ts';
import { availableCores, percentile, round1, type BenchModule } from './lib.ts';

/** OWASP's minimum for argon2id (Password Storage Cheat Sheet), which the issue requires. */
const OWASP_ARGON2ID_MIN = { memoryMiB: 19, timeCost: 2, parallelism: 1 };
const HASH_SAMPLES = 20;

type HashTiming = { samples: number; medianMs: number; p95Ms: number; minMs: number; maxMs: number };
type PasswordHashingResult = {
  algorithm: 'argon2id';
  memoryKiB: number;
  memoryMiB: number;
  timeCost: number;
  parallelism: number;
  owaspMinimum: typeof OWASP_ARGON2ID_MIN;
  meetsOwaspMinimum: boolean;
  hash: HashTiming;
  verify: HashTiming;
  /** Sign-ins per second that the CPUs could verify at most: cores × 1000 / verify median. A ceiling, not a measurement. */
  verifyCeilingPerSecond: number;
};

/** Sequential hashPassword and verifyPassword calls in this (the bench) process, before any server starts. */
export async function measurePasswordHashing(): Promise<PasswordHashingResult> {
  const timing = (ms: number[]): HashTiming => ({
    samples: ms.length,
    medianMs: round1(percentile(ms, 50)),
    p95Ms: round1(percentile(ms, 95)),
    minMs: round1(Math.min(...ms)),
    maxMs: round1(Math.max(...ms)),
  });
  // One call of each first, discarded (loads the addon, warms the thread pool).
  const warm = await hashPassword(DEMO_MEMBER_PASSWORD);
  await verifyPassword(warm, DEMO_MEMBER_PASSWORD);
  const hashMs: number[] = [];
  let hash = warm;
  for (let i = 0; i < HASH_SAMPLES; i++) {
    const t = performance.now();
    hash = await hashPassword(DEMO_MEMBER_PASSWORD);
    hashMs.push(performance.now() - t);
  }
  const verifyMs: number[] = [];
  for (let i = 0; i < HASH_SAMPLES; i++) {
    const t = performance.now();
    const ok = await verifyPassword(hash, DEMO_MEMBER_PASSWORD);
    verifyMs.push(performance.now() - t);
    if (!ok) throw new Error('verifyPassword refused the password it had just hashed');
  }
  const memoryMiB = ARGON2_OPTIONS.memoryCost / 1024;
  const verify = timing(verifyMs);
  return {
    algorithm: 'argon2id',
    memoryKiB: ARGON2_OPTIONS.memoryCost,
    memoryMiB,
    timeCost: ARGON2_OPTIONS.timeCost,
    parallelism: ARGON2_OPTIONS.parallelism,
    owaspMinimum: OWASP_ARGON2ID_MIN,
    meetsOwaspMinimum:
      memoryMiB >= OWASP_ARGON2ID_MIN.memoryMiB && ARGON2_OPTIONS.timeCost >= OWASP_ARGON2ID_MIN.timeCost && ARGON2_OPTIONS.parallelism >= OWASP_ARGON2ID_MIN.parallelism,
    hash: timing(hashMs),
    verify,
    verifyCeilingPerSecond: Math.round((availableCores() * 1000) / verify.medianMs),
  };
}


export const passwordsModule: BenchModule = {
  name: 'passwords',
  scope: 'process',
  describe: `argon2id: ${HASH_SAMPLES} hashPassword then ${HASH_SAMPLES} verifyPassword calls in this process`,
  async run() {
    const ph = await measurePasswordHashing();
    const min = ph.owaspMinimum;
    return {
      data: ph,
      warnings: ph.meetsOwaspMinimum ? [] : ['the argon2id parameters are below OWASP\'s minimum'],
      sections: [
        {
          key: 'passwords',
          title: `Password hashing (argon2id; ${ph.hash.samples} sequential calls each, in the bench process before any server starts)`,
          head: ['call', 'median ms', 'p95 ms', 'min ms', 'max ms'],
          rows: [
            ['hashPassword', String(ph.hash.medianMs), String(ph.hash.p95Ms), String(ph.hash.minMs), String(ph.hash.maxMs)],
            ['verifyPassword', String(ph.verify.medianMs), String(ph.verify.p95Ms), String(ph.verify.minMs), String(ph.verify.maxMs)],
          ],
          right: [false, true, true, true, true],
          notes: [
            `Parameters: m = ${ph.memoryMiB} MiB (${ph.memoryKiB} KiB), t = ${ph.timeCost}, p = ${ph.parallelism}; ` +
              `OWASP minimum m ≥ ${min.memoryMiB} MiB, t ≥ ${min.timeCost}, p ≥ ${min.parallelism}: ${ph.meetsOwaspMinimum ? 'pass' : 'BELOW'}`,
            `Ceiling for sign-ins: ${availableCores()} cores × 1000 / ${ph.verify.medianMs} ms ≈ ${ph.verifyCeilingPerSecond} verifications/s, before any other work.`,
          ],
        },
      ],
    };
  },
};
