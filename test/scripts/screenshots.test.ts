import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import t from 'tap';
import { setupDatabase } from '#test/helpers/app.ts';
import { CHROMIUM, serveApp } from '#test/helpers/browser.ts';

/**
 * `npm run screenshots` (scripts/screenshots.ts, issue 30) still works: one page, its desktop and
 * phone pictures, taken by the script as a command (`--base`: the demo seed served here; the script's
 * own start, a fresh PGlite seeded from scratch, is too slow for CI) into a temporary folder. The
 * browser reaches nothing but 127.0.0.1.
 */

// A child process that loads the script and its own Chromium: give a busy CI machine room (132 s seen at load 20).
t.setTimeout(300_000);

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

t.test('the screenshot script pictures one page at desktop and phone width', { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` }, async (t) => {
  const db = await setupDatabase(t, { seeded: true });
  const { baseUrl } = await serveApp(t, db, { DEFAULT_COMMUNITY: 'summit' });
  const out = mkdtempSync(path.join(os.tmpdir(), 'screenshots-test-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));

  const { stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/screenshots.ts', '--base', baseUrl, '--only', 'home', '--out', out], {
    cwd: ROOT,
    timeout: 240_000,
  }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`the script failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  });
  t.match(stderr, /2 picture\(s\)/, 'it reports its two pictures');

  for (const [file, width] of [
    ['home-desktop.png', 1280],
    ['home-phone.png', 375],
  ] as const) {
    const full = path.join(out, file);
    t.ok(existsSync(full), `${file} was written`);
    const bytes = readFileSync(full);
    t.ok(bytes.subarray(0, 8).equals(PNG_SIGNATURE), `${file} is a PNG`);
    t.ok(bytes.length > 5000, `${file} is not empty (${bytes.length} bytes)`);
    const meta = await sharp(bytes).metadata();
    t.equal(meta.width, width, `${file} is ${width} px wide`);
    t.ok((meta.height ?? 0) >= 600, `${file} is a screen tall at least (${meta.height} px)`);
  }

  // A name the script does not know is refused, with the list of names.
  const refused = await run(process.execPath, ['--import', 'tsx', 'scripts/screenshots.ts', '--base', baseUrl, '--only', 'nope', '--out', out], { cwd: ROOT, timeout: 30_000 }).then(
    () => null,
    (e: { code?: number; stderr?: string }) => e,
  );
  t.equal(refused?.code, 2, 'an unknown page name exits 2');
  t.match(refused?.stderr ?? '', /unknown page\(s\): nope[\s\S]*pages: home, forum/, 'and says which names there are');
});
