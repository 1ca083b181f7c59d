import { z } from 'zod';

/** The development signing key: fine on a laptop, refused in production. */
export const DEVELOPMENT_SECRET = 'development-only-secret-change-me-0123456789abcdef';

const basePath = z
  .string()
  .default('')
  .refine((v) => v === '' || (/^\/[A-Za-z0-9._~\-/]*$/.test(v) && !v.endsWith('/')), {
    message: 'must be empty or a path like /v2 (leading slash, no trailing slash)',
  });

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .refine((v) => v === undefined || URL.canParse(v), { message: 'must be a URL' });

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
    PORT: z.coerce.number({ error: 'must be a port number (0 to 65535)' }).int({ error: 'must be a port number (0 to 65535)' }).min(0, { error: 'must be a port number (0 to 65535)' }).max(65535, { error: 'must be a port number (0 to 65535)' }).default(3000),
    HOST: z.string().min(1).default('localhost'),
    DATABASE_URL: optionalUrl.refine((v) => v === undefined || /^postgres(ql)?:/.test(v), {
      message: 'must be a postgres:// URL (leave it unset to use the embedded database)',
    }),
    DATA_DIR: z.string().min(1).default('./data'),
    BASE_PATH: basePath,
    PUBLIC_URL: optionalUrl,
    COOKIE_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).default(DEVELOPMENT_SECRET),
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.email({ error: 'must be an email address' }).default('no-reply@example.com'),
    SMS_PROVIDER_URL: optionalUrl,
    SMS_ACCOUNT_SID: z.string().optional(),
    SMS_AUTH_TOKEN: z.string().optional(),
    SMS_FROM: z.string().optional(),
    PUSH_URL: optionalUrl,
    PUSH_KEY: z.string().optional(),
    VAPID_PUBLIC_KEY: z.string().optional(),
    VAPID_PRIVATE_KEY: z.string().optional(),
    VAPID_SUBJECT: z
      .string()
      .optional()
      .refine((v) => !v || /^(mailto:\S+@\S+|https:\/\/\S+)$/.test(v), { message: 'must be a mailto: address or an https:// URL' }),
    // Payments (issue 13): the sandbox card provider is the default outside production; in production
    // the processor must be named (the sandbox takes test cards as payment). MAXIO_* select the real one.
    PAYMENT_PROCESSOR: z.enum(['sandbox', 'maxio'], { error: 'must be sandbox or maxio' }).optional(),
    MAXIO_URL: optionalUrl,
    MAXIO_API_KEY: z.string().optional(),
    /** The secret the processor signs its hosted page's returns and its callbacks with. */
    PAYMENT_SIGNING_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
    COPY_SCAN_URL: optionalUrl,
    COPY_SCAN_API_KEY: z.string().optional(),
    DEFAULT_COMMUNITY: z
      .string()
      .regex(/^[a-z0-9-]+$/, { message: 'must be a community code (lower-case letters, digits, dashes)' })
      .default('summit'),
    RATE_LIMIT_MAX: z.coerce.number({ error: 'must be a whole number above 0' }).int({ error: 'must be a whole number above 0' }).positive({ error: 'must be a whole number above 0' }).default(600),
    SEED_DEMO: z
      .enum(['true', 'false', '1', '0'])
      .default('true')
      .transform((v) => v === 'true' || v === '1'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    REDIS_URL: optionalUrl.refine((v) => v === undefined || /^rediss?:/.test(v), { message: 'must be a redis:// URL' }),
    JOB_WORKERS: z.enum(['true', 'false', '1', '0']).optional(),
    // Insights (issue 29): how many days the raw analytics events are kept (their daily counts stay).
    INSIGHTS_RETENTION_DAYS: z.coerce
      .number({ error: 'must be a whole number of days from 7 to 3650' })
      .int({ error: 'must be a whole number of days from 7 to 3650' })
      .min(7, { error: 'must be a whole number of days from 7 to 3650' })
      .max(3650, { error: 'must be a whole number of days from 7 to 3650' })
      .default(90),
    TRUST_PROXY: z
      .enum(['true', 'false', '1', '0'])
      .default('false')
      .transform((v) => v === 'true' || v === '1'),
    SYNDICATION_CACHE_MS: z.coerce
      .number({ error: 'must be a number of milliseconds from 0 to 600000' })
      .int({ error: 'must be a number of milliseconds from 0 to 600000' })
      .min(0, { error: 'must be a number of milliseconds from 0 to 600000' })
      .max(600_000, { error: 'must be a number of milliseconds from 0 to 600000' })
      .default(10_000),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.COOKIE_SECRET === DEVELOPMENT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['COOKIE_SECRET'],
        message: 'must be set to a secret of your own in production (the development secret is refused)',
      });
    }
    if (env.NODE_ENV === 'production' && env.PAYMENT_PROCESSOR === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROCESSOR'],
        message:
          'must be set in production: maxio for real payments, or sandbox to take test cards on purpose (anyone can then pay with 4242 4242 4242 4242)',
      });
    }
    if (env.PAYMENT_PROCESSOR === 'maxio' && !(env.MAXIO_URL && env.MAXIO_API_KEY && env.PAYMENT_SIGNING_SECRET)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PAYMENT_PROCESSOR'],
        message: 'maxio needs MAXIO_URL, MAXIO_API_KEY and PAYMENT_SIGNING_SECRET',
      });
    }
  });

