import type { Test } from 'tap';
import { setupDatabase } from './app.ts';
import { launchBrowser, serveApp } from './browser.ts';
import { createCommunity } from './factories.ts';

/**
 * The world most browser specs start from: Chromium launching (awaited when first needed, so it starts
 * while the database is built), a fresh database with one community (Alpha Circle, code `alpha`), and
 * the app serving it on a real port. Everything closes when the test ends.
 */
export async function browserWorld(t: Test, env: Record<string, string> = {}) {
  const browserReady = launchBrowser(t);
  const db = await setupDatabase(t);
  const alpha = await createCommunity(db, { code: 'alpha', app_name: 'Alpha Circle' });
  const { app, baseUrl } = await serveApp(t, db, env);
  return { browserReady, db, alpha, app, baseUrl };
}
