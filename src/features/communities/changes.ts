import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pgliteOf } from '#src/db/index.ts';
import { COMMUNITIES_CHANNEL } from './admin.ts';

/**
 * Every node caches communities for a few seconds (CommunityResolver). A change to a site sends
 * NOTIFY communities_changed in its transaction; each node keeps one dedicated connection that
 * LISTENs on that channel and empties its cache when a notification arrives, so the change is seen at
 * once everywhere, at no cost per request. When the connection drops (a database restart), the node
 * reconnects with a growing pause and empties its cache on reconnecting (notifications sent meanwhile
 * are lost); until then the cache's own time limit still bounds how stale it can be. PGlite is one
 * process: the route that changes a site empties that process's cache itself.
 */
export class CommunityChangeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private pause = 250;
  /** Connections made so far (the first, then each reconnection). */
  connections = 0;

  constructor(
    private readonly url: string,
    private readonly onChange: () => void,
    private readonly log: { warn: (msg: string) => void },
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5000 });
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners('notification');
      client.end().catch(() => undefined);
      if (!this.stopped) {
        this.log.warn(`communities listener lost its connection${err ? `: ${err.message}` : ''}; reconnecting`);
        this.schedule();
      }
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (n) => {
      if (n.channel === COMMUNITIES_CHANNEL) this.onChange();
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${COMMUNITIES_CHANNEL}`);
      this.connections += 1;
      this.pause = 250;
      // Whatever changed while this node was not listening: forget it all.
      if (this.connections > 1) this.onChange();
    } catch (err) {
      lost(err as Error);
    }
  }

  private schedule() {
    if (this.retry || this.stopped) return;
    const wait = this.pause;
    this.pause = Math.min(this.pause * 2, 10_000);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, wait);
    this.retry.unref();
  }

  get listening(): boolean {
    return this.client !== null && this.connections > 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}

/** Starts the listener on PostgreSQL (not on PGlite, one process) when the app is ready; stops it on close. */
export default async function communityChanges(app: FastifyInstance) {
  if (!app.config.databaseUrl || pgliteOf(app.db)) return;
  const listener = new CommunityChangeListener(app.config.databaseUrl, () => app.communities.invalidate(), app.log);
  app.addHook('onReady', async () => {
    await listener.start();
  });
  app.addHook('onClose', async () => {
    await listener.stop();
  });
}
