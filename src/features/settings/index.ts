/**
 * The settings area's public face: the only module other areas (and views) import from. Security
 * (password, phone, sessions) and the member's team.
 */
export { changeMobilePhone, changePassword, countryOptions, currentPhone } from './security.ts';
export { findTeam, saveContact } from './team.ts';
export { TEAM_LIMITS, TEAM_TYPES } from './team-types.ts';
export type { ContactPhone, OfficePhone, SupportContact, Team, TeamDraft, TeamType } from './team-types.ts';
export type { CountryOption, PasswordFormState, PhoneFormState, SecurityView, SessionView } from './types.ts';
