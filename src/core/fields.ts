import { z } from 'zod';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/**
 * Field schemas shared by forms, REST, GraphQL and islands (spec section 5). Messages are locale keys
 * or catalogue codes, never literal text: the caller renders them.
 */

export const emailField = z
  .string({ error: 'errors.client.invalidEmail' })
  .trim()
  .min(1, { error: 'errors.client.invalidEmail' })
  .max(254, { error: 'errors.client.invalidEmail' })
  .pipe(z.email({ error: 'errors.client.invalidEmail' }))
  .transform((v) => v.toLowerCase());

export { PASSWORD_MAX, PASSWORD_MIN, isStrongPassword, passwordCriteria } from './password-rules.ts';
import { isStrongPassword } from './password-rules.ts';

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
