// `npm run test:times`: how long each test file of the last tap run took (its whole process, start to
// exit), slowest first, with the sum. Read before adding a slow test: CI's budget is 25 minutes.
//   npm run test:times             every file
//   npm run test:times -- 15       the slowest 15
//   npm run test:times -- --md     a markdown table (for docs/testing.md)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.resolve(import.meta.dirname, '../.tap/processinfo');
const args = process.argv.slice(2);
const markdown = args.includes('--md');
const top = Number(args.find((a) => /^\d+$/.test(a)) ?? Infinity);

let entries;
try {
  entries = readdirSync(dir);
} catch {
  console.error('No tap run on record (.tap/processinfo): run the tests first.');
  process.exit(1);
}
// tap records one file per process; a test file's own process is the one with no parent.
const files = new Map();
for (const name of entries) {
  if (!name.endsWith('.json')) continue;
  const info = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
  if (info.parent || !info.externalID || typeof info.runtime !== 'number') continue;
  files.set(info.externalID, Math.max(files.get(info.externalID) ?? 0, info.runtime));
}
const rows = [...files].sort((a, b) => b[1] - a[1]);
const sum = rows.reduce((s, [, ms]) => s + ms, 0);
const seconds = (ms) => (ms / 1000).toFixed(1);
if (markdown) {
  console.log('| seconds | file |\n|---:|---|');
  for (const [file, ms] of rows.slice(0, top)) console.log(`| ${seconds(ms)} | \`${file}\` |`);
} else {
  for (const [file, ms] of rows.slice(0, top)) console.log(`${seconds(ms).padStart(7)} s  ${file}`);
}
console.log(`${markdown ? '\n' : ''}${rows.length} files, ${seconds(sum)} s in all (about ${seconds(sum / 2)} s of wall time at tap's 2 jobs)`);
