import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { insertInCommunity } from '#src/db/tenancy.ts';
import type { InsightDevice } from '#src/db/types.ts';
import type { InsightsDeps } from './deps.ts';

/**
 * Events (spec section 7: `trackEvent(category, action, label)`, and the page view on each route
 * change), accepted from members' pages (batched by the first-party script) and apps (REST or
 * GraphQL), and written in the request, all of a batch in one statement: an answer of 2xx means the
 * events are in the database, so none is lost when the app restarts.
 *
 * Stored per community and member with the time and a coarse device class only: no IP address, no
 * user-agent string (decision 0062).
 */

/** The categories an event may have (lower case; an app's "Payment" is read as "payment"). */
export const EVENT_CATEGORIES = [
  'page',
  'navigation',
  'engagement',
  'search',
  'forum',
  'articles',
  'expert-panels',
  'members',
  'offers',
  'messages',
  'groups',
  'notifications',
  'settings',
  'payment',
  'app',
] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

export const EVENT_LIMITS = {
  /** Events in one batch (the browser flushes at 20). */
  batch: 50,
  action: 64,
  label: 200,
  /** How old an event may say it is (ms): the browser keeps a batch a few seconds, an app a few minutes. */
  age: 10 * 60_000,
  /** Batches a member may send a minute (the REST endpoint and GraphQL trackEvent count together). */
  perMinute: 120,
} as const;

// No control characters (C0, DEL, C1), no bidirectional overrides, no unpaired surrogates.
const HOSTILE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const text = (max: number, min = 0) =>
  z
    .string()
    .min(min)
    .max(max)
    .refine((v) => !HOSTILE.test(v));

const Category = z
  .string()
  .max(40)
  .transform((v) => v.toLowerCase())
  .pipe(z.enum(EVENT_CATEGORIES));

const EventInput = z.object({
  category: Category,
  action: text(EVENT_LIMITS.action, 1).refine((v) => /^[A-Za-z0-9][A-Za-z0-9 _.:/-]*$/.test(v)),
  label: z.union([text(EVENT_LIMITS.label), z.null()]).optional(),
  age: z.number().int().min(0).max(24 * 3_600_000).optional(),
});
export type EventInput = z.input<typeof EventInput>;

const Batch = z.array(EventInput).min(1).max(EVENT_LIMITS.batch);

export type AcceptedEvent = { category: EventCategory; action: string; label: string; age: number };

/** A page's address as a label: its path only (a query string or fragment may carry a token), the prefix left off. */
export function pageLabel(label: string, basePath: string): string {
  let path = label.split(/[?#]/, 1)[0]!;
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length) || '/';
  return path.startsWith('/') ? path : `/${path}`;
}

/** The batch as sent, checked: anything that is not one is 'Insights.Invalid' (400), the whole batch refused. */
export function parseEvents(input: unknown, basePath: string): AcceptedEvent[] {
  const result = Batch.safeParse(input);
  if (!result.success) throw new AppError('Insights.Invalid');
  return result.data.map((e) => ({
    category: e.category,
    action: e.action,
    label: e.category === 'page' ? pageLabel(e.label ?? '', basePath) : (e.label ?? ''),
    age: Math.min(e.age ?? 0, EVENT_LIMITS.age),
  }));
}

/**
 * The device class of a request, from the client hints or the user agent, which is read here and
 * never kept: an app (a bearer client), a phone, a tablet, a computer, or unknown.
 */
export function deviceOf(request: Pick<FastifyRequest, 'headers'>, viaApp: boolean): InsightDevice {
  if (viaApp) return 'app';
  const hint = request.headers['sec-ch-ua-mobile'];
  if (hint === '?1') return 'mobile';
  const ua = request.headers['user-agent'];
  if (typeof ua !== 'string' || ua === '') return 'unknown';
  if (/iPad|Tablet|PlayBook|Silk|Android(?!.*Mobile)/i.test(ua)) return 'tablet';
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(ua)) return 'mobile';
  return 'desktop';
}

/** Writes a member's checked events in one statement, each at the server's time less the age it gave. */
export async function recordEvents(deps: InsightsDeps, userId: number, events: readonly AcceptedEvent[], device: InsightDevice): Promise<number> {
  if (events.length === 0) return 0;
  const now = deps.clock.now().getTime();
  await insertInCommunity(
    deps.db,
    'insight_events',
    deps.community,
    events.map((e) => ({ user_id: userId, category: e.category, action: e.action, label: e.label, device, occurred_at: new Date(now - e.age) })),
  ).execute();
  return events.length;
}
