import t from 'tap';
import { toCsv, csvCell, csvRow } from '#src/lib/csv.ts';
import { defaultPair, diffRevisions, diffText } from '#src/features/articles/diff.ts';

t.test('a word-level difference marks added and removed words and keeps the rest', async (t) => {
  const parts = diffText('the quick brown fox', 'the slow brown fox jumps')!;
  t.same(
    parts.filter((p) => p.kind !== 'same').map((p) => [p.kind, p.text.trim()]),
    [
      ['removed', 'quick'],
      ['added', 'slow'],
      ['added', 'jumps'],
    ],
  );
  t.equal(parts.filter((p) => p.kind !== 'removed').map((p) => p.text).join(''), 'the slow brown fox jumps', 'the new text reads back without the removals');
});

t.test('revisions are compared as the text a reader sees, title and body, with counts', async (t) => {
  const diff = diffRevisions({ title: 'Old title', content: '<p>One <strong>two</strong> three.</p><p>Four &amp; five</p>' }, { title: 'New title', content: '<p>One two three.</p><p>Four &amp; six</p>' })!;
  t.ok(diff);
  t.same(diff.title.filter((p) => p.kind !== 'same').map((p) => p.text), ['Old', 'New']);
  t.notOk(diff.body.some((p) => p.text.includes('<')), 'no markup in the compared text');
  t.same(diff.body.filter((p) => p.kind !== 'same').map((p) => p.text), ['five', 'six'], 'markup-only changes are not differences');
  t.equal(diff.added, 2);
  t.equal(diff.removed, 2);
  t.same(diffRevisions({ title: 'A', content: '<p>x</p>' }, { title: 'A', content: '<p>x</p>' })!.body, [{ kind: 'same', text: 'x' }]);
});

t.test('the default pair is the one before the latest and the latest', async (t) => {
  t.equal(defaultPair([4]), null);
  t.same(defaultPair([4, 9, 12]), { from: 9, to: 12 });
});

t.test('CSV cells are quoted as RFC 4180 says and never start a formula', async (t) => {
  t.equal(csvCell('plain'), 'plain');
  t.equal(csvCell('a, b'), '"a, b"');
  t.equal(csvCell('say "hi"'), '"say ""hi"""');
  t.equal(csvCell('two\nlines'), '"two\nlines"');
  t.equal(csvCell('=SUM(A1:A9)'), "'=SUM(A1:A9)");
  t.equal(csvCell('+1'), "'+1");
  t.equal(csvCell('-2'), "'-2");
  t.equal(csvCell('@cmd'), "'@cmd");
  t.equal(csvCell('\tx'), "'\tx");
  t.equal(csvCell('\rx'), '"\'\rx"', 'guarded, then quoted for the carriage return');
  t.equal(csvCell('=HYPERLINK("http://x", "y")'), '"\'=HYPERLINK(""http://x"", ""y"")"');
  t.equal(csvCell(-3), '-3', 'numbers written by the server are left alone');
  t.equal(csvCell(null), '');
  t.equal(csvCell(new Date('2026-11-21T12:00:00Z')), '2026-11-21T12:00:00.000Z');
  t.equal(csvRow(['a', 1, null]), 'a,1,');
  t.equal(toCsv(['h1', 'h2'], [['x', 'y']]), '\uFEFFh1,h2\r\nx,y\r\n');
});
