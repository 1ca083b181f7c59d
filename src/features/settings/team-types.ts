/**
 * Settings → Team (spec section 3 "Support contact / team member"): shared types of the service, the
 * routes, GraphQL and the views (views import these types only).
 */

export const TEAM_TYPES = ['ea', 'pr'] as const;
/** 'ea' executive assistant, 'pr' PR/marketing support. */
export type TeamType = (typeof TEAM_TYPES)[number];

export type ContactPhone = { countryCode: string; number: string };
export type OfficePhone = ContactPhone & { extension: string | null };

export type SupportContact = {
  id: number;
  type: TeamType;
  name: string;
  email: string | null;
  mobilePhone: ContactPhone | null;
  officePhone: OfficePhone | null;
};

/** Both contacts of a member, each null when not set. */
export type Team = Record<TeamType, SupportContact | null>;

/** The form's fields as typed (what a refused form shows again). Country fields hold a region code: 'US'. */
export type TeamDraft = {
  name: string;
  email: string;
  mobilePhoneCountry: string;
  mobilePhone: string;
  officePhoneCountry: string;
  officePhone: string;
  officeExtension: string;
};

/** What the country select offers: region code and its label, "United States (+1)". */
export type CountryOption = { code: string; label: string };

/** The longest values. */
export const TEAM_LIMITS = { name: 120, email: 254, phone: 30, extension: 10 } as const;
