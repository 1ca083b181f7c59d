import t from 'tap';
import { activeBlackout, canMove, checkBody, checkByline, checkTitle, SPEC_BLACKOUT, ARTICLE_STATUSES } from '#src/features/articles/rules.ts';

const words = (n: number) => `<p>${Array.from({ length: n }, (_, i) => `word${i}`).join(' ')}</p>`;

t.test('the body needs 500 to 1000 words inclusive', async (t) => {
  t.same(checkBody(words(499)), { ok: false, reason: 'tooShort' });
  t.same(checkBody(words(500)), { ok: true });
  t.same(checkBody(words(1000)), { ok: true });
  t.same(checkBody(words(1001)), { ok: false, reason: 'tooLong' });
});

t.test('the title needs 1 to 254 characters', async (t) => {
  t.same(checkTitle(''), { ok: false, reason: 'required' });
  t.same(checkTitle('   '), { ok: false, reason: 'required' });
  t.same(checkTitle('x'), { ok: true });
  t.same(checkTitle('x'.repeat(254)), { ok: true });
  t.same(checkTitle('x'.repeat(255)), { ok: false, reason: 'tooLong' });
});

t.test('the byline: 140 characters of plain text, one link, not empty', async (t) => {
  t.same(checkByline(`<p>${'b'.repeat(140)}</p>`), { ok: true });
  t.same(checkByline(`<p>${'b'.repeat(141)}</p>`), { ok: false, reason: 'tooLong' });
  t.same(checkByline(`<p>${'&lt;'.repeat(140)}</p>`), { ok: true }, 'entities count as one character each');
  t.same(checkByline('<p>CEO of <a href="https://a.example">Acme</a></p>'), { ok: true });
  t.same(checkByline('<p><a href="https://a.example">A</a> and <a href="https://b.example">B</a></p>'), { ok: false, reason: 'tooManyLinks' });
  t.same(checkByline('<p></p>'), { ok: false, reason: 'required' });
});

t.test('the blackout window: 2024-12-23 up to, not including, 2025-01-02', async (t) => {
  const at = (iso: string) => activeBlackout(new Date(iso), [SPEC_BLACKOUT]);
  t.equal(at('2024-12-22T23:59:59Z'), null);
  t.same(at('2024-12-23T00:00:00Z'), SPEC_BLACKOUT);
  t.same(at('2025-01-01T23:59:59Z'), SPEC_BLACKOUT);
  t.equal(at('2025-01-02T00:00:00Z'), null);
});

t.test('who may move an article where', async (t) => {
  t.ok(canMove('author', 'DRAFT', 'SUBMITTED_FOR_REVIEW'));
  t.ok(canMove('author', 'NEEDS_REVISION', 'SUBMITTED_FOR_REVIEW'));
  t.ok(canMove('author', 'READY_TO_APPROVE', 'READY_TO_PUBLISH'));
  t.notOk(canMove('author', 'FIRST_ROUND_EDIT', 'FINAL_EDIT'), 'the author cannot do the editors’ moves');
  t.notOk(canMove('author', 'DRAFT', 'PUBLISHED'));
  t.ok(canMove('editor', 'SUBMITTED_FOR_REVIEW', 'FIRST_ROUND_EDIT'));
  t.ok(canMove('editor', 'FIRST_ROUND_EDIT', 'NEEDS_REVISION'));
  t.ok(canMove('editor', 'FINAL_EDIT', 'READY_TO_APPROVE'));
  t.notOk(canMove('editor', 'READY_TO_APPROVE', 'READY_TO_PUBLISH'), 'only the author approves');
  t.ok(canMove('editor', 'READY_TO_PUBLISH', 'SCHEDULED'));
  t.ok(canMove('system', 'SCHEDULED', 'PUBLISHED'));
  t.notOk(canMove('system', 'READY_TO_PUBLISH', 'PUBLISHED'));
  for (const from of ['PUBLISHED', 'MANUALLY_PUBLISHED'] as const) {
    for (const to of ARTICLE_STATUSES) {
      t.notOk(canMove('editor', from, to) || canMove('author', from, to), `a published article stays (${from} -> ${to})`);
    }
  }
});
