import fp from 'fastify-plugin';
import { refreshPendingScans } from '#src/features/articles/copy-scan.ts';
import { publishDueArticles } from '#src/features/articles/service.ts';

export const JOB_INTERVAL_MS = 30_000;

/**
 * The job runner: timed work that must not wait for a page load. Every 30 seconds it publishes the
 * scheduled articles whose time has come and, on its own track, asks a hosted copy-scan service again
 * for the scans it answered PENDING: a slow scanning service never delays publishing. Several
 * processes may run it: each article moves only once (the status guard in the update), so no lock is
 * needed. Off in tests, which call the jobs directly.
 */
export default fp(
  async (app) => {
    if (app.config.env === 'test') return;
    /** One track: a tick while the previous run of the same job is still going is skipped. */
    const track = (job: () => Promise<unknown>) => {
      let running: Promise<unknown> | null = null;
      return {
        tick() {
          if (running) return;
          running = job().finally(() => {
            running = null;
          });
        },
        idle: () => running ?? Promise.resolve(),
      };
    };
    const publishing = track(() =>
      publishDueArticles(app.db, app.clock, app.t)
        .then((ids) => {
          if (ids.length) app.log.info({ ids }, 'published scheduled articles');
        })
        .catch((err) => app.log.error({ err }, 'publishing scheduled articles failed')),
    );
    const scans = track(() =>
      refreshPendingScans(app.db, app.copyScanner, { now: app.clock.now(), onError: (err) => app.log.warn({ err }, 'Copy scan poll failed') })
        .then((ids) => {
          if (ids.length) app.log.info({ ids }, 'finished pending copy scans');
        })
        .catch((err) => app.log.error({ err }, 'refreshing pending copy scans failed')),
    );
    const tick = () => {
      publishing.tick();
      scans.tick();
    };
    const timer = setInterval(tick, JOB_INTERVAL_MS);
    timer.unref();
    app.addHook('onReady', async () => tick());
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await Promise.all([publishing.idle(), scans.idle()]);
    });
  },
  { name: 'jobs' },
);
