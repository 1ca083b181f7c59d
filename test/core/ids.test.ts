import t from 'tap';
import { AppError } from '#src/core/errors.ts';
import { MAX_ID, parseId, requireId } from '#src/core/ids.ts';

t.test('an id is a positive integer up to the database range, as a number or plain decimal digits', async (t) => {
  t.equal(parseId('1'), 1);
  t.equal(parseId(42), 42);
  t.equal(parseId(String(MAX_ID)), MAX_ID);
  for (const bad of ['', '0', '007', '-1', '+1', ' 1', '1 ', '1e3', '1.0', '0x10', String(MAX_ID + 1), '99999999999', 0, -3, 1.5, MAX_ID + 1, Number.NaN, null, undefined, true, ['1'], { id: 1 }]) {
    t.equal(parseId(bad), null, `refused: ${JSON.stringify(bad)}`);
  }
});

t.test("a required id that names no row is NotFound, or the area's own error", async (t) => {
  t.equal(requireId('9'), 9);
  t.throws(() => requireId('1e9x'), { code: 'NotFound' });
  t.throws(() => requireId('abc', () => new AppError('Forum.PostNotFound')), { code: 'Forum.PostNotFound' });
});
