import type { Gate, Role } from '#src/db/types.ts';

export type IdentityKind = 'PUBLIC' | 'MEMBER' | 'ADMIN';

export type SignedInUser = {
  id: number;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  roles: Role[];
  gate: Gate;
  avatarUrl: string | null;
  companyName: string | null;
  jobTitle: string | null;
  locationName: string | null;
  locationFamiliarName: string | null;
  publicUrl: string | null;
  isModerator: boolean;
};

export type Identity =
  | { kind: 'PUBLIC'; loggedIn: false; user: null; sessionId: null }
  | {
      kind: 'MEMBER' | 'ADMIN';
      loggedIn: true;
      user: SignedInUser;
      sessionId: string;
      /**
       * The bell's dot as the session's own statement found it when the request began (whether the
       * member has a notification not yet seen), so a page need not probe again; absent where the
       * identity was made some other way.
       */
      unviewedAtStart?: boolean;
    };

export const PUBLIC_IDENTITY: Identity = Object.freeze({ kind: 'PUBLIC', loggedIn: false, user: null, sessionId: null });

