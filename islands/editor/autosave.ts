/**
 * The editor's autosave, apart from the DOM so it can be tested with a fake clock and a fake network:
 * a save starts `delay` ms after the last change (spec: 3000), one at a time; a change made while a
 * save is on the wire is saved after it; a failed save keeps the text (it is still the latest draft)
 * and is retried with backoff, and at once when the browser comes back online. Nothing typed is
 * dropped: `pending()` says whether the page holds text the server has not confirmed.
 */
export type Draft = { title: string; content: string };

export type SendResult =
  | { ok: true; articleId: number }
  /** retry: a network or server fault worth retrying; otherwise the draft waits for the next change. */
  | { ok: false; retry: boolean; offline?: boolean; message?: string; field?: string };

export type SaveStatus =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: Date }
  | { kind: 'offline' }
  | { kind: 'failed'; message?: string; field?: string; retrying: boolean };

type Timers = { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void };

export const RETRY_STEPS_MS = [2000, 5000, 10000, 30000];

export class Autosaver {
  private latest: Draft | null = null;
  private dirty = false;
  private inFlight: Promise<void> | null = null;
  private timer: unknown = null;
  private failures = 0;
  /** Set while the page posts the form itself: no save may race that post. */
  private held = false;
  articleId: number | null;

  constructor(
    private readonly opts: {
      send: (draft: Draft, articleId: number | null) => Promise<SendResult>;
      onStatus: (status: SaveStatus) => void;
      articleId: number | null;
      delay?: number;
      timers?: Timers;
      now?: () => Date;
      isOnline?: () => boolean;
    },
  ) {
    this.articleId = opts.articleId;
  }

  private get timers(): Timers {
    return this.opts.timers ?? { set: (fn, ms) => setTimeout(fn, ms), clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
  }

  private schedule(ms: number) {
    if (this.held) return;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = this.timers.set(() => {
      this.timer = null;
      void this.run();
    }, ms);
  }

  /** A change to the title or the body: saved `delay` ms after the last one. */
  change(draft: Draft): void {
    this.latest = draft;
    this.dirty = true;
    this.failures = 0;
    this.schedule(this.opts.delay ?? 3000);
  }

  /** True while the page holds text the server has not confirmed. */
  pending(): boolean {
    return this.dirty || this.inFlight !== null;
  }

  /** Save now (the browser came back online, or the member asked). */
  async flush(): Promise<void> {
    if (this.timer !== null) {
      this.timers.clear(this.timer);
      this.timer = null;
    }
    await this.run();
    if (this.inFlight) await this.inFlight;
  }

  /**
   * Before the page posts the form itself (Save & exit, Submit): no timer left, and no save still on
   * the wire that could land after the post; afterwards `articleId` names the article the first save
   * created. The post carries the latest text, so nothing more is sent here.
   */
  async settle(): Promise<void> {
    this.held = true;
    if (this.timer !== null) {
      this.timers.clear(this.timer);
      this.timer = null;
    }
    while (this.inFlight) await this.inFlight;
  }

  /** The post did not happen after all (the page came back from the back-forward cache): save again. */
  resume(): void {
    this.held = false;
    if (this.dirty) this.schedule(0);
  }

  /** The server refused the text for good (the article is not the writer's to change now): no more saves. */
  stop(): void {
    this.held = true;
    if (this.timer !== null) {
      this.timers.clear(this.timer);
      this.timer = null;
    }
  }

  online(): void {
    if (this.dirty) void this.flush();
  }

  private async run(): Promise<void> {
    if (this.held) return;
    if (this.inFlight) return; // the save on the wire reschedules when it ends
    if (!this.dirty || !this.latest) return;
    const draft = this.latest;
    this.dirty = false;
    this.opts.onStatus({ kind: 'saving' });
    let result: SendResult;
    this.inFlight = (async () => {
      try {
        result = await this.opts.send(draft, this.articleId);
      } catch {
        result = { ok: false, retry: true, offline: true };
      }
    })();
    await this.inFlight;
    this.inFlight = null;
    const r = result!;
    if (r.ok) {
      this.articleId = r.articleId;
      this.failures = 0;
      if (this.dirty) {
        // Typed while this save was on the wire: that text is not saved yet, so no 'Autosaved'.
        this.opts.onStatus({ kind: 'saving' });
        if (this.timer === null) this.schedule(this.opts.delay ?? 3000);
      } else {
        this.opts.onStatus({ kind: 'saved', at: (this.opts.now ?? (() => new Date()))() });
      }
      return;
    }
    // Not stored: `latest` (this draft, or a newer change) is still what must be saved.
    this.dirty = true;
    const offline = r.offline || (this.opts.isOnline ? !this.opts.isOnline() : false);
    if (r.retry) {
      const wait = RETRY_STEPS_MS[Math.min(this.failures, RETRY_STEPS_MS.length - 1)]!;
      this.failures += 1;
      this.opts.onStatus(offline ? { kind: 'offline' } : { kind: 'failed', message: r.message, retrying: true });
      this.schedule(wait);
    } else {
      this.opts.onStatus({ kind: 'failed', message: r.message, field: r.field, retrying: false });
    }
  }
}
