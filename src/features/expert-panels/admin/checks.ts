import { AppError } from '#src/core/errors.ts';
import { hasForbiddenCharacters, INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY } from '#src/core/fields.ts';
import { plainText } from '#src/lib/plain-text.ts';
import { cleanRichText } from '#src/lib/rich-text.ts';
import { ensureEditor, type EpViewer } from '../deps.ts';

/**
 * Checking what editors type (issue 15): one-line texts, rich text (the forum's way: sanitised by the
 * shared cleanRichText, lengths on its plain text), whole numbers, dates. A refusal is the field
 * error of 'ExpertPanels.Invalid' (a 400), its message under expertPanelsAdmin.errors.
 */

const k = (key: string) => `expertPanelsAdmin.errors.${key}`;

export function fieldError(field: string, key: string, values?: Record<string, unknown>): AppError {
  return new AppError('ExpertPanels.Invalid', { fields: { [field]: { code: 'ExpertPanels.Invalid', key: k(key), values } } });
}

/** An editor (staff) acting: else Forbidden. */
export const editorOnly = (viewer: EpViewer) => ensureEditor(viewer);

function noControl(field: string, value: string, multiline = false) {
  if (hasForbiddenCharacters(value, multiline)) throw new AppError(INVALID_CHARACTERS_CODE, { fields: { [field]: { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY } } });
}

/** A one-line text: spaces collapsed, trimmed; required unless `optional`; at most `max` characters. */
export function oneLine(field: string, value: unknown, max: number, optional = false): string {
  if (value != null && typeof value !== 'string') throw fieldError(field, 'required');
  const raw = value ?? '';
  if (raw.length > max * 4) throw fieldError(field, 'tooLong', { max });
  noControl(field, raw);
  const text = raw.replace(/\s+/g, ' ').trim();
  if (!text && !optional) throw fieldError(field, 'required');
  if (text.length > max) throw fieldError(field, 'tooLong', { max });
  return text;
}

/** A multi-line plain text (a note): trimmed, at most `max` characters; empty is ''. */
export function note(field: string, value: unknown, max: number): string {
  if (value != null && typeof value !== 'string') throw fieldError(field, 'required');
  const raw = value ?? '';
  if (raw.length > max * 4) throw fieldError(field, 'tooLong', { max });
  noControl(field, raw, true);
  const text = raw.replace(/\r\n?/g, '\n').trim();
  if (text.length > max) throw fieldError(field, 'tooLong', { max });
  return text;
}

/** Rich text (HTML) sanitised, with its plain text; empty is allowed unless `required`; at most `max` plain characters. */
export function richText(field: string, value: unknown, max: number, required = false): { html: string; text: string } {
  if (value != null && typeof value !== 'string') throw fieldError(field, 'required');
  const raw = value ?? '';
  if (raw.length > max * 10) throw fieldError(field, 'tooLong', { max });
  noControl(field, raw, true);
  const html = cleanRichText(raw).trim();
  const text = plainText(html).trim();
  if (!text) {
    if (required) throw fieldError(field, 'required');
    return { html: '', text: '' };
  }
  if (text.length > max) throw fieldError(field, 'tooLong', { max });
  return { html, text };
}

/** A whole number in [min, max] (a form's digits or a number). */
export function wholeNumber(field: string, value: unknown, min: number, max: number): number {
  const s = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!s) throw fieldError(field, 'required');
  if (!/^\d{1,7}$/.test(s)) throw fieldError(field, 'number', { min, max });
  const n = Number(s);
  if (n < min || n > max) throw fieldError(field, 'number', { min, max });
  return n;
}

/**
 * A date and time: an ISO string (with or without a zone; a form's datetime-local is read as UTC) or
 * a Date. Required; must be after `after` when given.
 */
export function dateTimeField(field: string, value: unknown, after?: Date): Date {
  let d: Date | null = null;
  if (value instanceof Date) d = value;
  else if (typeof value === 'string' && value.trim()) {
    const s = value.trim();
    if (s.length > 40 || !/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) throw fieldError(field, 'date');
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s : `${s.length === 10 ? `${s}T00:00` : s.replace(' ', 'T')}Z`;
    d = new Date(zoned);
  } else if (value == null || value === '') throw fieldError(field, 'required');
  if (!d || Number.isNaN(d.getTime())) throw fieldError(field, 'date');
  if (d.getFullYear() > 9999) throw fieldError(field, 'date');
  if (after && d.getTime() <= after.getTime()) throw fieldError(field, 'future');
  return d;
}

/** `%`, `_` and `\` match themselves in an ILIKE pattern. */
export const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

export const isUniqueViolation = (e: unknown, constraint: string) => {
  const err = e as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  return err?.code === '23505' && (err.constraint === constraint || String(err.message ?? '').includes(constraint));
};
