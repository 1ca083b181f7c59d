/** What the security views get: plain data, decided by the service (src/features/settings/security.ts). */
export type PhoneView = { countryCode: string; number: string; formatted: string };

export type SessionView = { id: string; device: string | null; signedInAt: Date; lastAccessAt: Date | null; current: boolean };

export type SecurityView = {
  username: string;
  concierge: { email: string; phone: string };
  phone: PhoneView | null;
  /** This device first, then the most recently used others (SESSIONS_SHOWN in all). */
  sessions: SessionView[];
  /** Every other active session, listed or not: what "Sign out everywhere else" ends. */
  otherSessionCount: number;
};

export type CountryOption = { code: string; label: string };

export type PasswordFormState = { errors: { oldPassword?: string; password?: string; confirm?: string; form?: string } };

export type PhoneFormState = { values: { countryCode: string; number: string }; errors: { countryCode?: string; number?: string; form?: string } };
