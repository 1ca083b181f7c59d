import { z } from 'zod';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { AppError, type FieldErrors } from './errors.ts';

/**
 * Field schemas shared by forms, REST, GraphQL and islands (spec section 5). Messages are locale keys
 * or catalogue codes, never literal text: the caller renders them.
 */

/**
 * Characters no text field takes: the C0 controls (U+0000 to U+001F; PostgreSQL refuses U+0000
 * outright, the others are invisible and break what reads the text later: CSV, mail, terminals) and
 * lone UTF-16 surrogates (half a character, which no encoding can store). Multi-line text keeps the
 * tab, the line feed and the carriage return.
 */
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const FORBIDDEN_IN_LINE = new RegExp(`[\\u0000-\\u001f]|${LONE_SURROGATE}`);
const FORBIDDEN_IN_MULTILINE = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]|${LONE_SURROGATE}`);

/** The locale key (and catalogue code 150) of a field that holds such a character. */
export const INVALID_CHARACTERS_KEY = 'errors.client.invalidCharacters';
export const INVALID_CHARACTERS_CODE = 150;

export function hasForbiddenCharacters(value: string, multiline = false): boolean {
  return (multiline ? FORBIDDEN_IN_MULTILINE : FORBIDDEN_IN_LINE).test(value);
}

/**
 * The one text field: a string without forbidden characters (see above), optionally at most `max`
 * characters. Every text input (forms, REST, GraphQL arguments, query strings) goes through it, in the
 * transport's schema or in the service that all transports call (`ensureText`).
 */
export const textField = (options: { multiline?: boolean; max?: number } = {}) => {
  const field = z.string().refine((v) => !hasForbiddenCharacters(v, options.multiline), { error: INVALID_CHARACTERS_KEY });
  return options.max === undefined ? field : field.max(options.max);
};

/**
 * Checks the text fields of an input (name -> value; values that are not strings are the caller's
 * business) and throws catalogue code 150 naming every field that holds a forbidden character, so a
 * form comes back with the message next to each such field. `multiline` names the fields that may
 * hold line breaks and tabs.
 */
export function ensureText(fields: Record<string, unknown>, multiline: readonly string[] = []): void {
  const errors: FieldErrors = {};
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string' && hasForbiddenCharacters(value, multiline.includes(name))) {
      errors[name] = { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY };
    }
  }
  if (Object.keys(errors).length > 0) throw new AppError(INVALID_CHARACTERS_CODE, { fields: errors });
}

export const emailField = z
  .string({ error: 'errors.client.invalidEmail' })
  .trim()
  .min(1, { error: 'errors.client.invalidEmail' })
  .max(254, { error: 'errors.client.invalidEmail' })
  .pipe(z.email({ error: 'errors.client.invalidEmail' }))
  .transform((v) => v.toLowerCase());

export { PASSWORD_MAX, PASSWORD_MIN, isStrongPassword, passwordCriteria } from '#shared/password-rules.ts';
import { isStrongPassword } from '#shared/password-rules.ts';

export const newPasswordField = z
  .string()
  .refine(isStrongPassword, { error: 'errors.client.passwordStrength' });

export const phoneField = z
  .object({ countryCode: z.string().trim().default('US'), number: z.string().trim() })
  .refine((p) => !p.number || Boolean(parsePhoneNumberFromString(p.number, p.countryCode.toUpperCase() as CountryCode)?.isValid()), {
    error: 'errors.client.invalidPhone',
  });

/** "+1 ••• ••• 0142": enough to recognise one's own number, not enough to learn someone else's. */
export function maskPhone(countryCode: string | null, number: string | null): string | null {
  if (!number) return null;
  const parsed = parsePhoneNumberFromString(number, (countryCode ?? 'US').toUpperCase() as CountryCode);
  const digits = (parsed?.nationalNumber ?? number).replace(/\D/g, '');
  const last = digits.slice(-4);
  return `${parsed ? `+${parsed.countryCallingCode} ` : ''}${'•'.repeat(Math.max(0, digits.length - 4))}${last}`;
}

export function e164(countryCode: string | null, number: string | null): string | null {
  if (!number) return null;
  return parsePhoneNumberFromString(number, (countryCode ?? 'US').toUpperCase() as CountryCode)?.number ?? null;
}

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'•'.repeat(Math.max(1, local.length - 1))}@${domain}`;
}
