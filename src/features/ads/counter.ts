import { sql } from 'kysely';
import type { Clock } from '#src/core/clock.ts';
import { queryCounter, type Db } from '#src/db/index.ts';
import { insertInCommunity } from '#src/db/tenancy.ts';

/**
 * Impressions and clicks without a database write per page view: each process tallies them in
 * memory (per community, ad and day) and flushes the tally every FLUSH_MS, and when the app closes,
 * as one upsert per community per flush (one row per ad and day in it) that adds to what is stored.
 * Several processes flush into the same rows without losing a count: the upsert adds, it never sets.
 * A flush that fails (the database away) puts its counts back for the next one.
 */

export const FLUSH_MS = 15_000;
/** Distinct (community, ad, day) keys held before a flush is started early: memory stays bounded. */
const MAX_KEYS = 5_000;

type Tally = { communityId: number; adId: number; day: string; impressions: number; clicks: number };

export class AdCounter {
  private tally = new Map<string, Tally>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  /** Statements the flushes have issued (the bench and the tests read it). */
  flushStatements = 0;
  flushes = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly flushMs = FLUSH_MS,
  ) {}

  impression(communityId: number, adId: number): void {
    this.add(communityId, adId, 1, 0);
  }

  click(communityId: number, adId: number): void {
    this.add(communityId, adId, 0, 1);
  }

  /** What is counted and not yet flushed, per ad (the staff page adds it to the stored counts). */
  pending(communityId: number): Map<number, { impressions: number; clicks: number }> {
    const out = new Map<number, { impressions: number; clicks: number }>();
    for (const t of this.tally.values()) {
      if (t.communityId !== communityId) continue;
      const sum = out.get(t.adId) ?? { impressions: 0, clicks: 0 };
      sum.impressions += t.impressions;
      sum.clicks += t.clicks;
      out.set(t.adId, sum);
    }
    return out;
  }

  private add(communityId: number, adId: number, impressions: number, clicks: number, day = this.clock.now().toISOString().slice(0, 10)) {
    const key = `${communityId}:${adId}:${day}`;
    const t = this.tally.get(key);
    if (t) {
      t.impressions += impressions;
      t.clicks += clicks;
    } else {
      this.tally.set(key, { communityId, adId, day, impressions, clicks });
      if (this.tally.size >= MAX_KEYS) void this.flush();
    }
    this.start();
  }

  private start() {
    if (this.timer) return;
    // Outside the request that happened to start it: its statements are not that request's.
    this.timer = queryCounter.exit(() => setInterval(() => void this.flush(), this.flushMs));
    // The timer never keeps a process (or a test) alive; the app's close flushes what is left.
    this.timer.unref();
  }

  /** Writes the tally: one upsert per community, adding to each ad's row for the day. */
  async flush(): Promise<void> {
    // One write at a time: wait for every write under way (another may start while this one waits).
    while (this.flushing) await this.flushing;
    if (this.tally.size === 0) return;
    const batch = [...this.tally.values()];
    this.tally = new Map();
    this.flushing = queryCounter.exit(() => this.write(batch)).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  private async write(batch: Tally[]) {
    const byCommunity = new Map<number, Tally[]>();
    for (const t of batch) byCommunity.set(t.communityId, [...(byCommunity.get(t.communityId) ?? []), t]);
    this.flushes += 1;
    for (const [communityId, rows] of byCommunity) {
      try {
        await this.upsert(communityId, rows);
      } catch (err) {
        // An ad deleted since (its foreign key): the others are written one by one and its counts
        // dropped. Anything else (the database away) is kept for the next flush.
        if ((err as { code?: string }).code === '23503') {
          for (const r of rows) {
            await this.upsert(communityId, [r]).catch((e: { code?: string }) => {
              // Only the deleted ad's counts are dropped; any other failure keeps them for the next flush.
              if (e?.code !== '23503') this.add(r.communityId, r.adId, r.impressions, r.clicks, r.day);
            });
          }
        } else {
          for (const r of rows) this.add(r.communityId, r.adId, r.impressions, r.clicks, r.day);
        }
      }
    }
  }

  private async upsert(communityId: number, rows: Tally[]) {
    this.flushStatements += 1;
    await insertInCommunity(
      this.db,
      'ad_daily_counts',
      { id: communityId },
      rows.map((r) => ({ ad_id: r.adId, day: r.day, impressions: r.impressions, clicks: r.clicks })),
    )
      .onConflict((oc) =>
        oc.columns(['community_id', 'ad_id', 'day']).doUpdateSet({
          impressions: sql`ad_daily_counts.impressions + excluded.impressions`,
          clicks: sql`ad_daily_counts.clicks + excluded.clicks`,
        }),
      )
      .execute();
  }

  /** Flushes what is left and stops the timer (the app's onClose). A later count starts it again. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
    while (this.flushing) await this.flushing;
  }
}

const counters = new WeakMap<Db, AdCounter>();

/** The process's counter for this database (the pages and the click route share it). */
export function adCounterFor(db: Db, clock: Clock): AdCounter {
  let counter = counters.get(db);
  if (!counter) counters.set(db, (counter = new AdCounter(db, clock)));
  return counter;
}
