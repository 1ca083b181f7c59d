import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { AppError, type FieldErrors } from '#src/core/errors.ts';
import { emailField, hasForbiddenCharacters, INVALID_CHARACTERS_CODE, INVALID_CHARACTERS_KEY } from '#src/core/fields.ts';
import type { Db } from '#src/db/index.ts';
import { deleteInCommunity, insertInCommunity, selectInCommunity, type Tenant } from '#src/db/tenancy.ts';
import type { Clock } from '#src/core/clock.ts';
import { TEAM_LIMITS, TEAM_TYPES, type ContactPhone, type CountryOption, type OfficePhone, type SupportContact, type Team, type TeamDraft, type TeamType } from './team-types.ts';

/**
 * Settings → Team: the member's executive assistant ('ea') and PR/marketing contact ('pr'), at most
 * one of each per member and community (spec sections 3 and 5). Every transport (pages, GraphQL)
 * goes through checkContact / saveContact / deleteContact; every query is scoped to the community.
 */

export type TeamDeps = { db: Db; clock: Clock; community: Tenant };

export const DEFAULT_COUNTRY = 'US';

export const isTeamType = (v: unknown): v is TeamType => typeof v === 'string' && (TEAM_TYPES as readonly string[]).includes(v);

/** What saveContact takes, from a form or from GraphQL: values that are not strings are refused. */
export type ContactInput = {
  name?: unknown;
  email?: unknown;
  mobilePhone?: { countryCode?: unknown; number?: unknown } | null;
  officePhone?: { countryCode?: unknown; number?: unknown; extension?: unknown } | null;
};

export type ContactValues = {
  name: string;
  email: string;
  mobilePhone: ContactPhone | null;
  officePhone: OfficePhone | null;
};

const COUNTRIES = new Set<string>(getCountries());

