/** A parsed urlencoded form body: every field a string, or absent. */
export type FormBody = Record<string, string | undefined>;

/** A field's text, or '' for anything that is not a string (absent, an array, a number from JSON). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

