import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { buildApp } from '#src/app.ts';
import { loadConfig, type Config } from '#src/config.ts';
import { fixedClock, type Clock } from '#src/core/clock.ts';
import type { RawDb as Db } from '#src/db/index.ts';
import { freshDatabase, type FreshDatabaseOptions } from './db.ts';

export type TestApp = { app: FastifyInstance; db: Db; config: Config };

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', COOKIE_SECRET: 'test-secret-0123456789-0123456789-abcdef', ...env });
}

/**
 * Closers per test, run last-in first-out: an app built on a database closes before the database is
 * dropped (tap runs teardowns in the order they were added).
 */
const closers = new WeakMap<Test, Array<() => Promise<unknown>>>();

function onTeardown(t: Test, close: () => Promise<unknown>) {
  let stack = closers.get(t);
  if (!stack) {
    const fresh: Array<() => Promise<unknown>> = [];
    closers.set(t, (stack = fresh));
    t.teardown(async () => {
      while (fresh.length) await fresh.pop()!();
    });
  }
  stack.push(close);
}

/**
 * One database per test file, migrated with the queue installed (or `{ seeded: true }`: the demo
 * seed as well); each call builds an app on it and closes it when the test ends.
 */
export async function setupDatabase(t: Test, options: FreshDatabaseOptions = {}): Promise<Db> {
  const { db, drop } = await freshDatabase(options);
  onTeardown(t, drop);
  return db;
}

export async function startApp(t: Test, db: Db, options: { env?: Record<string, string>; clock?: Clock } = {}): Promise<TestApp> {
  const config = testConfig({ DEFAULT_COMMUNITY: 'alpha', ...options.env });
  const app = await buildApp({ config, db, clock: options.clock });
  await app.ready();
  // The test is over: a browser's keep-alive or in-flight connection must not hold the close open.
  onTeardown(t, async () => {
    const closing = app.close();
    app.server.closeAllConnections?.();
    await closing;
  });
  return { app, db, config };
}

/** The environment of the app as `npm run dev` runs it (NODE_ENV=development), its files in a scratch folder removed after the test, no job workers. */
export async function developmentEnv(t: Test): Promise<Record<string, string>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'dev-app-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  return { NODE_ENV: 'development', DATA_DIR: dataDir, JOB_WORKERS: 'false', LOG_LEVEL: 'silent' };
}

export const testClock = () => fixedClock('2026-11-21T12:00:00Z');