let countryList: CountryOption[] | undefined;
/** Every country libphonenumber knows, by English name, "United States (+1)". */
export function countryOptions(): CountryOption[] {
  if (!countryList) {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    countryList = getCountries()
      .map((code) => ({ code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
      .sort((a, b) => a.label.localeCompare(b.label, 'en'));
  }
  return countryList;
}

type Refusal = { code: FieldErrors[string]['code']; key: string; values?: Record<string, unknown> };

/** A field's text: '' when absent (undefined or null), undefined when it is not text at all (refused). */
const asText = (v: unknown): string | undefined => (v === undefined || v === null ? '' : typeof v === 'string' ? v : undefined);

/**
 * One phone: empty number means no phone (null); otherwise it must parse as a valid number for its
 * country (default US). A number typed with its own +prefix wins over the select. Stored as the
 * region code and the national format: "(512) 555-0123".
 */
function checkPhone(countryRaw: unknown, numberRaw: unknown): { value: ContactPhone | null } | { error: Refusal } {
  const number = asText(numberRaw);
  const country = asText(countryRaw);
  if (number === undefined || country === undefined) return { error: { code: 110, key: 'errors.client.invalidPhone' } };
  const typed = number.trim();
  if (typed === '') return { value: null };
  if (hasForbiddenCharacters(typed) || hasForbiddenCharacters(country)) return { error: { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY } };
  const region = country.trim().toUpperCase() || DEFAULT_COUNTRY;
  if (typed.length > TEAM_LIMITS.phone || !COUNTRIES.has(region)) return { error: { code: 110, key: 'errors.client.invalidPhone' } };
  const parsed = parsePhoneNumberFromString(typed, region as CountryCode);
  if (!parsed?.isValid()) return { error: { code: 110, key: 'errors.client.invalidPhone' } };
  return { value: { countryCode: parsed.country ?? region, number: parsed.formatNational() } };
}

/** The clean values, or why each field is refused (field names as in the form: see TeamDraft). */
export function checkContact(input: ContactInput): { values: ContactValues | null; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const name = asText(input.name);
  const trimmedName = (name ?? '').trim();
  if (name === undefined) errors.name = { code: 'BadRequest.Validation', key: 'team.errors.nameRequired' };
  else if (hasForbiddenCharacters(trimmedName)) errors.name = { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY };
  else if (trimmedName === '') errors.name = { code: 900, key: 'team.errors.nameRequired' };
  else if (trimmedName.length > TEAM_LIMITS.name) errors.name = { code: 'BadRequest.Validation', key: 'team.errors.nameTooLong', values: { max: TEAM_LIMITS.name } };

  const emailRaw = asText(input.email);
  let email = '';
  if (typeof emailRaw === 'string' && hasForbiddenCharacters(emailRaw)) errors.email = { code: INVALID_CHARACTERS_CODE, key: INVALID_CHARACTERS_KEY };
  else {
    const parsed = emailField.safeParse(emailRaw ?? null);
    if (parsed.success) email = parsed.data;
    else errors.email = { code: 130, key: 'errors.client.invalidEmail' };
  }

  if (input.mobilePhone !== undefined && input.mobilePhone !== null && typeof input.mobilePhone !== 'object') errors.mobilePhone = { code: 110, key: 'errors.client.invalidPhone' };
  const mobile = checkPhone(input.mobilePhone?.countryCode, input.mobilePhone?.number);
  if ('error' in mobile) errors.mobilePhone = mobile.error;

  const office = checkPhone(input.officePhone?.countryCode, input.officePhone?.number);
  if ('error' in office) errors.officePhone = office.error;
  const extensionRaw = asText(input.officePhone?.extension);
  const extension = (extensionRaw ?? '').trim().replace(/^(ext\.?|x)\s*/i, '');
  if (extensionRaw === undefined || (extension !== '' && !new RegExp(`^\\d{1,${TEAM_LIMITS.extension}}$`).test(extension))) {
    errors.officeExtension = { code: 'BadRequest.Validation', key: 'team.errors.extension', values: { max: TEAM_LIMITS.extension } };
  } else if (extension !== '' && 'value' in office && office.value === null) {
    errors.officeExtension = { code: 'BadRequest.Validation', key: 'team.errors.extensionWithoutNumber' };
  }

  if (Object.keys(errors).length) return { values: null, errors };
  const officeValue = 'value' in office && office.value ? { ...office.value, extension: extension || null } : null;
  return { values: { name: trimmedName, email, mobilePhone: 'value' in mobile ? mobile.value : null, officePhone: officeValue }, errors };
}

type Row = {
  id: number;
  type: TeamType;
  name: string;
  email: string | null;
  mobile_country_code: string | null;
  mobile_number: string | null;
  office_country_code: string | null;
  office_number: string | null;
  office_extension: string | null;
};

const COLUMNS = [
  'support_contacts.id',
  'support_contacts.type',
  'support_contacts.name',
  'support_contacts.email',
  'support_contacts.mobile_country_code',
  'support_contacts.mobile_number',
  'support_contacts.office_country_code',
  'support_contacts.office_number',
  'support_contacts.office_extension',
] as const;

function toContact(r: Row): SupportContact {
  return {
    id: r.id,
    type: r.type,
    name: r.name,
    email: r.email,
    mobilePhone: r.mobile_number ? { countryCode: r.mobile_country_code ?? DEFAULT_COUNTRY, number: r.mobile_number } : null,
    officePhone: r.office_number ? { countryCode: r.office_country_code ?? DEFAULT_COUNTRY, number: r.office_number, extension: r.office_extension } : null,
  };
}

/** The member's contacts in this community. */
export async function findTeam(deps: Pick<TeamDeps, 'db' | 'community'>, userId: number): Promise<Team> {
  const rows = await selectInCommunity(deps.db, 'support_contacts', deps.community).select(COLUMNS).where('support_contacts.user_id', '=', userId).execute();
  const team: Team = { ea: null, pr: null };
  for (const r of rows) team[r.type] = toContact(r);
  return team;
}

export async function findContact(deps: Pick<TeamDeps, 'db' | 'community'>, userId: number, type: TeamType): Promise<SupportContact | null> {
  return (await findTeam(deps, userId))[type];
}

/**
 * Adds or replaces the member's contact of this type (one per member, community and type). Refused
 * fields throw BadRequest.Validation naming each (150 when every refusal is a forbidden character).
 */
export async function saveContact(deps: TeamDeps, userId: number, type: TeamType, input: ContactInput): Promise<SupportContact> {
  const { values, errors } = checkContact(input);
  if (!values) {
    const all = Object.values(errors);
    throw new AppError(all.every((e) => e.code === INVALID_CHARACTERS_CODE) ? INVALID_CHARACTERS_CODE : 'BadRequest.Validation', { fields: errors });
  }
  const now = deps.clock.now();
  const set = {
    name: values.name,
    email: values.email,
    mobile_country_code: values.mobilePhone?.countryCode ?? null,
    mobile_number: values.mobilePhone?.number ?? null,
    office_country_code: values.officePhone?.countryCode ?? null,
    office_number: values.officePhone?.number ?? null,
    office_extension: values.officePhone?.extension ?? null,
    updated_at: now,
  };
  const row = await insertInCommunity(deps.db, 'support_contacts', deps.community, { user_id: userId, type, created_at: now, ...set })
    .onConflict((oc) => oc.columns(['community_id', 'user_id', 'type']).doUpdateSet(set))
    .returning(['id', 'type', 'name', 'email', 'mobile_country_code', 'mobile_number', 'office_country_code', 'office_number', 'office_extension'])
    .executeTakeFirstOrThrow();
  return toContact(row);
}

/** Removes the member's contact of this type; the removed contact's id, or null when there was none. */
export async function deleteContact(deps: Pick<TeamDeps, 'db' | 'community'>, userId: number, type: TeamType): Promise<number | null> {
  const row = await deleteInCommunity(deps.db, 'support_contacts', deps.community)
    .where('support_contacts.user_id', '=', userId)
    .where('support_contacts.type', '=', type)
    .returning('support_contacts.id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The form's values for a stored contact (or an empty form). */
export function draftOf(contact: SupportContact | null): TeamDraft {
  return {
    name: contact?.name ?? '',
    email: contact?.email ?? '',
    mobilePhoneCountry: contact?.mobilePhone?.countryCode ?? DEFAULT_COUNTRY,
    mobilePhone: contact?.mobilePhone?.number ?? '',
    officePhoneCountry: contact?.officePhone?.countryCode ?? DEFAULT_COUNTRY,
    officePhone: contact?.officePhone?.number ?? '',
    officeExtension: contact?.officePhone?.extension ?? '',
  };
}

/** A form's draft as service input. */
export function inputOf(draft: TeamDraft): ContactInput {
  return {
    name: draft.name,
    email: draft.email,
    mobilePhone: { countryCode: draft.mobilePhoneCountry, number: draft.mobilePhone },
    officePhone: { countryCode: draft.officePhoneCountry, number: draft.officePhone, extension: draft.officeExtension },
  };
}
