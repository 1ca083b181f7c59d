import { AppError } from '#src/core/errors.ts';
import { str } from '#src/lib/form.ts';

/** An ID argument: a positive integer in the database's range, or NotFound (no row has any other id; hostile ids never reach SQL). */
export function idOrNotFound(v: unknown): number {
  const s = typeof v === 'number' ? String(v) : str(v);
  const n = /^[1-9]\d{0,9}$/.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n) || n > 2_147_483_647) throw new AppError('NotFound');
  return n;
}
