/** A parsed urlencoded form body: every field a string, or absent. */
export type FormBody = Record<string, string | undefined>;

/** A field's text, or '' for anything that is not a string (absent, an array, a number from JSON). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A row id from a form or a query string: a positive integer in the database's range, else null. */
export const positiveId = (value: unknown): number | null => {
  const n = Number(value);
  return typeof value === 'string' && /^\d{1,10}$/.test(value) && n > 0 && n <= 2_147_483_647 ? n : null;
};
