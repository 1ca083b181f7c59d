import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { parseId } from '#src/core/ids.ts';

/**
 * The one way in for input (issue 26): every edge (a form POST, a REST body, a query string, a route's
 * path parameters) reads its input through a zod schema declared beside its route, with the helpers
 * below. What does not fit the schema's shape is refused at the edge (400 'BadRequest.Validation'; a
 * path id that is not an id is 404, the same answer as an unknown one). A value the member got wrong
 * (empty, too long, a control character) is the service's to refuse, with its message next to the
 * field (AppError `fields`), so the edge schemas take shapes, not rules.
 */

/** A parsed urlencoded form body: every field a string, or absent. */
export type FormBody = Record<string, string | undefined>;

/** A field's text, or '' for anything that is not a string (absent, an array, a number from JSON). */
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * A form's text field: its text, '' when absent. Capped only to keep absurd payloads out (1 MiB);
 * the service applies the real rules and names the field.
 */
export const field = (max = 1_048_576) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((v) => v ?? '');

/** A checkbox: true when ticked (`on`, or `true` from a script), false when absent or blank (''). */
export const checkbox = z
  .enum(['on', 'true', 'false', ''])
  .optional()
  .transform((v) => v === 'on' || v === 'true');

/** A row id (the one id parser, decision 0047): a positive integer given as digits or a number. */
export const id = z.unknown().transform((v, ctx) => {
  const parsed = parseId(v);
  if (parsed === null) {
    ctx.addIssue({ code: 'custom', message: 'not an id' });
    return z.NEVER;
  }
  return parsed;
});

/** An optional row id: absent or '' is null; anything else must be an id. */
export const optionalId = z.unknown().optional().transform((v, ctx) => {
  if (v === undefined || v === null || v === '') return null;
  const parsed = parseId(v);
  if (parsed === null) {
    ctx.addIssue({ code: 'custom', message: 'not an id' });
    return z.NEVER;
  }
  return parsed;
});

function parsed<S extends z.ZodType>(schema: S, value: unknown, refuse: () => AppError): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw refuse();
  return result.data;
}

/** A form POST's (or a REST body's) fields through its route's schema; a misfit is 400. */
export function formOf<S extends z.ZodType>(schema: S, request: { body?: unknown }): z.infer<S> {
  return parsed(schema, request.body, () => new AppError('BadRequest.Validation'));
}

/** A query string through its route's schema; a misfit is 400. */
export function queryOf<S extends z.ZodType>(schema: S, request: { query?: unknown }): z.infer<S> {
  return parsed(schema, request.query, () => new AppError('BadRequest.Validation'));
}

/**
 * A route's path parameters through its schema: a misfit (an id that is not an id) names no row, so it
 * is the same answer as an unknown one, NotFound unless the area names its own not-found error.
 */
export function paramsOf<S extends z.ZodType>(schema: S, request: { params?: unknown }, notFound: () => AppError = () => new AppError('NotFound')): z.infer<S> {
  return parsed(schema, request.params, notFound);
}

/** The common path: `/:id`. */
export const idParams = z.object({ id });
