/** A member's page in the staff members area (its community by code). */
export const memberPath = (communityCode: string, userId: number) => `/admin/members/${encodeURIComponent(communityCode)}/${userId}`;
