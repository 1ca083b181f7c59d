import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createTranslator, loadMessages } from '#src/core/i18n.ts';
import { formatCurrency, formatDate, formatFee, formatRelative } from '#shared/format.ts';

const root = path.resolve(import.meta.dirname, '../..');
const t_ = createTranslator('en');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(f) ? [p] : [];
  });
}

t.test('every message key used in the code exists in the English locale', async (t) => {
  const messages = loadMessages('en');
  const used = new Set<string>();
  for (const file of [...sources(path.join(root, 'src')), ...sources(path.join(root, 'views'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bt\('([a-zA-Z0-9_.]+)'/g)) used.add(m[1]!);
  }
  t.ok(used.size > 20, `found ${used.size} keys`);
  for (const key of used) t.ok(messages.has(key), key);
});

t.test('messages format with ICU arguments and plurals', async (t) => {
  t.equal(t_('shell.titleTemplate', { page: 'Members', appName: 'Summit Council' }), 'Members | Summit Council');
  t.equal(t_('format.minutesAgo', { n: 1 }), '1 minute ago');
  t.equal(t_('format.minutesAgo', { n: 5 }), '5 minutes ago');
  t.throws(() => t_('no.such.key'), /Missing message/);
});

t.test('dates show like Mon D, YYYY and currency like $1,234.56', async (t) => {
  t.equal(formatDate('2026-11-21T12:00:00Z'), 'Nov 21, 2026');
  t.equal(formatDate(new Date('2025-01-02T00:00:00Z')), 'Jan 2, 2025');
  t.equal(formatCurrency(1234.56), '$1,234.56');
  t.equal(formatCurrency(5), '$5.00');
  t.equal(formatFee(1500), '$1,500', 'a fee drops the trailing .00');
  t.equal(formatFee(1500.5), '$1,500.50');
});

t.test('relative times switch to a date after 21 days and say how soon they change', async (t) => {
  const now = new Date('2026-11-21T12:00:00Z');
  const ago = (ms: number) => formatRelative(new Date(now.getTime() - ms), now, t_);
  t.same(ago(10_000), { text: 'just now', refreshMs: 60_000 });
  t.same(ago(5 * 60_000), { text: '5 minutes ago', refreshMs: 60_000 });
  t.same(ago(2 * 3600_000), { text: '2 hours ago', refreshMs: 3600_000 });
  t.same(ago(5 * 3600_000), { text: '5 hours ago', refreshMs: null });
  t.same(ago(21 * 86400_000), { text: '21 days ago', refreshMs: null });
  t.same(ago(22 * 86400_000), { text: 'Oct 30, 2026', refreshMs: null });
});

t.test('every English message formats exactly as IntlMessageFormat formats it, plurals and selects included', async (t) => {
  const { IntlMessageFormat } = await import('intl-messageformat');
  const messages = loadMessages('en');
  const argNames = (source: string) => new Set([...source.matchAll(/\{\s*([a-zA-Z0-9_]+)\s*[,}]/g)].map((m) => m[1]!));
  let compared = 0;
  const differing: string[] = [];
  for (const [key, source] of messages) {
    const names = argNames(source);
    for (const sample of [0, 1, 2, 5, 21, 1500, 'other', 'Amara']) {
      const values = Object.fromEntries([...names].map((n) => [n, sample]));
      let expected: string;
      try {
        expected = String(new IntlMessageFormat(source, 'en').format(values as Record<string, string>));
      } catch {
        continue; // e.g. a plural given a word
      }
      const got = t_(key, values);
      if (got !== expected) differing.push(`${key} with ${JSON.stringify(sample)}: ${JSON.stringify(got)}, not ${JSON.stringify(expected)}`);
      compared++;
    }
  }
  t.ok(compared > 100, `compared ${compared} formats`);
  t.same(differing, [], 'no message formats differently');
  t.throws(() => t_('format.minutesAgo'), /not provided/, 'a missing value still throws as before');
});