export type Config = Readonly<{
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  basePath: string;
  publicUrl: string;
  cookieSecret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  sms: { url: string; accountSid: string; authToken: string; from: string } | undefined;
  copyScan: { url: string; apiKey: string } | undefined;
  payments: { processor: 'sandbox' | 'maxio'; maxio: { url: string; apiKey: string } | undefined; signingSecret: string };
  /** The mobile push provider (FCM/APNs-style HTTP API); unset: the local outbox (decision 0021). */
  push: { url: string; key: string } | undefined;
  /** Web Push's VAPID keys; unset: generated (development: kept under DATA_DIR; tests: in memory) or Web Push off (production). */
  vapid: { publicKey: string; privateKey: string; subject: string | undefined } | undefined;
  defaultCommunity: string;
  rateLimitMax: number;
  seedDemo: boolean;
  logLevel: string;
  trustProxy: boolean;
  /** Redis, for what several processes must share in memory (the rate limits); unset: this process's memory. */
  redisUrl: string | undefined;
  /** Run the job queue's workers and schedules in this process (tests call the jobs themselves). */
  jobWorkers: boolean;
  /** How long a process answers a syndication feed from memory before reading it again (0: on every request). */
  syndicationCacheMs: number;
  /** Days the raw analytics events (and who was active on which day) are kept; their counts stay. */
  insightsRetentionDays: number;
}>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Parses the environment once. A bad value throws a ConfigError whose message is one line naming the variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const result = schema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const value = source[name];
    const shown = value === undefined || name === 'COOKIE_SECRET' ? '' : ` (got "${value}")`;
    throw new ConfigError(`Configuration error: ${name} ${issue.message}${shown}.`);
  }
  const e = result.data;
  return Object.freeze({
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    basePath: e.BASE_PATH,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    cookieSecret: e.COOKIE_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    sms:
      e.SMS_PROVIDER_URL && e.SMS_ACCOUNT_SID && e.SMS_AUTH_TOKEN && e.SMS_FROM
        ? { url: e.SMS_PROVIDER_URL, accountSid: e.SMS_ACCOUNT_SID, authToken: e.SMS_AUTH_TOKEN, from: e.SMS_FROM }
        : undefined,
    payments: {
      processor: e.PAYMENT_PROCESSOR ?? 'sandbox',
      maxio: e.MAXIO_URL && e.MAXIO_API_KEY ? { url: e.MAXIO_URL, apiKey: e.MAXIO_API_KEY } : undefined,
      // The sandbox runs inside this app, so by default it shares a secret derived from the cookie secret.
      signingSecret: e.PAYMENT_SIGNING_SECRET ?? `payments:${e.COOKIE_SECRET}`,
    },
    copyScan: e.COPY_SCAN_URL && e.COPY_SCAN_API_KEY ? { url: e.COPY_SCAN_URL, apiKey: e.COPY_SCAN_API_KEY } : undefined,
    push: e.PUSH_URL && e.PUSH_KEY ? { url: e.PUSH_URL, key: e.PUSH_KEY } : undefined,
    vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT || undefined } : undefined,
    defaultCommunity: e.DEFAULT_COMMUNITY,
    rateLimitMax: e.RATE_LIMIT_MAX,
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    trustProxy: e.TRUST_PROXY,
    redisUrl: e.REDIS_URL,
    jobWorkers: e.JOB_WORKERS === undefined ? e.NODE_ENV !== 'test' : e.JOB_WORKERS === 'true' || e.JOB_WORKERS === '1',
    syndicationCacheMs: e.SYNDICATION_CACHE_MS,
    insightsRetentionDays: e.INSIGHTS_RETENTION_DAYS,
  });
}
