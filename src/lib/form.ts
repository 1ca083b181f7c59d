import type { z } from 'zod';
import { AppError } from '#src/core/errors.ts';

/** A parsed urlencoded form body: every field a string, or absent. */
export type FormBody = Record<string, string | undefined>;

/** A field's text, or '' for anything that is not a string (absent, an array, a number from JSON). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');


/**
 * A form POST's (or a REST body's) fields through its route's zod schema: the one way in for input.
 * What does not fit the schema is a bad request (400 'BadRequest.Validation'); a field the member got
 * wrong is the service's to refuse, with its message next to the field (AppError `fields`).
 */
export function formOf<S extends z.ZodType>(schema: S, request: { body?: unknown }): z.infer<S> {
  const parsed = schema.safeParse(request.body ?? {});
  if (!parsed.success) throw new AppError('BadRequest.Validation');
  return parsed.data;
}
