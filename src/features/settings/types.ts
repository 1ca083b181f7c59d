/** What the security views get: plain data, decided by the service (src/features/settings/security.ts). */
export type PhoneView = { countryCode: string; number: string; formatted: string };

export type SessionView = { id: string; device: string | null; signedInAt: Date; lastAccessAt: Date | null; current: boolean };

export type SecurityView = {
  username: string;
  concierge: { email: string; phone: string };
  phone: PhoneView | null;
  sessions: SessionView[];
};

export type CountryOption = { code: string; label: string };

export type PasswordFormState = { errors: { oldPassword?: string; password?: string; confirm?: string; form?: string } };

export type PhoneFormState = { values: { countryCode: string; number: string }; errors: { countryCode?: string; number?: string; form?: string } };
