/** The signed-in admin (their user id): what they may see and do follows from their ADMIN memberships. */
export type Staff = { userId: number };

/** A community as the staff's pages name it. */
export type StaffCommunity = { id: number; code: string; name: string };
